/* `sweep-report survey METADATA_DIR`: plan a sweep offline from saved Hub
 * metadata (docs/survey.md). Reads each model's config.json and Hub record
 * (ingest), decides (analysis/survey_rules.c), renders every output in memory and
 * only then writes OUT_DIR, each file atomically: an input error leaves
 * OUT_DIR as it was. Never touches the network. */
#include "cmd/cmd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/survey_rules.h"
#include "pipeline.h"
#include "render/outputs/outputs.h"
#include "util/alloc.h"
#include "util/escape.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

typedef struct survey_opts {
    const char *out_dir;
    sr_survey_settings *st;            /* where the callbacks put what they parse */
    double hbm, util, min_kv, reserve; /* reserve NAN: the backend's */
    long max_model_len;
    int backend;
    bool hardware_given, keep_going, json;
} survey_opts;

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
        return sr_cli_bad_value(name, "letters, digits and . _ + , - (at most 64)", arg);
    free(*dst);
    *dst = sr_xstrdup(arg);
    return NULL;
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
        for (char *c = word; *c; c++)
            if (*c >= 'A' && *c <= 'Z')
                *c = (char)(*c - 'A' + 'a');
        void *grown = st->licenses;
        if (!plain_word(word) || strchr(word, ',')) {
            free(word);
            return sr_cli_bad_value("license", "license ids separated by commas (apache-2.0,mit)", arg);
        }
        sr_grow(&grown, &cap, st->n_licenses + 1, sizeof *st->licenses);
        st->licenses = grown;
        st->licenses[st->n_licenses++] = word;
        if (!comma)
            return NULL;
        p = comma + 1;
    }
}

static sr_error *opt_license(void *opts, const char *arg)
{
    return set_licenses(((survey_opts *)opts)->st, arg);
}

static sr_error *opt_benchmarks(void *opts, const char *arg)
{
    return set_word("benchmarks", arg, &((survey_opts *)opts)->st->benchmarks);
}

static sr_error *opt_hardware(void *opts, const char *arg)
{
    survey_opts *o = opts;
    o->hardware_given = true;
    return set_word("hardware", arg, &o->st->hardware);
}


const sr_cli_option sr_survey_options[] = {
    SR_OPT_STRING('o', "output", "DIR", survey_opts, out_dir, "where to write (default: " SR_DEFAULT_SURVEY_DIR ")"),
    SR_OPT_GROUP("The chip"),
    SR_OPT_CHOICE(0, "backend", survey_opts, backend, sr_backend_choices, "tpu (tpu-inference) or gpu (vLLM); default tpu"),
    SR_OPT_NUMBER(0, "hbm-gib", "G", survey_opts, hbm, 0, 1e6, SR_CLI_OPEN_LOW,
                  "device memory (default " SR_STR(SR_DEFAULT_SURVEY_HBM_GIB) ", what a TPU v5e reports)"),
    SR_OPT_NUMBER(0, "mem-util", "U", survey_opts, util, 0, 1, SR_CLI_OPEN_LOW,
                  "the share of it vLLM may use (default " SR_STR(SR_DEFAULT_SURVEY_MEM_UTIL) ")"),
    SR_OPT_ALIAS("gpu-memory-utilization", "mem-util", NULL),
    SR_OPT_NUMBER(0, "reserve-gib", "G", survey_opts, reserve, 0, 1e6, SR_CLI_CLOSED,
                  "memory besides the weights (activations, compile): default " SR_STR(SR_SURVEY_RESERVE_TPU_GIB) " on tpu, "
                  SR_STR(SR_SURVEY_RESERVE_GPU_GIB) " on gpu (docs/survey.md)"),
    SR_OPT_GROUP("What is kept"),
    SR_OPT_NUMBER(0, "min-kv-gib", "G", survey_opts, min_kv, 0, 1e6, SR_CLI_CLOSED,
                  "the KV cache room a kept model must leave (default " SR_STR(SR_DEFAULT_SURVEY_MIN_KV_GIB) ")"),
    SR_OPT_WHOLE(0, "max-model-len", "L", survey_opts, max_model_len, 1, 1L << 30,
                 "tokens per request for the KV figures (default " SR_STR(SR_DEFAULT_SURVEY_MAX_MODEL_LEN) ")"),
    SR_OPT_CALL(0, "license", "LIST", opt_license, "licenses allowed, comma-separated (default " SR_DEFAULT_SURVEY_LICENSES ")"),
    SR_OPT_GROUP("The run plan"),
    SR_OPT_CALL(0, "benchmarks", "B", opt_benchmarks, "the benchmarks field of sweep.arms (default " SR_DEFAULT_SURVEY_BENCHMARKS ")"),
    SR_OPT_CALL(0, "hardware", "H", opt_hardware, "the hardware field of sweep.arms (default " SR_DEFAULT_SURVEY_HARDWARE_TPU ", "
                SR_DEFAULT_SURVEY_HARDWARE_GPU " on gpu)"),
    SR_OPT_GROUP("Output"),
    SR_OPT_FLAG(0, "keep-going", survey_opts, keep_going,
                "a model whose files are missing or malformed is listed as not surveyed, instead of stopping"),
    SR_OPT_FLAG(0, "json", survey_opts, json, "also print candidates.json to standard output"),
    SR_OPT_END,
};

