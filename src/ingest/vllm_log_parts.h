/* What the parts of the server-log reader share (internal to src/ingest/vllm_log*.c): the prefix stripper, the failure
 * readings, the facts. */
#ifndef SR_INGEST_VLLM_LOG_PARTS_H
#define SR_INGEST_VLLM_LOG_PARTS_H

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ingest/ingest.h"
#include "ingest/vllm_settings.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

#define MESSAGE_MAX 500 /* bytes kept of a failure message */

/* Hard-wrapped lines: a piece is a wrapped one when it is this wide (a
 * terminal's width; an unwrapped engine config line is thousands of
 * columns), and a joined line stops growing at these limits. */
#define WRAP_MIN_COLS 80
#define WRAP_MAX_COLS 512
#define ENTRY_MAX_PIECES 256
#define ENTRY_MAX_BYTES (1 << 20)

typedef enum { LVL_NONE = 0, LVL_DEBUG, LVL_INFO, LVL_WARNING, LVL_ERROR, LVL_CRITICAL } log_level;

typedef struct {
    log_level level;
    const char *msg; /* the message, trimmed */
    size_t len;
    bool file_prefix; /* "[file.py:N]" or "file.py:N]" */
    bool server_tag;  /* "(EngineCore.. pid=N)", "(APIServer pid=N)", workers */
} log_line;

typedef struct {
    bool set;
    long line;
    char *message; /* at most MESSAGE_MAX bytes, cut on a UTF-8 boundary */
    bool compile, kv_load;
} candidate;

#define has(s, n, literal) (sr_memmem_n((s), (n), "" literal, sizeof(literal) - 1) != NULL)

typedef struct {
    const char *path;
    long line;
    sr_server_log *out;
    bool strong; /* a line only a vLLM server prints */
    bool kv_seen, conc_seen, blocks_seen, mem_seen, init_seen, avail_seen, loading_seen;
    bool blocks_v0;       /* the block count is V0's "# GPU blocks:", which stands for the KV size */
    bool kv_closed;       /* the start whose KV lines were read is over (came up, or a new engine line) */
    long blocks_line;     /* the V0 "# GPU blocks" line */
    char *engine_model;   /* from the engine config line */
    char *fallback_model; /* from non-default args / args: Namespace(...) */
    sr_log_settings settings;
    long short_line;     /* line of the last "Available KV cache memory" below zero */
    char short_text[32]; /* its number as written, "-0.53" */
} parser;

#define WORDING(w)                                                                                                     \
    {                                                                                                                  \
        "" w, sizeof(w) - 1                                                                                            \
    }

typedef struct {
    /* before startup */
    bool traceback;       /* a traceback was printed since the last start */
    bool frozen;          /* the first "Engine core initialization failed" passed */
    candidate last;       /* last exception line before the wrapper */
    candidate pointer;    /* first exception that only points elsewhere */
    candidate wrapper;    /* first wrapper line itself */
    long short_line;      /* "Available KV cache memory" below zero; 0: not seen */
    char short_text[32];  /* its number as written */
    candidate short_root; /* first exception after it */
    /* after startup */
    bool traceback_serve;
    candidate serve, serve_dead, serve_http;
    /* The line before, for bare exceptions ("AssertionError" says nothing;
     * the traceback's last source line says which assertion). */
    char prev[200];
    /* An exception line ending in ':' (its detail follows on the next
     * line): its line and its log prefix. */
    long detail_of;
    char detail_prefix[200];
    size_t detail_prefix_len;
} failure_state;

typedef enum { ENTRY_NONE = 0, ENTRY_ENGINE, ENTRY_ARGS } entry_kind;

/* A line of the log with the pieces a terminal wrapped it into joined
 * again. Its facts and settings are read once it is complete. */
typedef struct {
    bool active;
    entry_kind kind;
    bool bracketed; /* args: complete when the dict or Namespace closes */
    long line;      /* its first line */
    sr_strbuf text; /* the message, pieces joined */
    sr_brackets brackets;
    size_t last_cols; /* display columns of the last piece */
    int pieces;
} entry;

/* ---- line prefixes (vllm_log_lines.c) --------------------------------- */

/* Strip every prefix form (timestamps, levels, process tags, compose's
 * "service |") and return the message and its level. */
