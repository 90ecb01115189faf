/* The export loader, directory by directory: what sets runs apart inside
 * one directory (variants), and the parts becoming its entries. */
#include "ingest/export_parts.h"

/* ---- variants: what sets runs apart inside one directory --------------------- */

/* The parameters of a `vllm bench sweep` SERVE-- directory in a path
 * ("SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8" gives
 * "max_num_seqs=4"); NULL when the path has none. */
static char *serve_params(const char *path)
{
    const char *s = strstr(path, "SERVE--");
    while (s && s != path && s[-1] != '/')
        s = strstr(s + 1, "SERVE--");
    if (!s)
        return NULL;
    s += strlen("SERVE--");
    const char *end = strchr(s, '/');
    const char *bench = strstr(s, "-BENCH--");
    if (!end || (bench && bench < end))
        end = bench ? bench : s + strlen(s);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    /* "-" joins key=value pairs; a "-" inside a value stays when what
     * follows is not "key=". */
    for (const char *c = s; c < end; c++) {
        if (*c == '-' && c > s) {
            const char *k = c + 1;
            while (k < end && (*k == '_' || (*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9')))
                k++;
            if (k > c + 1 && k < end && *k == '=') {
                sr_strbuf_puts(&sb, ", ");
                continue;
            }
        }
        sr_strbuf_putc(&sb, *c);
    }
    return sr_strbuf_detach(&sb);
}

/* A run's params: the SERVE-- parameters of its path, then its own
 * (metadata). */
static void fill_run_params(sr_bench_run *run)
{
    char *serve = run->source ? serve_params(run->source) : NULL;
    if (!serve)
        return;
    char *both = run->params ? sr_asprintf("%s, %s", serve, run->params) : sr_xstrdup(serve);
    free(serve);
    free(run->params);
    run->params = both;
}

/* "k=v, k=v" into pairs (fresh strings); *n pairs. */
static kv_pair *split_params(const char *params, size_t *n)
{
    *n = 0;
    size_t cap = 0;
    kv_pair *pairs = NULL;
    for (const char *s = params; s && *s;) {
        const char *end = strstr(s, ", ");
        size_t len = end ? (size_t)(end - s) : strlen(s);
        const char *eq = memchr(s, '=', len);
        void *grown = pairs;
        sr_grow(&grown, &cap, *n + 1, sizeof *pairs);
        pairs = grown;
        kv_pair *kv = &pairs[(*n)++];
        kv->key = sr_strndup(s, eq ? (size_t)(eq - s) : len);
        kv->value = eq ? sr_strndup(eq + 1, len - (size_t)(eq - s) - 1) : sr_xstrdup("");
        s = end ? end + 2 : s + len;
    }
    return pairs;
}

static void pairs_free(kv_pair *pairs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(pairs[i].key);
        free(pairs[i].value);
    }
    free(pairs);
}

static const char *pair_value(const kv_pair *pairs, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (pairs[i].key && strcmp(pairs[i].key, key) == 0)
            return pairs[i].value;
    return NULL;
}

static void key_list_free(key_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

static bool key_list_has(const key_list *l, const char *key)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i], key) == 0)
            return true;
    return false;
}

static void key_list_add(key_list *l, const char *key)
{
    void *items = l->items;
    sr_grow(&items, &l->cap, l->n + 1, sizeof *l->items);
    l->items = items;
    l->items[l->n++] = sr_xstrdup(key);
}

/* Whether key has the same value (or is missing) in every run. */
static bool same_everywhere(const sr_bench_run *runs, size_t n_runs, const char *key)
{
    char *first = NULL;
    bool first_set = false, same = true;
    for (size_t r = 0; r < n_runs && same; r++) {
        size_t n = 0;
        kv_pair *pairs = split_params(runs[r].params, &n);
        const char *v = pair_value(pairs, n, key);
        if (!first_set) {
            first = v ? sr_xstrdup(v) : NULL;
            first_set = true;
        } else {
            same = (!v && !first) || (v && first && strcmp(v, first) == 0);
        }
        pairs_free(pairs, n);
    }
    free(first);
    return same;
}

/* The keys whose values differ between the runs of a directory (a key
 * missing from a run counts as a value): "deployment" when the runs of one
 * file come from three deployments. Each key once, in first-seen order. */
static void differing_keys(const sr_bench_run *runs, size_t n_runs, key_list *out)
{
    for (size_t r = 0; r < n_runs; r++) {
        size_t n = 0;
        kv_pair *pairs = split_params(runs[r].params, &n);
        for (size_t i = 0; i < n; i++)
            if (pairs[i].key && !key_list_has(out, pairs[i].key) && !same_everywhere(runs, n_runs, pairs[i].key))
                key_list_add(out, pairs[i].key);
        pairs_free(pairs, n);
    }
}