/* The options into the survey's settings, with the backend's defaults for
 * what was not given. */
static sr_error *settings_from(survey_opts *o)
{
    sr_survey_settings *st = o->st;
    if (!o->out_dir[0])
        return sr_usage_error("-o needs a directory");
    st->backend = (sr_kv_backend)o->backend;
    st->hbm_gib = o->hbm;
    st->mem_util = o->util;
    st->min_kv_gib = o->min_kv;
    st->max_model_len = o->max_model_len;
    st->keep_going = o->keep_going;
    st->reserve_gib = isfinite(o->reserve)           ? o->reserve
                      : st->backend == SR_KV_BACKEND_GPU ? SR_SURVEY_RESERVE_GPU_GIB
                                                     : SR_SURVEY_RESERVE_TPU_GIB;
    if (!o->hardware_given)
        return set_word("hardware",
                        st->backend == SR_KV_BACKEND_GPU ? SR_DEFAULT_SURVEY_HARDWARE_GPU : SR_DEFAULT_SURVEY_HARDWARE_TPU,
                        &st->hardware);
    return NULL;
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
    for (size_t i = 0; i < s->n_warnings; i++) {
        char *shown = sr_terminal_text_dup(s->warnings[i]);
        fprintf(info, "warning: %s\n", shown);
        free(shown);
    }
    fprintf(info, "sweep-report: surveyed %zu models: %zu kept", s->n_models, kept);
    if (s->settings.backend == SR_KV_BACKEND_TPU)
        fprintf(info, " (%zu tier 1, %zu tier 2)", t1, t2);
    fprintf(info, ", %zu excluded, %zu not surveyed; wrote %s/\n", s->n_models - kept - not_surveyed, not_surveyed,
            out_dir);
}

sr_error *sr_cmd_survey(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info)
{
    sr_survey s;
    sr_survey_init(&s);
    s.registry_source = sr_tpu_jax_registry_source;
    /* Defaults: one TPU v5e chip as the published sweep used it. */
    survey_opts o = {.out_dir = SR_DEFAULT_SURVEY_DIR,
                     .st = &s.settings,
                     .hbm = SR_DEFAULT_SURVEY_HBM_GIB,
                     .util = SR_DEFAULT_SURVEY_MEM_UTIL,
                     .min_kv = SR_DEFAULT_SURVEY_MIN_KV_GIB,
                     .reserve = NAN,
                     .max_model_len = SR_DEFAULT_SURVEY_MAX_MODEL_LEN,
                     .backend = SR_KV_BACKEND_TPU};
    sr_cli_parsed args = {0};
    sr_error *err = set_licenses(&s.settings, SR_DEFAULT_SURVEY_LICENSES);
    if (!err)
        err = set_word("benchmarks", SR_DEFAULT_SURVEY_BENCHMARKS, &s.settings.benchmarks);
    if (!err)
        err = sr_cli_parse(cmd, argc, argv, &o, out, &args);
    if (!err && !args.help)
        err = settings_from(&o);
    if (err || args.help) {
        sr_survey_release(&s);
        return err;
    }
    const char *dir = args.operands[0];
    err = sr_build_survey(&s, dir);
    sr_output outs[SR_MAX_OUTPUTS];
    size_t n = 0;
    if (!err)
        err = sr_render_survey_files(&s, outs, &n);
    if (!err)
        err = sr_cmd_write_outputs(o.out_dir, "survey", outs, n, info);
    const sr_output *json = err ? NULL : sr_output_named(outs, n, "candidates.json");
    if (json && o.json && fwrite(json->data, 1, json->len, out) != json->len)
        err = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot write to standard output");
    if (!err)
        print_summary(info, &s, o.out_dir);
    sr_outputs_release(outs, n);
    sr_survey_release(&s);
    return err;
}
