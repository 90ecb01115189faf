/* vLLM server log: startup facts (KV cache size, memory, load time, model,
 * serving settings), whether an engine started at all, and the root cause
 * of a failed start or a serve error.
 *
 * Lines are matched by message substrings after one helper (sr_vllm_log_strip_prefix)
 * has removed every known prefix form: ANSI colours, docker-compose
 * "name  | ", process tags "(EngineCore_DP0 pid=N) ", the level, the
 * timestamp (if any) and "[file.py:N]" / "file.py:N]".
 *
 * Logs committed from a terminal may be hard-wrapped (at 140 columns or
 * so), cutting labels and numbers: facts and settings are read from lines
 * joined again from their pieces (see entry_continues); the failure
 * reading goes line by line. */
#include "ingest/vllm_log_parts.h"

/* ---- logical lines: hard-wrapped pieces joined ---------------------------- */

/* vLLM logs these at the start of the message ("Initializing a V1 LLM
 * engine (v0.10.1.1) with config: ...", "Initializing an LLM engine ...",
 * "non-default args: {...}", the old api_server's "args: Namespace(...)"). */
static entry_kind entry_kind_of(const log_line *ll)
{
    const char *m = ll->msg, *end = ll->msg + ll->len;
    if (sr_vllm_log_starts_with(m, end, "Initializing") && has(m, ll->len, "with config:"))
        return ENTRY_ENGINE;
    if (sr_vllm_log_starts_with(m, end, "non-default args:"))
        return ENTRY_ARGS;
    if (ll->file_prefix && sr_vllm_log_starts_with(m, end, "args: Namespace(")) /* old api_server.py */
        return ENTRY_ARGS;
    return ENTRY_NONE;
}

/* Display columns: UTF-8 sequences count once. */
static size_t columns(const char *s, size_t n)
{
    size_t cols = 0;
    for (size_t i = 0; i < n; i++)
        cols += ((unsigned char)s[i] & 0xC0) != 0x80;
    return cols;
}

static bool digits_at(const char *p, const char *end, int count)
{
    for (int k = 0; k < count; k++)
        if (p + k >= end || !isdigit((unsigned char)p[k]))
            return false;
    return true;
}

/* The prefix of a log that is not vLLM's: PyTorch's "[rank0]:", glog's
 * "[W731 14:02:38.52 ProcessGroupNCCL.cpp:1479]" or "W0731 ", a timestamp
 * "2025-07-31", "07-31 14:02:38", "14:02:38". */
static bool foreign_log_prefix(const char *p, const char *end)
{
    if (sr_vllm_log_starts_with(p, end, "[rank")) {
        const char *q = p + 5;
        while (q < end && isdigit((unsigned char)*q))
            q++;
        return q > p + 5 && sr_vllm_log_starts_with(q, end, "]:");
    }
    const char *g = p < end && *p == '[' ? p + 1 : p;
    if (g < end && strchr("IWEF", *g) && *g) {
        int k = digits_at(g + 1, end, 4) ? 4 : digits_at(g + 1, end, 3) ? 3 : 0;
        if (k && g + 1 + k < end && g[1 + k] == ' ' && digits_at(g + 2 + k, end, 2))
            return true;
    }
    return (digits_at(p, end, 4) && end - p > 7 && p[4] == '-' && digits_at(p + 5, end, 2) && p[7] == '-') ||
           (digits_at(p, end, 2) && end - p > 9 && p[2] == '-' && digits_at(p + 3, end, 2) && p[5] == ' ' &&
            digits_at(p + 6, end, 2) && p[8] == ':') ||
           (digits_at(p, end, 2) && end - p > 5 && p[2] == ':' && digits_at(p + 3, end, 2) && p[5] == ':');
}

/* Text that starts a line of its own: traceback text, an exception, another
 * program's log line. */
