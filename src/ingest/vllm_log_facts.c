/* The startup facts of a server log: KV cache size and blocks, memory, load time, model, version. */
#include "ingest/vllm_log_parts.h"

/* ---- facts --------------------------------------------------------------- */

/* A line only an engine starting up (or failing to) prints: the file is a
 * server log, not bench output with a few request-log lines pasted in. */
void sr_vllm_log_saw_startup(parser *ps)
{
    ps->strong = true;
    ps->out->engine_start = true;
}

static sr_error *bad_number(const parser *ps, const char *what, const char *label)
{
    return sr_input_error(ps->path, ps->line, "expected %s after '%s'", what, label);
}

/* Count after label (thousands separators allowed); not negative. */
static sr_error *count_after(const parser *ps, const char *at, const char *end, const char *label, const char *what,
                             long *value, const char **stop)
{
    const char *p = sr_vllm_log_skip_spaces(at + strlen(label), end);
    if (!sr_parse_long_commas(p, end, value, stop) || *value < 0)
        return bad_number(ps, what, label);
    return NULL;
}

static sr_error *double_after(const parser *ps, const char *at, const char *end, const char *label, double *value,
                              const char **stop)
{
    const char *p = sr_vllm_log_skip_spaces(at + strlen(label), end);
    if (!sr_parse_double(p, end, value, stop) || *value < 0)
        return bad_number(ps, "a number", label);
    return NULL;
}

/* "GPU KV cache size: N tokens" (the TPU build of 0.29 says "TPU KV cache
 * size:") and "Maximum concurrency for L tokens per request: Xx", alone or
 * merged on one line. */
sr_error *sr_vllm_log_kv_lines(parser *ps, const char *m, const char *end)
{
    static const char *const kv_labels[] = {"GPU KV cache size:", "TPU KV cache size:"};
    static const char conc_label[] = "Maximum concurrency for";
    const char *at = NULL, *stop;
    size_t which = 0;
    for (; which < sizeof kv_labels / sizeof *kv_labels && !at; which++)
        at = sr_memmem(m, (size_t)(end - m), kv_labels[which]);
    if (at) {
        const char *kv_label = kv_labels[which - 1];
        sr_vllm_log_saw_startup(ps);
        if (kv_label[0] == 'T')
            ps->out->tpu = true;
        long tokens;
        sr_error *err = count_after(ps, at, end, kv_label, "a token count", &tokens, &stop);
        if (err)
            return err;
        /* One line per worker (TP over Ray): vLLM gives every rank the
         * smallest block count of them all (get_kv_cache_configs in
         * vllm/v1/core/kv_cache_utils.py), so the smallest is what the
         * engine holds. Lines of a later start are not this start's. */
        sr_server_log *o = ps->out;
        if (!ps->kv_closed) {
            if (!ps->kv_seen || tokens < o->kv_tokens) {
                o->kv_tokens = tokens;
                o->kv_tokens_line = ps->line;
            }
            if (tokens > o->kv_tokens_max)
                o->kv_tokens_max = tokens;
            o->kv_worker_lines++;
            ps->kv_seen = true;
        }
    }
    at = sr_memmem(m, (size_t)(end - m), conc_label);
    if (at) {
        sr_vllm_log_saw_startup(ps);
        long len;
        double x;
        sr_error *err = count_after(ps, at, end, conc_label, "a token count", &len, &stop);
        if (err)
            return err;
        static const char per[] = " tokens per request:";
        if (!sr_vllm_log_starts_with(stop, end, per))
            return sr_input_error(ps->path, ps->line, "expected '%s' in the concurrency line", per + 1);
        const char *p = sr_vllm_log_skip_spaces(stop + strlen(per), end);
        if (!sr_parse_double(p, end, &x, &stop) || x < 0 || stop >= end || *stop != 'x')
            return bad_number(ps, "a concurrency like '4.27x'", "tokens per request:");
        if (!ps->conc_seen) {
            ps->conc_seen = true;
            ps->out->max_concurrency = x;
            ps->out->max_concurrency_len = len;
        }
    }
    return NULL;
}

/* V0 "# GPU blocks: N, # CPU blocks: M", "# TPU blocks: N", "# cuda blocks: N". */
sr_error *sr_vllm_log_block_line(parser *ps, const char *m, const char *end)
{
    if (!sr_vllm_log_starts_with(m, end, "# "))
        return NULL;
    const char *dev = m + 2, *q = dev;
    while (q < end && isalnum((unsigned char)*q))
        q++;
    if (q == dev || !sr_vllm_log_starts_with(q, end, " blocks:"))
        return NULL;
    size_t dev_len = (size_t)(q - dev);
    if (dev_len == 3 && strncasecmp(dev, "cpu", 3) == 0)
        return NULL;
    sr_vllm_log_saw_startup(ps);
    if (dev_len == 3 && strncasecmp(dev, "tpu", 3) == 0)
        ps->out->tpu = true;
    char label[32];
    snprintf(label, sizeof label, "# %.*s blocks:", (int)(dev_len < 16 ? dev_len : 16), dev);
    long blocks;
    const char *stop;
    const char *p = sr_vllm_log_skip_spaces(q + strlen(" blocks:"), end);
    if (!sr_parse_long_commas(p, end, &blocks, &stop) || blocks < 0)
        return bad_number(ps, "a block count", label);
    if (!ps->blocks_seen) {
        ps->blocks_seen = true;
        ps->out->gpu_blocks = blocks;
        ps->blocks_line = ps->line;
        ps->blocks_v0 = true;
    }
    return NULL;
}