/* The variant of one run: its params restricted to the differing keys,
 * "deployment=base"; NULL when nothing differs. */
static char *run_variant(const sr_bench_run *run, const key_list *keys)
{
    if (keys->n == 0)
        return NULL;
    size_t n = 0;
    kv_pair *pairs = split_params(run->params, &n);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (size_t k = 0; k < keys->n; k++) {
        const char *v = pair_value(pairs, n, keys->items[k]);
        sr_strbuf_printf(&sb, "%s%s=%s", k ? ", " : "", keys->items[k], v ? v : "-");
    }
    pairs_free(pairs, n);
    return sr_strbuf_detach(&sb);
}

/* ---- from parts to entries ------------------------------------------------------ */

static const char *first_run_model(const run_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->runs[i].model_id && l->runs[i].model_id[0])
            return l->runs[i].model_id;
    return NULL;
}

/* An entry with only accuracy files: the model its lm-eval results file
 * names, else its BFCL model folder, else the directory name. */
static const char *fallback_model_id(const model_parts *p)
{
    if (p->results_model && p->results_model[0])
        return p->results_model;
    if (p->bfcl_model && p->bfcl_model[0])
        return p->bfcl_model;
    return p->dir;
}

/* SPEC: bench results' model_id, else the server log's engine line, else
 * the bench stdout's Namespace, else the directory name. */
static const char *model_id_for(const model_parts *p, const run_list *json_runs, const run_list *text_runs)
{
    const char *id = first_run_model(json_runs);
    for (size_t i = 0; !id && i < p->n_logs; i++)
        if (p->logs[i].log.model_id && p->logs[i].log.model_id[0])
            id = p->logs[i].log.model_id;
    if (!id)
        id = first_run_model(text_runs);
    return id ? id : fallback_model_id(p);
}

/* The server log: the first in name order; the others are restarts or
 * other ranks, named in a warning so that nothing is dropped unseen. */
static void take_logs(const loader *ld, sr_model *m, const model_parts *p)
{
    if (p->n_logs == 0)
        return;
    m->has_log = true;
    sr_server_log_release(&m->log);
    sr_server_log_init(&m->log);
    const sr_server_log *src = &p->logs[0].log;
    m->log = *src; /* shallow: the strings are copied below */
    m->log.source = src->source ? sr_xstrdup(src->source) : NULL;
    m->log.model_id = src->model_id ? sr_xstrdup(src->model_id) : NULL;
    memset(&m->log.failure, 0, sizeof m->log.failure);
    sr_serving_settings_init(&m->log.settings);
    if (src->failure.stage != SR_STAGE_NONE)
        sr_failure_set(&m->log.failure, src->failure.stage, src->failure.message, src->failure.source);
    sr_serving_settings_fill(&m->log.settings, &src->settings);
    sr_serving_settings_fill(&m->settings, &src->settings);
    if (m->log.failure.stage != SR_STAGE_NONE && m->failure.stage == SR_STAGE_NONE)
        sr_failure_set(&m->failure, m->log.failure.stage, m->log.failure.message, m->log.failure.source);
    if (p->n_logs == 1)
        return;
    sr_strbuf names;
    sr_strbuf_init(&names);
    for (size_t i = 1; i < p->n_logs; i++) {
        void *items = m->other_logs;
        size_t cap = m->n_other_logs;
        sr_grow(&items, &cap, m->n_other_logs + 1, sizeof *m->other_logs);
        m->other_logs = items;
        m->other_logs[m->n_other_logs++] = sr_xstrdup(p->logs[i].rel);
        const sr_failure *f = &p->logs[i].log.failure;
        sr_strbuf_printf(&names, ", '%s'%s%s", p->logs[i].rel, f->stage != SR_STAGE_NONE ? " (failed: " : "",
                         f->stage != SR_STAGE_NONE ? f->message : "");
        if (f->stage != SR_STAGE_NONE)
            sr_strbuf_putc(&names, ')');
    }
    sr_sweep_warn(ld->sweep, "%s: %zu server logs: '%s'%s; KV cache and settings are read from the first", m->id,
                  p->n_logs, p->logs[0].rel, sr_strbuf_cstr(&names));
    sr_strbuf_release(&names);
}

