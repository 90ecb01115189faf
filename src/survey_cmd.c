/* `sweep-report survey METADATA_DIR`: plan a sweep offline from saved Hub
 * metadata (docs/survey.md). Reads each model's config.json and Hub record
 * (ingest), decides (analysis/survey.c), renders every output in memory and
 * only then writes OUT_DIR, each file atomically: an input error leaves
 * OUT_DIR as it was. Never touches the network. */
#include "survey_cmd.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/survey_rules.h"
#include "ingest/hf_config.h"
#include "ingest/survey_ingest.h"
#include "render/survey_render.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

static const char survey_usage[] =
    "usage: sweep-report survey METADATA_DIR [-o OUT_DIR] [--hbm-gib 15.75] [--mem-util 0.9] [--min-kv-gib 2]\n"
    "                           [--max-model-len 4096] [--backend tpu|gpu] [--license apache-2.0,mit]\n"
    "                           [--benchmarks load+long+gen] [--hardware v5e-1] [--reserve-gib G]\n"
    "                           [--keep-going] [--json]";

typedef struct survey_opts {
    const char *dir, *out_dir;
    bool json, help, reserve_given, hardware_given;
} survey_opts;

static sr_error *parse_number(const char *name, const char *arg, double lo, double hi, bool open_lo, double *out)
{
    double v;
    const char *stop, *end = arg + strlen(arg);
    if (!sr_parse_double(arg, end, &v, &stop) || stop != end || v < lo || v > hi || (open_lo && v == lo))
        return sr_usage_error("--%s: expected a number %s %g to %g, got '%s'", name, open_lo ? "above" : "from", lo, hi,
                              arg);
    *out = v;
    return NULL;
}

/* A word fit for an .arms field or comment: 1..64 of [A-Za-z0-9._+,-]. */
static bool plain_word(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+,-", s[i]))
            return false;
    return true;
}

static sr_error *set_word(const char *name, const char *arg, char **dst)
{
    if (!plain_word(arg))
        return sr_usage_error("--%s: expected letters, digits and . _ + , - (at most 64), got '%s'", name, arg);
    free(*dst);
    return (*dst = strdup(arg)) ? NULL : sr_oom();
}

/* --license a,b,c: lower-cased, each a plain word. */
static sr_error *set_licenses(sr_survey_settings *st, const char *arg)
{
    for (size_t i = 0; i < st->n_licenses; i++)
        free(st->licenses[i]);
    free(st->licenses);
    st->licenses = NULL;
    st->n_licenses = 0;
    size_t cap = 0;
    for (const char *p = arg;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char *word = sr_strndup(p, n);
        if (!word)
            return sr_oom();
        for (char *c = word; *c; c++)
            if (*c >= 'A' && *c <= 'Z')
                *c = (char)(*c - 'A' + 'a');
        void *grown = st->licenses;
        if (!plain_word(word) || strchr(word, ',')) {
            free(word);
            return sr_usage_error("--license: expected license ids separated by commas (apache-2.0,mit), got '%s'",
                                  arg);
        }
        if (!sr_grow(&grown, &cap, st->n_licenses + 1, sizeof *st->licenses)) {
            free(word);
            return sr_oom();
        }
        st->licenses = grown;
        st->licenses[st->n_licenses++] = word;
        if (!comma)
            return NULL;
        p = comma + 1;
    }
}

enum {
    OPT_HBM = 256,
    OPT_UTIL,
    OPT_MINKV,
    OPT_LEN,
    OPT_BACKEND,
    OPT_LICENSE,
    OPT_BENCH,
    OPT_HARDWARE,
    OPT_RESERVE,
    OPT_KEEP,
    OPT_JSON
};