static bool own_line_text(const char *p, const char *end)
{
    size_t name_len;
    return sr_vllm_log_starts_with(p, end, "Traceback (") || sr_vllm_log_starts_with(p, end, "File \"") ||
           sr_vllm_log_starts_with(p, end, "During handling of") ||
           sr_vllm_log_starts_with(p, end, "The above exception") ||
           sr_vllm_log_is_exception_line(p, (size_t)(end - p), &name_len) || foreign_log_prefix(p, end);
}

/* A line of its own: blank, a log prefix (compose name, process tag,
 * level), or own_line_text. ll is the line's sr_vllm_log_strip_prefix. */
static bool starts_own_line(const char *s, size_t n, const log_line *ll)
{
    const char *end = s + n, *p = sr_vllm_log_skip_spaces(s, end);
    if (p == end || ll->msg != p)
        return true;
    return own_line_text(p, end);
}

/* The rule that joins a hard-wrapped line: the next line is its
 * continuation when the piece before it filled a terminal's width
 * (WRAP_MIN_COLS..WRAP_MAX_COLS), the line does not start like a line of
 * its own (starts_own_line), an args line's brackets are still open, and
 * the joined line is under ENTRY_MAX_PIECES / ENTRY_MAX_BYTES. A key or a
 * number may be split mid-word ("tensor_parallel_si" / "ze=2", "Available
 * KV cache me" / "mory: 11.03 GiB"): pieces are joined with nothing between
 * them. Joining a line that was not wrapped adds text after its end, which
 * no fact reads; the failure reading keeps to the lines as they are. */
static bool entry_continues(const entry *e, const char *s, size_t n, const log_line *ll)
{
    if (!e->active || e->last_cols < WRAP_MIN_COLS || e->last_cols > WRAP_MAX_COLS)
        return false;
    if (e->bracketed && sr_brackets_closed(&e->brackets))
        return false;
    if (e->pieces >= ENTRY_MAX_PIECES || e->text.len + n > ENTRY_MAX_BYTES)
        return false;
    return !starts_own_line(s, n, ll);
}

static void entry_begin(entry *e, long line, const log_line *ll, const char *s, size_t n)
{
    e->active = true;
    e->kind = entry_kind_of(ll);
    e->bracketed = e->kind == ENTRY_ARGS;
    e->line = line;
    e->text.len = 0;
    memset(&e->brackets, 0, sizeof e->brackets);
    /* From the message to the end of the line: trailing spaces may belong
     * to the text a wrap split. */
    size_t from = (size_t)(ll->msg - s);
    sr_strbuf_append(&e->text, ll->msg, n - from);
    if (e->bracketed)
        sr_brackets_feed(&e->brackets, ll->msg, n - from);
    e->last_cols = n < WRAP_MIN_COLS ? n : columns(s, n);
    e->pieces = 1;
}

static void entry_append(entry *e, const char *s, size_t n)
{
    sr_strbuf_append(&e->text, s, n);
    if (e->bracketed)
        sr_brackets_feed(&e->brackets, s, n);
    e->last_cols = n < WRAP_MIN_COLS ? n : columns(s, n);
    e->pieces++;
}

/* A failure candidate taken from the first piece of a wrapped line gets
 * the whole line. */
static void extend_candidates(failure_state *fs, const entry *e, const char *m, size_t len)
{
    candidate *const cands[] = {&fs->last,  &fs->pointer,    &fs->wrapper,   &fs->short_root,
                                &fs->serve, &fs->serve_dead, &fs->serve_http};
    for (size_t k = 0; k < sizeof cands / sizeof *cands; k++) {
        candidate *c = cands[k];
        if (!c->set || c->line != e->line || strlen(c->message) >= MESSAGE_MAX ||
            strncmp(m, c->message, strlen(c->message)) != 0)
            continue;
        sr_vllm_log_cand_take(c, e->line, m, len);
    }
}

/* Two log prefixes alike but for their digits (the timestamp may tick). */
static bool same_prefix(const char *a, size_t na, const char *b, size_t nb)
{
    size_t i = 0, j = 0;
    for (;;) {
        while (i < na && isdigit((unsigned char)a[i]))
            i++;
        while (j < nb && isdigit((unsigned char)b[j]))
            j++;
        if (i == na || j == nb)
            return i == na && j == nb;
        if (a[i++] != b[j++])
            return false;
    }
}