static void copy_score(const sr_scores *src, sr_scores *s)
{
    s->benchmark = sr_xstrdup(src->benchmark);
    s->source = src->source ? sr_xstrdup(src->source) : NULL;
    s->claimed_source = src->claimed_source ? sr_xstrdup(src->claimed_source) : NULL;
    s->metric_filter = src->metric_filter ? sr_xstrdup(src->metric_filter) : NULL;
    s->claimed_accuracy = src->claimed_accuracy;
    s->empty_outputs = src->empty_outputs;
    s->gen_rows = src->gen_rows;
    s->max_tokens = src->max_tokens;
    s->truncated = src->truncated;
    s->claimed_n = src->claimed_n;
    s->claimed_right = src->claimed_right;
    s->full_n = src->full_n;
    for (size_t k = 0; k < src->n_items; k++) {
        sr_scores_add_keyed(s, src->items[k].id, src->items[k].key, src->items[k].score);
        sr_scores_set_line(s, src->item_lines ? src->item_lines[k] : -1);
    }
}

/* The directory's accuracy scores and self-reported metrics into one entry:
 * moved into the last (usually only) entry, copied into the others. */
static void give_scores(const loader *ld, sr_model *m, model_parts *p, bool move)
{
    for (size_t i = 0; i < p->scores.n; i++) {
        sr_scores *src = &p->scores.items[i], copy;
        sr_scores_init(&copy);
        if (!move)
            copy_score(src, &copy);
        sr_scores *s = move ? src : &copy;
        if (sr_model_find_benchmark(m, s->benchmark))
            sr_sweep_warn(ld->sweep, "%s: %s: '%s' replaces an earlier file for the same benchmark", m->id,
                          s->benchmark, s->source ? s->source : "?");
        sr_model_add_scores(m, s);
        sr_scores_release(&copy);
    }
    for (size_t i = 0; i < p->n_reported; i++) {
        const sr_reported_metric *r = &p->reported[i];
        void *items = m->reported;
        sr_grow(&items, &m->cap_reported, m->n_reported + 1, sizeof *m->reported);
        m->reported = items;
        sr_reported_metric *d = &m->reported[m->n_reported++];
        *d = (sr_reported_metric){sr_xstrdup(r->task),
                                  sr_xstrdup(r->metric_filter),
                                  r->value,
                                  sr_xstrdup(r->source),
                                  r->n,
                                  r->right,
                                  r->truncated,
                                  r->max_tokens,
                                  r->subtask,
                                  r->n_original};
    }
}

/* The runs of one variant (all when variant is NULL) into the entry: moved,
 * so each run goes to exactly one entry. */
static void give_runs(sr_model *m, run_list *l, const key_list *keys, const char *variant)
{
    for (size_t i = 0; i < l->n; i++) {
        sr_bench_run *run = &l->runs[i];
        if (!run->source)
            continue; /* given to an earlier entry (moved out: every run read has a source) */
        char *v = run_variant(run, keys);
        bool mine = (!v && !variant) || (v && variant && strcmp(v, variant) == 0);
        free(v);
        if (mine)
            sr_model_add_bench_run(m, run);
    }
}

/* The distinct variants of the directory's runs, in first-seen order. */
static void variants_of(const run_list *const *lists, size_t n_lists, const key_list *keys, key_list *out)
{
    for (size_t l = 0; l < n_lists; l++)
        for (size_t i = 0; i < lists[l]->n; i++) {
            char *v = run_variant(&lists[l]->runs[i], keys);
            if (v && !key_list_has(out, v))
                key_list_add(out, v);
            free(v);
        }
}

/* The serving settings a `vllm bench sweep` SERVE-- directory names
 * ("max_num_seqs=4") hold for the runs under it: into the entry's settings.
 * Parameters that are not serving settings stay in the variant only. */
static void serve_settings(sr_model *m)
{
    for (size_t i = 0; i < m->n_runs; i++) {
        const sr_bench_run *run = &m->runs[i];
        char *serve = run->source ? serve_params(run->source) : NULL;
        if (!serve)
            continue;
        for (char *c = serve; *c; c++)
            if (*c == ',')
                *c = ' ';
        sr_arms_entry e;
        memset(&e, 0, sizeof e);
        sr_serving_settings_init(&e.settings);
        sr_error *err = sr_parse_serving_flags(run->source, 0, serve, &e);
        sr_serving_settings_set_source(&e.settings, run->source);
        if (!err)
            sr_serving_settings_fill(&m->settings, &e.settings);
        sr_error_free(err); /* a value that is not a setting's: kept as the variant only */
        sr_arms_entry_release(&e);
        free(serve);
        return;
    }
}

/* The directory's server logs, spec.txt settings and config.json into an
 * entry (its config moved when move, else copied). */