static sr_error *parse_option(int c, survey_opts *o, sr_survey_settings *st)
{
    double v;
    sr_error *err = NULL;
    switch (c) {
    case 'o': o->out_dir = optarg; break;
    case OPT_HBM: err = parse_number("hbm-gib", optarg, 0, 1e6, true, &st->hbm_gib); break;
    case OPT_UTIL: err = parse_number("mem-util", optarg, 0, 1, true, &st->mem_util); break;
    case OPT_MINKV: err = parse_number("min-kv-gib", optarg, 0, 1e6, false, &st->min_kv_gib); break;
    case OPT_RESERVE:
        err = parse_number("reserve-gib", optarg, 0, 1e6, false, &st->reserve_gib);
        o->reserve_given = true;
        break;
    case OPT_LEN:
        if (!(err = parse_number("max-model-len", optarg, 1, 1 << 30, false, &v)) && v != floor(v))
            err = sr_usage_error("--max-model-len: expected a whole number, got '%s'", optarg);
        if (!err)
            st->max_model_len = (long)v;
        break;
    case OPT_BACKEND:
        if (strcmp(optarg, "tpu") == 0)
            st->backend = SR_SURVEY_TPU;
        else if (strcmp(optarg, "gpu") == 0)
            st->backend = SR_SURVEY_GPU;
        else
            err = sr_usage_error("--backend: expected tpu or gpu, got '%s'", optarg);
        break;
    case OPT_LICENSE: err = set_licenses(st, optarg); break;
    case OPT_BENCH: err = set_word("benchmarks", optarg, &st->benchmarks); break;
    case OPT_HARDWARE:
        err = set_word("hardware", optarg, &st->hardware);
        o->hardware_given = true;
        break;
    case OPT_KEEP: st->keep_going = true; break;
    case OPT_JSON: o->json = true; break;
    case 'h': o->help = true; break;
    }
    return err;
}