log_line sr_vllm_log_strip_prefix(const char *s, size_t n);
/* Copy the line without ANSI escape sequences into buf. */
void sr_vllm_log_strip_ansi(const char *s, size_t n, sr_strbuf *buf);
/* Past spaces and tabs. */
const char *sr_vllm_log_skip_spaces(const char *p, const char *end);
/* p starts with word (before end). */
bool sr_vllm_log_starts_with(const char *p, const char *end, const char *word);

/* ---- facts (vllm_log_facts.c): each reads one kind of line into ps ----- */

/* "GPU KV cache size: N tokens" (TPU 0.29: "TPU KV cache size:") and
 * "Maximum concurrency for L tokens per request: Xx". */
sr_error *sr_vllm_log_kv_lines(parser *ps, const char *m, const char *end);
/* The KV cache manager's block count (vLLM TPU 0.29). */
sr_error *sr_vllm_log_kv_manager_blocks(parser *ps, const char *m, const char *end);
/* V0 "# GPU blocks: N, # CPU blocks: M", "# TPU blocks: N". */
sr_error *sr_vllm_log_block_line(parser *ps, const char *m, const char *end);
/* "Available KV cache memory: X GiB", V0's "reserved for KV Cache is X",
 * model loading memory and time. */
sr_error *sr_vllm_log_memory_lines(parser *ps, const char *m, const char *end);
/* TPU "Memory statistics | total_hbm_limit_gb=15.75GiB | ...". */
sr_error *sr_vllm_log_memory_statistics(parser *ps, const char *m, const char *end);
/* TPU "Init model | hbm=[(used, limit), ...]GiB": the first device. */
sr_error *sr_vllm_log_init_model(parser *ps, const char *m, const char *end);
/* The quoted value after key (after a separator: "model='" does not match
 * "draft_model='"), or NULL in *value. */
sr_error *sr_vllm_log_quoted_value(const parser *ps, const char *m, const char *end, const char *key, char **value);
/* A line only an engine starting up (or failing to) prints was seen: the
 * file is a server log, not bench output. */
void sr_vllm_log_saw_startup(parser *ps);
/* Wordings an engine prints while it starts or fails to start. */
bool sr_vllm_log_startup_text(const char *s, size_t n, const char *m, const char *end);
/* A tpu-inference file name in the line: the server ran on TPU. */
bool sr_vllm_log_server_marker(const char *s, size_t n);

/* ---- failures (vllm_log_failures.c, vllm_log_failure_lines.c) ---------- */

/* "<dotted.Name>(Error|Exception|Exit|Interrupt)" then end or ':'; the
 * name's length into *name_len. */
bool sr_vllm_log_is_exception_line(const char *s, size_t n, size_t *name_len);
/* Exceptions raised by a normal shutdown (Ctrl-C, SIGTERM). */
bool sr_vllm_log_shutdown_exception(const char *s, size_t name_len);
/* Exceptions that only point elsewhere ("See root cause above"). */
bool sr_vllm_log_wrapper_exception(const char *s, size_t n);
/* The KV-memory and TPU HBM errors: the model does not fit. */
bool sr_vllm_log_kv_load_hint(const char *s, size_t n);
/* XLA and Mosaic compile errors (RESOURCE_EXHAUSTED, vmem, "compil"). */
bool sr_vllm_log_compile_hint(const char *s, size_t n);
/* A candidate failure message: taken (cut to a bounded length, with its
 * line), or cleared. */
void sr_vllm_log_cand_take(candidate *c, long line, const char *msg, size_t len);
void sr_vllm_log_cand_clear(candidate *c);
/* One line into the failure state (tracebacks, root causes, wrappers). */
void sr_vllm_log_failure_line(failure_state *fs, const sr_server_log *out, long line, const log_line *ll);
/* The start completed ("Application startup complete."): the start's
 * candidate failures are forgotten. */
void sr_vllm_log_failure_reset(failure_state *fs);
/* At the end of the log: the stage and root cause of a start that did not
 * complete (or of an error after it) into out->failure. */
sr_error *sr_vllm_log_failure_finish(failure_state *fs, const char *path, sr_server_log *out);
void sr_vllm_log_failure_state_free(failure_state *fs);

#endif