static void give_server(const loader *ld, sr_model *m, model_parts *p, bool move)
{
    take_logs(ld, m, p);
    /* the engine line an arm's spec.txt kept: what the engine settled on, after the boot log's */
    sr_serving_settings_fill(&m->settings, &p->spec);
    if (p->config_rel) {
        m->config_path = sr_xstrdup(p->config_rel);
        if (p->config_problem)
            m->config_problem = sr_xstrdup(p->config_problem);
        if (move) {
            m->layout = p->layout;
            p->layout = NULL;
        } else if (p->layout) {
            m->layout = sr_kv_layout_copy(p->layout);
        }
    }
}

/* One entry of the directory (variant NULL: the only one). */
static sr_model *make_entry(const loader *ld, model_parts *p, const key_list *keys, const char *variant, bool last)
{
    sr_sweep *sw = ld->sweep;
    const char *id = model_id_for(p, &p->json_runs, &p->text_runs);
    sr_model *m = sr_sweep_add_model(sw, id);
    free(m->dir);
    m->dir = sr_xstrdup(p->dir);
    if (variant)
        m->variant = sr_xstrdup(variant);
    give_server(ld, m, p, last);
    give_scores(ld, m, p, last);
    give_runs(m, &p->json_runs, keys, variant);
    give_runs(m, &p->text_runs, keys, variant);
    serve_settings(m);
    if (m->n_runs && !m->settings.benchmark_tool) {
        /* vllm bench serve's results (or SGLang's, which it defines alike) */
        const sr_bench_run *r = &m->runs[0];
        m->settings.benchmark_tool = sr_xstrdup(r->tool == SR_TOOL_AUTHOR ? "w4a16_client" : "vllm bench serve");
        m->settings.source[SR_SET_BENCH_TOOL] = r->source ? sr_xstrdup(r->source) : NULL;
    }
    return m;
}

/* ---- other tools' results: an entry per model and tool ------------------------------ */

/* The id a directory's own files give, or NULL when only its name does. */
static const char *named_id(const model_parts *p)
{
    const char *id = model_id_for(p, &p->json_runs, &p->text_runs);
    return id && strcmp(id, p->dir) != 0 ? id : NULL;
}

/* A tool result's entry key: its model (the directory's when its file
 * names none), its tool and version. */
static bool same_tool_entry(const sr_tool_result *a, const sr_tool_result *b)
{
    const sr_serving_settings *x = &a->settings, *y = &b->settings;
    bool model = (!a->model_id && !b->model_id) || (a->model_id && b->model_id && strcmp(a->model_id, b->model_id) == 0);
    bool tool = (!x->benchmark_tool && !y->benchmark_tool) ||
                (x->benchmark_tool && y->benchmark_tool && strcmp(x->benchmark_tool, y->benchmark_tool) == 0);
    /* a version one file does not say (MLPerf's summary without its detail log) differs from none */
    bool version = !x->benchmark_tool_version || !y->benchmark_tool_version ||
                   strcmp(x->benchmark_tool_version, y->benchmark_tool_version) == 0;
    return model && tool && version;
}

/* The results of group g (the tool results equal to p->tools[g]) into m. */
static void give_tool_group(const loader *ld, sr_model *m, model_parts *p, size_t g)
{
    for (size_t i = g; i < p->n_tools; i++) {
        sr_tool_result *r = &p->tools[i];
        if (!same_tool_entry(r, &p->tools[g]))
            continue;
        sr_serving_settings_fill(&m->settings, &r->settings);
        for (size_t k = 0; k < r->n_runs; k++)
            sr_model_add_bench_run(m, &r->runs[k]);
        for (size_t k = 0; k < r->n_scores; k++) {
            if (sr_model_find_benchmark(m, r->scores[k].benchmark))
                sr_sweep_warn(ld->sweep, "%s: %s: '%s' replaces an earlier file for the same benchmark", m->id,
                              r->scores[k].benchmark, r->scores[k].source ? r->scores[k].source : "?");
            sr_model_add_scores(m, &r->scores[k]);
        }
        r->n_runs = r->n_scores = 0; /* moved */
    }
}

/* The directory's other tools' results, one entry per model and tool
 * (GuideLLM's and AIPerf's runs of one model are two entries). The
 * directory's own files (a server log, config.json, lm-eval samples) go
 * with the entry of their model when they hold no speed run of their own
 * (the server the tool measured); else they are an entry of their own, as
 * before, and each tool entry shows their server log and config. */
