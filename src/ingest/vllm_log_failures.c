/* Why a vLLM server failed to start or to serve, read line by line: the root cause of a traceback. */
#include "ingest/vllm_log_parts.h"

/* ---- failures ------------------------------------------------------------ */

/* "<dotted.Name>(Error|Exception|Exit|Interrupt)" then end or ':'. */
bool sr_vllm_log_is_exception_line(const char *s, size_t n, size_t *name_len)
{
    size_t i = 0, last = 0;
    for (;;) {
        if (i >= n || !(isalpha((unsigned char)s[i]) || s[i] == '_'))
            return false;
        last = i;
        while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_'))
            i++;
        if (i < n && s[i] == '.')
            i++;
        else
            break;
    }
    if (i < n && s[i] != ':')
        return false;
    static const char *const suffixes[] = {"Error", "Exception", "Exit", "Interrupt"};
    for (size_t k = 0; k < sizeof suffixes / sizeof *suffixes; k++) {
        size_t m = strlen(suffixes[k]);
        if (i - last >= m && memcmp(s + i - m, suffixes[k], m) == 0) {
            *name_len = i;
            return true;
        }
    }
    return false;
}

/* A literal needle, its length known at compile time: every line of a big
 * log is searched for a dozen of them. */

bool sr_vllm_log_compile_hint(const char *s, size_t n)
{
    return has(s, n, "RESOURCE_EXHAUSTED") || has(s, n, "memory space vmem") || has(s, n, "memory space hbm") ||
           has(s, n, "memory space smem") || has(s, n, "XlaRuntimeError") || sr_memcasemem(s, n, "compil") != NULL;
}

/* The KV-memory and TPU HBM ValueErrors: the model does not fit. */
bool sr_vllm_log_kv_load_hint(const char *s, size_t n)
{
    return has(s, n, "To serve at least one request") || has(s, n, "No available memory for the cache blocks") ||
           has(s, n, "is larger than the maximum number of tokens that can be stored in KV cache") ||
           (has(s, n, "total_hbm_used_gb=") && has(s, n, "exceeds total_hbm_limit_cap_gb="));
}

/* Exceptions that only point elsewhere ("See root cause above"). */
bool sr_vllm_log_wrapper_exception(const char *s, size_t n)
{
    return has(s, n, "root cause") || has(s, n, "EngineDeadError");
}

/* Exceptions raised by a normal shutdown (Ctrl-C, SIGTERM). */
bool sr_vllm_log_shutdown_exception(const char *s, size_t name_len)
{
    static const char *const names[] = {"KeyboardInterrupt", "SystemExit", "CancelledError"};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        size_t m = strlen(names[k]);
        if (name_len >= m && memcmp(s + name_len - m, names[k], m) == 0)
            return true;
    }
    return false;
}

void sr_vllm_log_cand_clear(candidate *c)
{
    free(c->message);
    memset(c, 0, sizeof *c);
}

void sr_vllm_log_cand_take(candidate *c, long line, const char *msg, size_t len)
{
    size_t cut = len;
    if (cut > MESSAGE_MAX) {
        cut = MESSAGE_MAX;
        while (cut > 0 && ((unsigned char)msg[cut] & 0xC0) == 0x80)
            cut--;
    }
    char *copy = sr_strndup(msg, cut);
    sr_vllm_log_cand_clear(c);
    c->set = true;
    c->line = line;
    c->message = copy;
    c->compile = sr_vllm_log_compile_hint(msg, len);
    c->kv_load = sr_vllm_log_kv_load_hint(msg, len);
}