/* An exception line ending in ':' ("RuntimeProgramAllocationFailure:")
 * says what failed on the next line ("Error loading program ...:
 * Attempting to reserve 384.11M ..."): the candidates taken from it get
 * that line when it carries the same prefix and starts no line of its own
 * (a traceback, an exception, another program's log line is never glued on). */
static void attach_detail(failure_state *fs, const char *s, const log_line *ll)
{
    long of = fs->detail_of;
    fs->detail_of = 0;
    const char *end = ll->msg + ll->len;
    if (!of || ll->len == 0 || !same_prefix(fs->detail_prefix, fs->detail_prefix_len, s, (size_t)(ll->msg - s)) ||
        own_line_text(ll->msg, end))
        return;
    candidate *const cands[] = {&fs->last,  &fs->pointer,    &fs->wrapper,   &fs->short_root,
                                &fs->serve, &fs->serve_dead, &fs->serve_http};
    for (size_t k = 0; k < sizeof cands / sizeof *cands; k++) {
        candidate *c = cands[k];
        if (!c->set || c->line != of || strlen(c->message) >= MESSAGE_MAX)
            continue;
        char *joined =
            sr_asprintf("%s %.*s", c->message, (int)(ll->len < MESSAGE_MAX ? ll->len : MESSAGE_MAX), ll->msg);
        sr_vllm_log_cand_take(c, of, joined, strlen(joined));
        free(joined);
    }
}

/* After the failure reading of a line: if it is an exception line ending
 * in ':' that became a candidate, its detail may follow. */
static void expect_detail(failure_state *fs, long line, const char *s, const log_line *ll)
{
    size_t name_len, prefix_len = (size_t)(ll->msg - s);
    if (ll->len == 0 || ll->msg[ll->len - 1] != ':' || !sr_vllm_log_is_exception_line(ll->msg, ll->len, &name_len) ||
        prefix_len >= sizeof fs->detail_prefix)
        return;
    const candidate *const cands[] = {&fs->last,  &fs->pointer,    &fs->wrapper,   &fs->short_root,
                                      &fs->serve, &fs->serve_dead, &fs->serve_http};
    for (size_t k = 0; k < sizeof cands / sizeof *cands; k++) {
        if (cands[k]->set && cands[k]->line == line) {
            fs->detail_of = line;
            memcpy(fs->detail_prefix, s, prefix_len);
            fs->detail_prefix_len = prefix_len;
            return;
        }
    }
}

/* joined: the line was put together from wrapped pieces, so it may show a
 * startup wording that no single piece did (physical_line checked those). */
static sr_error *line_facts(parser *ps, failure_state *fs, const char *m, const char *end, bool joined)
{
    sr_error *err;
    if ((err = sr_vllm_log_kv_lines(ps, m, end)) != NULL || (err = sr_vllm_log_block_line(ps, m, end)) != NULL ||
        (err = sr_vllm_log_kv_manager_blocks(ps, m, end)) != NULL ||
        (err = sr_vllm_log_memory_statistics(ps, m, end)) != NULL ||
        (err = sr_vllm_log_init_model(ps, m, end)) != NULL || (err = sr_vllm_log_memory_lines(ps, m, end)) != NULL)
        return err;
    if (ps->short_line == ps->line && !fs->short_line) {
        fs->short_line = ps->line;
        memcpy(fs->short_text, ps->short_text, sizeof fs->short_text);
    }
    if (joined && !ps->out->engine_start && sr_vllm_log_startup_text(m, (size_t)(end - m), m, end))
        sr_vllm_log_saw_startup(ps);
    sr_log_settings_line(&ps->settings, m, end);
    return NULL;
}