/* The KV cache manager's block count (vLLM TPU 0.29): "Hybrid KV cache
 * layout: ..., kv_cache_config.num_blocks=833, ..." or "Init kv-cache |
 * num_total_layers=15 | num_blocks=[833, 833, ...]" (every layer the same
 * count; the first is kept). */
sr_error *sr_vllm_log_kv_manager_blocks(parser *ps, const char *m, const char *end)
{
    static const char config_key[] = "kv_cache_config.num_blocks=";
    static const char init_key[] = "num_blocks=[";
    const char *at = sr_memmem(m, (size_t)(end - m), config_key), *label = config_key;
    if (!at && sr_vllm_log_starts_with(m, end, "Init kv-cache |")) {
        at = sr_memmem(m, (size_t)(end - m), init_key);
        label = init_key;
    }
    if (!at)
        return NULL;
    sr_vllm_log_saw_startup(ps);
    /* plain digits: "[833,833]" is a list, not 833,833 */
    long blocks = 0;
    const char *p = at + strlen(label);
    for (; p < end && isdigit((unsigned char)*p); p++) {
        if (blocks > (LONG_MAX - 9) / 10)
            return bad_number(ps, "a block count", label);
        blocks = blocks * 10 + (*p - '0');
    }
    if (p == at + strlen(label))
        return bad_number(ps, "a block count", label);
    if (!ps->blocks_seen) {
        ps->blocks_seen = true;
        ps->out->gpu_blocks = blocks;
    }
    return NULL;
}

/* TPU "Memory statistics | total_hbm_limit_gb=15.75GiB | ...". */
sr_error *sr_vllm_log_memory_statistics(parser *ps, const char *m, const char *end)
{
    if (!sr_memmem(m, (size_t)(end - m), "Memory statistics"))
        return NULL;
    static const char *const keys[] = {
        "total_hbm_limit_gb=", "total_hbm_limit_cap_gb=", "total_hbm_used_gb=", "total_hbm_avail_gb="};
    double values[4] = {NAN, NAN, NAN, NAN};
    bool any = false;
    for (size_t k = 0; k < 4; k++) {
        const char *at = sr_memmem(m, (size_t)(end - m), keys[k]), *stop;
        if (!at)
            continue;
        any = true;
        const char *p = at + strlen(keys[k]);
        /* avail = cap - used may be negative when the model does not fit. */
        if (!sr_parse_double(p, end, &values[k], &stop) || (k != 3 && values[k] < 0))
            return bad_number(ps, "a size in GiB", keys[k]);
    }
    if (!any)
        return NULL;
    sr_vllm_log_saw_startup(ps);
    ps->out->tpu = true;
    if (!ps->mem_seen) {
        ps->mem_seen = true;
        ps->out->hbm_limit_gib = values[0];
        ps->out->hbm_cap_gib = values[1];
        ps->out->hbm_used_gib = values[2];
        ps->out->hbm_avail_gib = values[3];
    }
    return NULL;
}

/* TPU "Init model | hbm=[(used, limit), ...]GiB": the first device. */
sr_error *sr_vllm_log_init_model(parser *ps, const char *m, const char *end)
{
    const char *at = sr_memmem(m, (size_t)(end - m), "Init model |");
    if (!at)
        return NULL;
    sr_vllm_log_saw_startup(ps);
    ps->out->tpu = true;
    static const char label[] = "hbm=[(";
    const char *h = sr_memmem(at, (size_t)(end - at), label), *stop;
    if (!h)
        return NULL;
    double used, limit;
    const char *p = sr_vllm_log_skip_spaces(h + strlen(label), end);
    if (!sr_parse_double(p, end, &used, &stop) || used < 0)
        return bad_number(ps, "'(used, limit)'", "Init model | hbm=[");
    p = sr_vllm_log_skip_spaces(stop, end);
    if (p >= end || *p != ',')
        return bad_number(ps, "'(used, limit)'", "Init model | hbm=[");
    p = sr_vllm_log_skip_spaces(p + 1, end);
    if (!sr_parse_double(p, end, &limit, &stop) || limit < 0)
        return bad_number(ps, "'(used, limit)'", "Init model | hbm=[");
    if (!ps->init_seen) {
        ps->init_seen = true;
        ps->out->init_model_used_gib = used;
        ps->out->init_model_limit_gib = limit;
    }
    return NULL;
}

