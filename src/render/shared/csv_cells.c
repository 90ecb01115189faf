/* The cells of results.csv and compare.csv (csv_cells.h). */
#include "render/shared/csv_cells.h"

#include <csv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/escape.h"
#include "util/text.h"

void sr_csv_text(sr_strbuf *sb, const char *text, bool first)
{
    if (!first)
        sr_strbuf_putc(sb, ',');
    if (!text)
        return;
    /* Control characters and bytes that are not UTF-8 in their visible
     * form (util/escape.h): a spreadsheet shows them, a terminal obeys. */
    char *shown = sr_visible_text_dup(text, 0);
    text = shown;
    char *guarded = NULL;
    if (text[0] && strchr("=+-@\t\r", text[0]))
        text = guarded = sr_asprintf("'%s", text);
    size_t n = strlen(text), need;
    if (!sr_size_mul(n, 2, &need) || !sr_size_add(need, 3, &need))
        sr_die_oom(); /* no such buffer could be had */
    sr_strbuf_reserve(sb, need);
    sb->len += csv_write(sb->data + sb->len, need, text, n);
    sb->data[sb->len] = '\0';
    free(guarded);
    free(shown);
}

void sr_csv_num(sr_strbuf *sb, double v)
{
    char buf[64];
    sr_strbuf_putc(sb, ',');
    if (!isfinite(v))
        return;
    /* 15 significant digits are exact for a double's decimal precision and
     * drop the binary noise of arithmetic (0.6299999999999999 is 0.63);
     * then the shortest form that reads back as that. */
    snprintf(buf, sizeof buf, "%.15g", v);
    sr_strbuf_puts(sb, sr_format_json_number(buf, sizeof buf, strtod(buf, NULL)));
}