/* The model name and settings of an engine config or args line. */
static sr_error *entry_settings(parser *ps, const entry *e, const char *m, const char *end)
{
    size_t len = (size_t)(end - m);
    sr_error *err = NULL;
    if (e->kind == ENTRY_ENGINE) {
        if (ps->kv_seen)
            ps->kv_closed = true; /* a new start */
        if (!ps->engine_model)
            err = sr_vllm_log_quoted_value(ps, m, end, "model='", &ps->engine_model);
        if (!err && ps->engine_model)
            sr_vllm_log_saw_startup(ps);
        sr_log_settings_engine(&ps->settings, m, len);
    } else if (e->kind == ENTRY_ARGS) {
        if (!ps->fallback_model) {
            bool dict = has(m, len, "non-default args:");
            err = sr_vllm_log_quoted_value(ps, m, end, dict ? "'model': '" : "model='", &ps->fallback_model);
            if (!err && dict && !ps->fallback_model)
                err = sr_vllm_log_quoted_value(ps, m, end, "'model_tag': '", &ps->fallback_model);
        }
        sr_log_settings_args(&ps->settings, m, len);
    }
    return err;
}

/* The whole line is there: its facts, model name and settings, read as of
 * its first line. */
static sr_error *entry_finish(parser *ps, failure_state *fs, entry *e)
{
    if (!e->active)
        return NULL;
    e->active = false;
    long here = ps->line;
    ps->line = e->line;
    const char *m = sr_strbuf_cstr(&e->text), *end = m + e->text.len;
    sr_error *err = line_facts(ps, fs, m, end, e->pieces > 1);
    if (!err)
        err = entry_settings(ps, e, m, end);
    if (!err && e->pieces > 1)
        extend_candidates(fs, e, m, e->text.len);
    ps->line = here;
    return err;
}

/* ---- the reader ---------------------------------------------------------- */

/* What a line says by itself (server marks, startup, the failure
 * reading); its facts are read with its wrapped pieces (entry_finish). */
static void physical_line(parser *ps, failure_state *fs, const char *s, size_t n, const log_line *ll, bool *weak,
                          bool *bench_like)
{
    const char *m = ll->msg, *end = ll->msg + ll->len;
    /* (Each asked until it holds: most lines of a big log are request logs.) */
    if (!ps->out->tpu && sr_vllm_log_server_marker(s, n)) {
        ps->strong = true;
        ps->out->tpu = true;
    }
    if (!ps->out->engine_start && sr_vllm_log_startup_text(s, n, m, end))
        sr_vllm_log_saw_startup(ps);
    else if (!ps->strong && (ll->server_tag || has(s, n, "api_server.py") || has(s, n, "llm_engine.py")))
        ps->strong = true; /* only a server prints these (not all at startup) */
    /* a traceback through vllm's package or its entry script ("/usr/local/bin/vllm") */
    if (ll->file_prefix || (ll->level == LVL_NONE && has(m, ll->len, "File \"") &&
                            (has(m, ll->len, "/vllm/") || has(m, ll->len, "/vllm\""))))
        *weak = true;
    if (has(m, ll->len, "Serving Benchmark Result") || sr_vllm_log_starts_with(m, end, "Namespace("))
        *bench_like = true;
    if (ll->file_prefix && sr_vllm_log_starts_with(m, end, "args: Namespace("))
        sr_vllm_log_saw_startup(ps);
    attach_detail(fs, s, ll);
    sr_vllm_log_failure_line(fs, ps->out, ps->line, ll);
    expect_detail(fs, ps->line, s, ll);
    if (has(m, ll->len, "Application startup complete.")) {
        ps->out->startup_complete = true;
        ps->kv_closed = ps->kv_seen;
        sr_vllm_log_failure_reset(fs);
    }
}

/* V0 logs blocks, not tokens: "# GPU blocks: N" x the block size, from the
 * args or engine line, else V0's default of 16 on GPUs (EngineArgs
 * block_size; TPU and other backends have their own, so no default). */