sr_error *sr_vllm_log_memory_lines(parser *ps, const char *m, const char *end)
{
    size_t n = (size_t)(end - m);
    const char *at, *stop;
    double v;
    sr_error *err;
    static const char avail[] = "Available KV cache memory:";
    /* V0 worker.py: "... the rest of the memory reserved for KV Cache is 26.60GiB." */
    static const char reserved[] = "reserved for KV Cache is";
    const char *label = avail;
    if ((at = sr_memmem(m, n, avail)) != NULL || (label = reserved, at = sr_memmem(m, n, reserved)) != NULL) {
        sr_vllm_log_saw_startup(ps);
        /* Below zero when the weights and activations leave nothing for
         * the cache: the start fails right after (sr_vllm_log_failure_finish). */
        const char *p = sr_vllm_log_skip_spaces(at + strlen(label), end);
        if (!sr_parse_double(p, end, &v, &stop))
            return bad_number(ps, "a number", label);
        if (!ps->avail_seen) {
            ps->avail_seen = true;
            ps->out->available_kv_gib = v;
        }
        if (v < 0) {
            size_t w = (size_t)(stop - p);
            if (w >= sizeof ps->short_text)
                w = sizeof ps->short_text - 1;
            memcpy(ps->short_text, p, w);
            ps->short_text[w] = '\0';
            ps->short_line = ps->line;
        }
    }
    /* V1 "Model loading took X GiB [memory] and Y seconds", V0 "Loading model
     * weights took X GB". */
    static const char v1[] = "Model loading took";
    static const char v0[] = "Loading model weights took";
    label = NULL;
    if ((at = sr_memmem(m, n, v1)) != NULL)
        label = v1;
    else if ((at = sr_memmem(m, n, v0)) != NULL)
        label = v0;
    if (label) {
        sr_vllm_log_saw_startup(ps);
        if ((err = double_after(ps, at, end, label, &v, &stop)) != NULL)
            return err;
        double secs = NAN;
        const char *and = sr_memmem(stop, (size_t)(end - stop), " and ");
        if (and) {
            const char *p = sr_vllm_log_skip_spaces(and+5, end);
            if (!sr_parse_double(p, end, &secs, &stop) || secs < 0)
                return bad_number(ps, "a number of seconds", "and");
        }
        if (!ps->loading_seen) {
            ps->loading_seen = true;
            ps->out->model_loading_gib = v;
            ps->out->model_loading_s = secs;
        }
    }
    return NULL;
}

/* The quoted value after key (key preceded by a separator, so "model='"
 * does not match "draft_model='"); fresh string, or NULL when absent. */
sr_error *sr_vllm_log_quoted_value(const parser *ps, const char *m, const char *end, const char *key, char **value)
{
    *value = NULL;
    size_t klen = strlen(key);
    const char *p = m;
    while ((p = sr_memmem(p, (size_t)(end - p), key)) != NULL) {
        if (p == m || (p[-1] != '\0' && strchr(" ,({:", p[-1]))) {
            char quote = p[klen - 1];
            const char *v = p + klen, *close = memchr(v, quote, (size_t)(end - v));
            if (!close || close == v)
                return NULL;
            if (!sr_utf8_valid(v, (size_t)(close - v)))
                return sr_input_error(ps->path, ps->line, "invalid utf-8 in the model name");
            char *raw = sr_strndup(v, (size_t)(close - v));
            *value = sr_normalize_model_id(raw);
            free(raw);
            return NULL;
        }
        p += klen;
    }
    return NULL;
}

bool sr_vllm_log_server_marker(const char *s, size_t n)
{
    return has(s, n, "tpu_inference") || has(s, n, "tpu_worker.py") || has(s, n, "tpu_runner.py");
}

/* Lines an engine prints while it starts, or fails to start: wordings
 * found anywhere in the line (as the first versions of this parser
 * matched them), and messages that begin with a phrase (checked at the
 * message start only: a log line is matched against every pattern, and
 * request-log lines are most of a big log). */
bool sr_vllm_log_startup_text(const char *s, size_t n, const char *m, const char *end)
{
    static const struct {
        const char *text;
        size_t len;
    } anywhere[] = {
        WORDING("Application startup complete."),     WORDING("EngineCore failed to start"),
        WORDING("Engine core initialization failed"), WORDING("vLLM API server version"),
        WORDING("Starting vLLM API server"),          WORDING("Initializing a V1 LLM engine"),
        WORDING("Initializing an LLM engine"),
    };
#undef WORDING
    static const char *const starts[] = {
        "WorkerProc failed to start", "non-default args:",          "Starting to load model",
        "Loading weights took",       "Chunked prefill is enabled", "Init worker |",
    };
    for (size_t k = 0; k < sizeof starts / sizeof *starts; k++)
        if (sr_vllm_log_starts_with(m, end, starts[k]))
            return true;
    for (size_t k = 0; k < sizeof anywhere / sizeof *anywhere; k++)
        if (sr_memmem_n(s, n, anywhere[k].text, anywhere[k].len))
            return true;
    return false;
}
