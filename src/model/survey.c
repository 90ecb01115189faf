#include "model/survey.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

void sr_hub_record_release(sr_hub_record *r)
{
    if (!r)
        return;
    free(r->id);
    free(r->sha);
    free(r->license);
    free(r->license_name);
    free(r->license_link);
    free(r->gated);
    for (size_t i = 0; i < r->n_safetensors; i++)
        free(r->safetensors[i].name);
    free(r->safetensors);
    for (size_t i = 0; i < r->n_params; i++)
        free(r->params[i].dtype);
    free(r->params);
    memset(r, 0, sizeof *r);
    r->params_total = -1;
}

void sr_survey_init(sr_survey *s)
{
    memset(s, 0, sizeof *s);
}

void sr_survey_model_init(sr_survey_model *m)
{
    memset(m, 0, sizeof *m);
    m->record.params_total = -1;
    m->weights_gib = m->resident_gib = m->budget_gib = m->kv_gib = NAN;
    m->bytes_per_token = m->num_blocks = m->kv_tokens = -1;
    m->block_size = -1;
    m->kv_layers = m->n_layers = m->max_len_limit = -1;
    m->max_concurrency = NAN;
}

void sr_survey_model_release(sr_survey_model *m)
{
    if (!m)
        return;
    free(m->id);
    free(m->config_path);
    free(m->record_path);
    free(m->input_error);
    sr_hub_record_release(&m->record);
    free(m->architecture);
    free(m->model_type);
    free(m->weights_unknown_dtype);
    free(m->whatif);
    sr_survey_model_init(m);
}

void sr_survey_release(sr_survey *s)
{
    for (size_t i = 0; i < s->n_models; i++)
        sr_survey_model_release(&s->models[i]);
    free(s->models);
    for (size_t i = 0; i < s->n_warnings; i++)
        free(s->warnings[i]);
    free(s->warnings);
    for (size_t i = 0; i < s->settings.n_licenses; i++)
        free(s->settings.licenses[i]);
    free(s->settings.licenses);
    free(s->settings.benchmarks);
    free(s->settings.hardware);
    memset(s, 0, sizeof *s);
}

void sr_survey_add_model(sr_survey *s, sr_survey_model *m)
{
    void *models = s->models;
    sr_grow(&models, &s->cap_models, s->n_models + 1, sizeof *s->models);
    s->models = models;
    s->models[s->n_models++] = *m;
    sr_survey_model_init(m);
}

__attribute__((format(printf, 2, 3))) static void sr_survey_warn(sr_survey *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = sr_vasprintf(fmt, ap);
    va_end(ap);
    void *w = s->warnings;
    sr_grow(&w, &s->cap_warnings, s->n_warnings + 1, sizeof *s->warnings);
    s->warnings = w;
    s->warnings[s->n_warnings++] = text;
}

const char *sr_survey_verdict_name(sr_survey_verdict v)
{
    switch (v) {
    case SR_SURVEY_EXCLUDED_LICENSE: return "license";
    case SR_SURVEY_EXCLUDED_MEMORY: return "memory";
    case SR_SURVEY_NOT_SURVEYED: return "not surveyed";
    case SR_SURVEY_KEPT: break;
    }
    return "kept";
}

char *sr_survey_flags(const sr_survey_model *m)
{
    if (!m->tool_parser && !m->nothink)
        return NULL;
    return sr_asprintf("%s%s%s%s", m->tool_parser ? "parser=" : "", m->tool_parser ? m->tool_parser : "",
                       m->tool_parser && m->nothink ? " " : "", m->nothink ? "nothink" : "");
}

void sr_survey_warn_sentence(void *survey, const char *sentence)
{
    sr_survey_warn(survey, "%s", sentence);
}