static void tokens_from_blocks(const parser *ps, sr_server_log *out)
{
    /* the V1 managers' block counts come with their own token line */
    if (out->kv_tokens >= 0 || out->gpu_blocks < 0 || !ps->blocks_v0)
        return;
    long block = out->settings.block_size > 0 ? out->settings.block_size : out->tpu ? -1 : 16;
    if (block < 0 || out->gpu_blocks > LONG_MAX / block)
        return;
    out->kv_tokens = out->gpu_blocks * block;
    out->kv_tokens_line = ps->blocks_line;
    out->kv_from_blocks = true;
}

struct sr_server_log_reader {
    parser ps;
    failure_state fs;
    entry pending;   /* the last line, whose wrapped pieces may follow */
    sr_strbuf clean; /* a line with its ANSI colour codes removed */
    bool weak, bench_like;
    sr_server_log *out;
    const char *path;
};

sr_server_log_reader *sr_server_log_reader_new(const char *path, sr_server_log *out)
{
    sr_server_log_reader *r = sr_xcalloc(1, sizeof *r);
    r->ps.path = path;
    r->ps.out = out;
    sr_log_settings_init(&r->ps.settings, &out->settings);
    r->out = out;
    r->path = path;
    sr_strbuf_init(&r->clean);
    sr_strbuf_init(&r->pending.text);
    return r;
}

sr_error *sr_server_log_reader_line(sr_server_log_reader *r, const char *line, size_t n, long lineno)
{
    if (memchr(line, '\x1b', n)) {
        r->clean.len = 0;
        sr_vllm_log_strip_ansi(line, n, &r->clean);
        line = r->clean.data;
        n = r->clean.len;
    }
    entry *e = &r->pending;
    log_line ll = sr_vllm_log_strip_prefix(line, n);
    if (entry_continues(e, line, n, &ll)) {
        entry_append(e, line, n);
        return e->bracketed && sr_brackets_closed(&e->brackets) ? entry_finish(&r->ps, &r->fs, e) : NULL;
    }
    sr_error *err = entry_finish(&r->ps, &r->fs, e);
    if (err)
        return err;
    r->ps.line = lineno;
    physical_line(&r->ps, &r->fs, line, n, &ll, &r->weak, &r->bench_like);
    entry_begin(e, lineno, &ll, line, n);
    return e->bracketed && sr_brackets_closed(&e->brackets) ? entry_finish(&r->ps, &r->fs, e) : NULL;
}

sr_error *sr_server_log_reader_finish(sr_server_log_reader *r, bool *recognized)
{
    parser *ps = &r->ps;
    sr_server_log *out = r->out;
    *recognized = false;
    sr_error *err = entry_finish(ps, &r->fs, &r->pending);
    if (err)
        return err;
    /* Bench stdout may carry a few vLLM logger lines; only lines a server
     * prints make it a server log then. */
    *recognized = ps->strong || (r->weak && !r->bench_like);
    if (*recognized) {
        if (!out->source)
            out->source = sr_xstrdup(r->path);
        char **model = ps->engine_model ? &ps->engine_model : &ps->fallback_model;
        if (*model && !out->model_id) {
            out->model_id = *model;
            *model = NULL;
        }
        err = sr_vllm_log_failure_finish(&r->fs, r->path, out);
        if (!err)
            tokens_from_blocks(ps, out);
    }
    if (err)
        *recognized = false;
    return err;
}

void sr_server_log_reader_free(sr_server_log_reader *r)
{
    if (!r)
        return;
    free(r->ps.engine_model);
    free(r->ps.fallback_model);
    sr_vllm_log_failure_state_free(&r->fs);
    sr_strbuf_release(&r->clean);
    sr_strbuf_release(&r->pending.text);
    free(r);
}

static sr_error *server_line(void *reader, const char *line, size_t len, long lineno)
{
    return sr_server_log_reader_line(reader, line, len, lineno);
}

sr_error *sr_parse_server_log(const char *path, const char *data, size_t len, sr_server_log *out, bool *recognized)
{
    *recognized = false;
    sr_server_log_reader *r = sr_server_log_reader_new(path, out);
    sr_error *err = sr_each_line(data, len, server_line, r);
    if (!err)
        err = sr_server_log_reader_finish(r, recognized);
    sr_server_log_reader_free(r);
    return err;
}