static void make_tool_entries(const loader *ld, model_parts *p, bool own_entry)
{
    const char *own = named_id(p);
    bool legacy = p->n_logs || p->config_rel || p->scores.n || p->n_reported || parts_have_spec(p);
    size_t host = p->n_tools; /* the group the directory's own files join */
    for (size_t g = 0; g < p->n_tools && !own_entry && legacy; g++) {
        bool first = true;
        for (size_t j = 0; j < g && first; j++)
            first = !same_tool_entry(&p->tools[j], &p->tools[g]);
        const char *id = p->tools[g].model_id;
        if (first && (!own || !id || strcmp(id, own) == 0)) {
            host = g;
            break;
        }
    }
    for (size_t g = 0; g < p->n_tools; g++) {
        bool first = true;
        for (size_t j = 0; j < g && first; j++)
            first = !same_tool_entry(&p->tools[j], &p->tools[g]);
        if (!first)
            continue;
        const char *id = p->tools[g].model_id ? p->tools[g].model_id : own ? own : p->dir;
        sr_model *m = sr_sweep_add_model(ld->sweep, id);
        free(m->dir);
        m->dir = sr_xstrdup(p->dir);
        if (g == host) {
            give_server(ld, m, p, false);
            give_scores(ld, m, p, true);
        } else if (own_entry || legacy) {
            give_server(ld, m, p, false); /* the server the tool measured, as for variants */
        }
        give_tool_group(ld, m, p, g);
    }
    if (legacy && host == p->n_tools && !own_entry)
        make_entry(ld, p, &(key_list){0}, NULL, true); /* the directory's own files: another model's */
}

/* What one directory held becomes its entries: one, or one per variant
 * when its runs were made under different serving setups (the SERVE--
 * directories of `vllm bench sweep`, bench metadata such as deployment). */
void sr_export_merge_parts(const loader *ld, model_parts *p)
{
    bool results = p->json_runs.n || p->text_runs.n || p->scores.n || p->n_reported || p->summary_runs.n;
    if (p->n_failed_starts && !p->n_logs && !results) {
        /* Its only logs are failed starts: the first (name order) is the
         * entry's log, its failure the entry's, the others named. */
        p->logs = p->failed_starts;
        p->n_logs = p->n_failed_starts;
        p->cap_logs = p->cap_failed_starts;
        p->failed_starts = NULL;
        p->n_failed_starts = p->cap_failed_starts = 0;
    }
    bool any = p->n_logs || p->config_rel || p->json_runs.n || p->text_runs.n || p->scores.n || p->n_reported ||
               parts_have_spec(p);
    if (p->n_tools && !(p->json_runs.n || p->text_runs.n || p->summary_runs.n)) {
        make_tool_entries(ld, p, false);
        return;
    }
    if (!any) { /* its files are listed among the inputs, each with why it was not read */
        sr_sweep_warn(ld->sweep, "'%s': no file of a kind sweep-report reads; not an entry of the report", p->dir);
        return;
    }
    sr_export_check_summaries(ld, p);
    sr_export_drop_stdout_twins(ld, p);
    run_list *lists[] = {&p->json_runs, &p->text_runs};
    for (size_t l = 0; l < 2; l++)
        for (size_t i = 0; i < lists[l]->n; i++)
            fill_run_params(&lists[l]->runs[i]);
    key_list keys = {0}, variants = {0};
    /* Keys that differ within one list: a stdout and a JSON twin of the
     * same runs do not split the directory. */
    for (size_t l = 0; l < 2; l++) {
        key_list k = {0};
        differing_keys(lists[l]->runs, lists[l]->n, &k);
        for (size_t i = 0; i < k.n; i++)
            if (!key_list_has(&keys, k.items[i]))
                key_list_add(&keys, k.items[i]);
        key_list_free(&k);
    }
    variants_of((const run_list *const *)lists, 2, &keys, &variants);
    if (p->n_tools) /* beside the directory's own speed runs: an entry each, first (they copy its server) */
        make_tool_entries(ld, p, true);
    if (variants.n <= 1) {
        key_list none = {0};
        make_entry(ld, p, &none, NULL, true);
    }
    for (size_t v = 0; v < variants.n && variants.n > 1; v++)
        make_entry(ld, p, &keys, variants.items[v], v + 1 == variants.n);
    if (variants.n > 1 && (p->n_logs || p->scores.n))
        sr_sweep_warn(ld->sweep,
                      "'%s': runs from %zu serving setups (%s, ...); its server log and scores are shown "
                      "with each",
                      p->dir, variants.n, variants.items[0]);
    key_list_free(&keys);
    key_list_free(&variants);
}

/* The duplicate JSON keys this thread's parsers met (json_keys.h), as warnings. */
void sr_export_take_json_notes(sr_sweep *sink)
{
    sr_json_take_duplicate_notes(sr_sweep_warn_sentence, sink);
}