static sr_error *parse_args(int argc, char **argv, survey_opts *o, sr_survey_settings *st)
{
    static const struct option longs[] = {
        {"output", required_argument, NULL, 'o'},
        {"hbm-gib", required_argument, NULL, OPT_HBM},
        {"mem-util", required_argument, NULL, OPT_UTIL},
        {"gpu-memory-utilization", required_argument, NULL, OPT_UTIL},
        {"min-kv-gib", required_argument, NULL, OPT_MINKV},
        {"max-model-len", required_argument, NULL, OPT_LEN},
        {"backend", required_argument, NULL, OPT_BACKEND},
        {"license", required_argument, NULL, OPT_LICENSE},
        {"benchmarks", required_argument, NULL, OPT_BENCH},
        {"hardware", required_argument, NULL, OPT_HARDWARE},
        {"reserve-gib", required_argument, NULL, OPT_RESERVE},
        {"keep-going", no_argument, NULL, OPT_KEEP},
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *o = (survey_opts){.out_dir = "survey"};
    st->backend = SR_SURVEY_TPU;
    st->hbm_gib = 15.75; /* what a TPU v5e chip reports as bytes_limit (kv.md 2.1) */
    st->mem_util = 0.9;
    st->min_kv_gib = 2;
    st->max_model_len = 4096;
    sr_error *err = set_licenses(st, "apache-2.0,mit");
    if (!err)
        err = set_word("benchmarks", "load+long+gen", &st->benchmarks);
    optind = 0; /* GNU: full reinitialisation, so the parser can run twice */
    opterr = 0;
    int c;
    while (!err && (c = getopt_long(argc, argv, ":o:h", longs, NULL)) != -1) {
        if (c == ':')
            err = sr_usage_error("option '%s' needs a value", argv[optind - 1]);
        else if (c == '?')
            err = sr_usage_error("unknown option '%s'", argv[optind - 1]);
        else
            err = parse_option(c, o, st);
    }
    if (err || o->help)
        return err;
    if (optind >= argc)
        return sr_usage_error("survey: no METADATA_DIR given\n%s", survey_usage);
    if (argc - optind > 1)
        return sr_usage_error("survey: one METADATA_DIR expected, got also '%s'", argv[optind + 1]);
    o->dir = argv[optind];
    if (!o->out_dir[0])
        return sr_usage_error("survey: -o needs a directory");
    if (!o->reserve_given)
        st->reserve_gib = st->backend == SR_SURVEY_GPU ? SR_SURVEY_RESERVE_GPU_GIB : SR_SURVEY_RESERVE_TPU_GIB;
    if (!o->hardware_given)
        err = set_word("hardware", st->backend == SR_SURVEY_GPU ? "gpu-1" : "v5e-1", &st->hardware);
    return err;
}

/* ---- reading one model ---------------------------------------------------- */

static sr_error *read_record(const char *dir, const sr_metadata_files *f, sr_survey_model *m)
{
    char *shown = sr_path_join(dir, f->record_rel), *data = NULL;
    size_t len;
    if (!shown)
        return sr_oom();
    sr_error *err = sr_metadata_read(f->record_open, shown, SR_MAX_RECORD_BYTES, &data, &len);
    if (!err)
        err = sr_parse_hub_record(shown, data, len, &m->record);
    if (!err) {
        m->has_record = true;
        if (f->name_is_id && strcmp(f->name, m->record.id) != 0)
            err =
                sr_input_error(shown, 0, "the record is for '%s', but its file name says '%s'", m->record.id, f->name);
    }
    if (!err) {
        free(m->id);
        err = (m->id = strdup(m->record.id)) ? NULL : sr_oom();
    }
    free(data);
    free(shown);
    return err;
}

static sr_error *read_config(const char *dir, const sr_metadata_files *f, sr_kv_layout *layout)
{
    char *shown = sr_path_join(dir, f->config_rel), *data = NULL;
    size_t len;
    if (!shown)
        return sr_oom();
    sr_error *err = sr_metadata_read(f->config_open, shown, SR_MAX_CONFIG_BYTES, &data, &len);
    if (!err)
        err = sr_kv_layout_parse(shown, data, len, layout);
    free(data);
    free(shown);
    return err;
}

/* Read and decide one model into m. Input errors come back to the caller,
 * which stops or (--keep-going) lists the model as not surveyed. */
static sr_error *survey_one(const char *dir, const sr_survey_settings *st, const sr_metadata_files *f,
                            sr_survey_model *m)
{
    if (!(m->id = strdup(f->name)))
        return sr_oom();
    if ((f->config_rel && !(m->config_path = strdup(f->config_rel))) ||
        (f->record_rel && !(m->record_path = strdup(f->record_rel))))
        return sr_oom();
    if (f->problem) {
        char *shown = sr_path_join(dir, f->problem_path);
        sr_error *err = sr_input_error(shown ? shown : f->problem_path, 0, "%s", f->problem);
        free(shown);
        return err;
    }
    sr_error *err = read_record(dir, f, m);
    if (err)
        return err;
    sr_kv_layout layout;
    memset(&layout, 0, sizeof layout);
    err = read_config(dir, f, &layout);
    if (!err)
        err = sr_survey_decide(st, m, &layout);
    sr_kv_layout_free(&layout);
    return err;
}

/* --keep-going: the model stays in the list as not surveyed, with why. */
static sr_error *pass_over(sr_survey *s, sr_survey_model *m, sr_error *err)
{
    char *text = sr_error_format(err);
    sr_error_free(err);
    if (!text)
        return sr_oom();
    /* "error: 'path':line: message" without the "error: " */
    const char *msg = strncmp(text, "error: ", 7) == 0 ? text + 7 : text;
    m->verdict = SR_SURVEY_NOT_SURVEYED;
    free(m->input_error);
    m->input_error = strdup(msg);
    bool ok = m->input_error && sr_survey_warn(s, "%s; %s not surveyed", msg, m->id);
    free(text);
    return ok ? NULL : sr_oom();
}

static int cmp_models(const void *a, const void *b)
{
    return strcmp(((const sr_survey_model *)a)->id, ((const sr_survey_model *)b)->id);
}

/* Sorted by id; a second entry of one id is an input error, or with
 * --keep-going left out with a warning. */
static sr_error *sort_and_dedupe(sr_survey *s, const char *dir)
{
    if (s->n_models > 1)
        qsort(s->models, s->n_models, sizeof *s->models, cmp_models);
    size_t k = 0;
    for (size_t i = 0; i < s->n_models; i++) {
        sr_survey_model *m = &s->models[i];
        if (k > 0 && strcmp(s->models[k - 1].id, m->id) == 0) {
            const char *a = s->models[k - 1].record_path ? s->models[k - 1].record_path : "?";
            const char *b = m->record_path ? m->record_path : "?";
            if (!s->settings.keep_going)
                return sr_input_error(dir, 0, "model '%s' is there twice: '%s' and '%s'", m->id, a, b);
            if (!sr_survey_warn(s, "model '%s' is there twice: '%s' and '%s'; the second left out", m->id, a, b))
                return sr_oom();
            sr_survey_model_free(m);
            continue;
        }
        if (k != i) {
            s->models[k] = *m;
            sr_survey_model_init(m);
        }
        k++;
    }
    s->n_models = k;
    return NULL;
}

static sr_error *load_models(sr_survey *s, const char *dir)
{
    sr_metadata_files *files;
    size_t n;
    sr_error *err = sr_metadata_scan(dir, &files, &n);
    if (err)
        return err;
    if (n == 0)
        err = sr_input_error(dir, 0,
                             "no models found (expected <org>--<name>.config.json and .model_info.json, a directory "
                             "per model, or a hub cache)");
    for (size_t i = 0; i < n && !err; i++) {
        sr_survey_model m;
        sr_survey_model_init(&m);
        err = survey_one(dir, &s->settings, &files[i], &m);
        if (err && err->code == SR_EXIT_INPUT && s->settings.keep_going)
            err = pass_over(s, &m, err);
        if (!err && !sr_survey_add_model(s, &m))
            err = sr_oom();
        sr_survey_model_free(&m);
    }
    sr_metadata_files_free(files, n);
    return err ? err : sort_and_dedupe(s, dir);
}

/* ---- writing -------------------------------------------------------------- */

typedef struct output {
    const char *name;
    char *data;
    size_t len;
} output;

enum { OUT_MD, OUT_CSV, OUT_JSON, OUT_ARMS, OUT_PNG, OUT_SVG, N_OUT };

static sr_error *render_all(const sr_survey *s, output *out)
{
    static const char *const names[N_OUT] = {"candidates.md", "candidates.csv", "candidates.json",
                                             "sweep.arms",    "kv_tokens.png",  "kv_tokens.svg"};
    for (int i = 0; i < N_OUT; i++)
        out[i] = (output){names[i], NULL, 0};
    sr_error *err = sr_render_survey_markdown(s, &out[OUT_MD].data, &out[OUT_MD].len);
    if (!err)
        err = sr_render_survey_csv(s, &out[OUT_CSV].data, &out[OUT_CSV].len);
    if (!err)
        err = sr_render_survey_json(s, &out[OUT_JSON].data, &out[OUT_JSON].len);
    if (!err)
        err = sr_render_survey_arms(s, &out[OUT_ARMS].data, &out[OUT_ARMS].len);
    if (!err)
        err = sr_render_survey_chart(s, SR_CHART_PNG, &out[OUT_PNG].data, &out[OUT_PNG].len);
    if (!err)
        err = sr_render_survey_chart(s, SR_CHART_SVG, &out[OUT_SVG].data, &out[OUT_SVG].len);
    return err;
}

static sr_error *write_all(const char *out_dir, const output *out)
{
    sr_error *err = sr_mkdir_p(out_dir);
    for (int i = 0; i < N_OUT && !err; i++) {
        char *path = sr_path_join(out_dir, out[i].name);
        err = path ? sr_write_atomic(path, out[i].data, out[i].len) : sr_oom();
        free(path);
    }
    return err;
}

static void print_summary(FILE *info, const sr_survey *s, const char *out_dir)
{
    size_t kept = 0, t1 = 0, t2 = 0, not_surveyed = 0;
    for (size_t i = 0; i < s->n_models; i++) {
        const sr_survey_model *m = &s->models[i];
        kept += m->verdict == SR_SURVEY_KEPT;
        t1 += m->verdict == SR_SURVEY_KEPT && m->tier == 1;
        t2 += m->verdict == SR_SURVEY_KEPT && m->tier == 2;
        not_surveyed += m->verdict == SR_SURVEY_NOT_SURVEYED;
    }
    for (size_t i = 0; i < s->n_warnings; i++)
        fprintf(info, "warning: %s\n", s->warnings[i]);
    fprintf(info, "sweep-report: surveyed %zu models: %zu kept", s->n_models, kept);
    if (s->settings.backend == SR_SURVEY_TPU)
        fprintf(info, " (%zu tier 1, %zu tier 2)", t1, t2);
    fprintf(info, ", %zu excluded, %zu not surveyed; wrote %s/\n", s->n_models - kept - not_surveyed, not_surveyed,
            out_dir);
}

sr_error *sr_cmd_survey(int argc, char **argv, FILE *out, FILE *info)
{
    sr_survey s;
    sr_survey_init(&s);
    s.registry_source = sr_tpu_jax_registry_source;
    survey_opts o;
    sr_error *err = parse_args(argc, argv, &o, &s.settings);
    if (!err && o.help)
        fprintf(out, "%s\n", survey_usage);
    if (err || o.help) {
        sr_survey_free(&s);
        return err;
    }
    err = load_models(&s, o.dir);
    output outs[N_OUT];
    memset(outs, 0, sizeof outs);
    if (!err)
        err = render_all(&s, outs);
    if (!err)
        err = write_all(o.out_dir, outs);
    if (!err && o.json && fwrite(outs[OUT_JSON].data, 1, outs[OUT_JSON].len, out) != outs[OUT_JSON].len)
        err = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot write to standard output");
    if (!err)
        print_summary(info, &s, o.out_dir);
    for (int i = 0; i < N_OUT; i++)
        free(outs[i].data);
    sr_survey_free(&s);
    return err;
}
