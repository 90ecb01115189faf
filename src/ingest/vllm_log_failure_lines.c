/* Failures whose message spans lines: the exception line and the detail lines that explain it. */
#include "ingest/vllm_log_parts.h"

/* ---- failures across lines --------------------------------------------- */

void sr_vllm_log_failure_state_free(failure_state *fs)
{
    sr_vllm_log_cand_clear(&fs->last);
    sr_vllm_log_cand_clear(&fs->pointer);
    sr_vllm_log_cand_clear(&fs->wrapper);
    sr_vllm_log_cand_clear(&fs->short_root);
    sr_vllm_log_cand_clear(&fs->serve);
    sr_vllm_log_cand_clear(&fs->serve_dead);
    sr_vllm_log_cand_clear(&fs->serve_http);
}

static void failure_line_inner(failure_state *fs, const sr_server_log *out, long line, const log_line *ll)
{
    const char *m = ll->msg;
    size_t n = ll->len, name_len = 0;
    bool exc = sr_vllm_log_is_exception_line(m, n, &name_len);
    char with_context[MESSAGE_MAX + 1];
    if (exc && name_len >= n && fs->prev[0]) {
        /* A bare exception name: add the source line the traceback ended on. */
        int w = snprintf(with_context, sizeof with_context, "%.*s (at: %s)", (int)n, m, fs->prev);
        if (w > 0) {
            m = with_context;
            n = (size_t)w < sizeof with_context ? (size_t)w : sizeof with_context - 1;
        }
    }
    bool error_level = ll->level == LVL_ERROR || ll->level == LVL_CRITICAL;
    bool traceback = sr_vllm_log_starts_with(m, m + n, "Traceback (most recent call last)");
    if (!out->startup_complete) {
        if (traceback)
            fs->traceback = true;
        bool init_failed = has(m, n, "Engine core initialization failed");
        if ((init_failed || has(m, n, "EngineCore failed to start")) && !fs->wrapper.set)
            sr_vllm_log_cand_take(&fs->wrapper, line, m, n);
        bool cause = exc && !init_failed && (error_level || ll->level == LVL_NONE) &&
                     (fs->traceback || sr_vllm_log_compile_hint(m, n) || sr_vllm_log_kv_load_hint(m, n));
        if (cause && fs->short_line && !fs->short_root.set && !sr_vllm_log_wrapper_exception(m, n))
            sr_vllm_log_cand_take(&fs->short_root, line, m, n);
        if (cause && !fs->frozen) {
            if (sr_vllm_log_wrapper_exception(m, n)) {
                if (!fs->pointer.set)
                    sr_vllm_log_cand_take(&fs->pointer, line, m, n);
            } else {
                sr_vllm_log_cand_take(&fs->last, line, m, n);
            }
        }
        if (init_failed)
            fs->frozen = true;
        return;
    }
    if (traceback)
        fs->traceback_serve = true;
    if (exc && (error_level || (ll->level == LVL_NONE && fs->traceback_serve)) &&
        !sr_vllm_log_shutdown_exception(m, name_len)) {
        candidate *c = sr_vllm_log_wrapper_exception(m, n) ? &fs->serve_dead : &fs->serve;
        if (!c->set)
            sr_vllm_log_cand_take(c, line, m, n);
    } else if (ll->level != LVL_WARNING && ll->level != LVL_DEBUG && has(m, n, "Internal Server Error") &&
               !fs->serve_http.set) {
        sr_vllm_log_cand_take(&fs->serve_http, line, m, n);
    }
}

void sr_vllm_log_failure_line(failure_state *fs, const sr_server_log *out, long line, const log_line *ll)
{
    failure_line_inner(fs, out, line, ll);
    const char *m = ll->msg;
    size_t n = ll->len;
    while (n > 0 && (*m == ' ' || *m == '\t')) {
        m++;
        n--;
    }
    if (n >= sizeof fs->prev) {
        n = sizeof fs->prev - 1;
        while (n > 0 && ((unsigned char)m[n] & 0xC0) == 0x80)
            n--; /* keep whole UTF-8 sequences */
    }
    memcpy(fs->prev, m, n);
    fs->prev[n] = '\0';
}

void sr_vllm_log_failure_reset(failure_state *fs)
{
    fs->traceback = fs->frozen = false;
    sr_vllm_log_cand_clear(&fs->last);
    sr_vllm_log_cand_clear(&fs->pointer);
    sr_vllm_log_cand_clear(&fs->wrapper);
    fs->short_line = 0;
    sr_vllm_log_cand_clear(&fs->short_root);
}

/* Cut s to at most max bytes on a UTF-8 boundary. */
static void cut_utf8(char *s, size_t max)
{
    size_t n = strlen(s);
    if (n <= max)
        return;
    while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
        max--;
    s[max] = '\0';
}

/* A start that left no memory for the KV cache: the negative figure, then
 * the exception it raised when one followed (its line is the source). */
static sr_error *kv_short_failure(const failure_state *fs, const char *path, sr_server_log *out)
{
    const candidate *root = fs->short_root.set ? &fs->short_root : NULL;
    if (root && !sr_utf8_valid(root->message, strlen(root->message)))
        return sr_input_error(path, root->line, "invalid utf-8 in the exception line");
    char *message = root ? sr_asprintf("no memory left for the KV cache: %s GiB; %s", fs->short_text, root->message)
                         : sr_asprintf("no memory left for the KV cache: %s GiB", fs->short_text);
    char *source = sr_asprintf("%s:%ld", path, root ? root->line : fs->short_line);
    cut_utf8(message, MESSAGE_MAX);
    sr_failure_set(&out->failure, SR_STAGE_LOAD, message, source);
    free(message);
    free(source);
    return NULL;
}

sr_error *sr_vllm_log_failure_finish(failure_state *fs, const char *path, sr_server_log *out)
{
    const candidate *root = NULL;
    sr_stage stage;
    if (!out->startup_complete && fs->short_line)
        return kv_short_failure(fs, path, out);
    if (!out->startup_complete) {
        root = fs->last.set ? &fs->last : fs->pointer.set ? &fs->pointer : fs->wrapper.set ? &fs->wrapper : NULL;
        stage = SR_STAGE_LOAD;
    } else {
        root = fs->serve.set        ? &fs->serve
               : fs->serve_dead.set ? &fs->serve_dead
               : fs->serve_http.set ? &fs->serve_http
                                    : NULL;
        stage = SR_STAGE_SERVE;
    }
    if (!root)
        return NULL;
    if (root->compile)
        stage = SR_STAGE_COMPILE;
    else if (root->kv_load)
        stage = SR_STAGE_LOAD;
    if (!sr_utf8_valid(root->message, strlen(root->message)))
        return sr_input_error(path, root->line, "invalid utf-8 in the exception line");
    char *source = sr_asprintf("%s:%ld", path, root->line);
    sr_failure_set(&out->failure, stage, root->message, source);
    free(source);
    return NULL;
}
