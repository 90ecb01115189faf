/* The marks a table cell can carry, one mechanism for every table of every
 * document: a symbol appended to the cell's figure, and the mark's legend
 * under every table that uses it (the table layer writes it at
 * sr_tb_finish, so no table can use a mark without explaining it). A cell
 * may also carry a short flag beside its figure ("384 of 768 failed"), and
 * a mark a footnote naming the cell ("qwen3-4b at c=16: ..."), listed in
 * the legend. Internal to src/render. */
#ifndef SR_RENDER_SHARED_MARKS_H
#define SR_RENDER_SHARED_MARKS_H

#include <stdbool.h>

typedef enum {
    SR_MARK_NOISY = 0,       /* † the scenario's runs spread too much to be a measurement */
    SR_MARK_VERSIONS,        /* ‡ compared across BFCL versions */
    SR_MARK_FAILED_REQUESTS, /* § some requests of the runs failed (validity check failed_requests) */
    SR_MARK_VALIDITY_FAIL,   /* ¶ another validity check failed */
    SR_MARK_VALIDITY_WARN,   /* ◊ a validity check warns */
    SR_MARK_CUSTODY,         /* ≠ an input of the entry is missing from the copy or differs from its listing */
    SR_N_MARKS
} sr_mark;

/* The symbol as UTF-8: "†", "‡", "§", "¶", "◊", "≠". */
const char *sr_mark_symbol(sr_mark m);
/* The legend's words after "<symbol>: ", without a full stop. */
const char *sr_mark_legend(sr_mark m);

#endif
