/* The parts report.json and compare.json show the same way
 * (json_parts.h). */
#include "render/shared/json_parts.h"

#include <math.h>

cJSON *sr_json_failure(const sr_failure *f)
{
    if (f->stage == SR_STAGE_NONE)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    sr_json_add(o, "stage", sr_json_str(sr_stage_name(f->stage))); /* null: no file states one */
    sr_json_add(o, "message", sr_json_str(f->message));
    sr_json_add(o, "source", sr_json_str(f->source));
    return o;
}

cJSON *sr_json_serving_settings(const sr_serving_settings *st)
{
    cJSON *o = cJSON_CreateObject();
    sr_json_add(o, "vllm_version", sr_json_str(st->vllm_version));
    sr_json_add(o, "tensor_parallel_size", sr_json_count(st->tensor_parallel_size));
    sr_json_add(o, "pipeline_parallel_size", sr_json_count(st->pipeline_parallel_size));
    sr_json_add(o, "max_num_batched_tokens", sr_json_count(st->max_num_batched_tokens));
    sr_json_add(o, "max_num_seqs", sr_json_count(st->max_num_seqs));
    sr_json_add(o, "block_size", sr_json_count(st->block_size));
    sr_json_add(o, "kv_cache_dtype", sr_json_str(st->kv_cache_dtype));
    sr_json_add(o, "gpu_memory_utilization", sr_json_num(st->gpu_memory_utilization));
    sr_json_add(o, "max_model_len", sr_json_count(st->max_model_len));
    sr_json_add(o, "speculative_method", sr_json_str(st->speculative_method));
    sr_json_add(o, "num_speculative_tokens", sr_json_count(st->num_speculative_tokens));
    sr_json_add(o, "benchmark_tool", sr_json_str(st->benchmark_tool));
    sr_json_add(o, "benchmark_tool_version", sr_json_str(st->benchmark_tool_version));
    sr_json_add(o, "backend", sr_json_str(st->backend));
    sr_json_add(o, "endpoint", sr_json_str(st->endpoint));
    /* where each known setting was read: a server log, "logs/run.log:4", a
     * spec.txt, "arms.txt:3", "sweep.json" */
    cJSON *src = cJSON_CreateObject();
    for (int f = 0; f < SR_SETTING_FIELDS; f++)
        if (sr_setting_known(st, (sr_setting_field)f))
            sr_json_add(src, sr_setting_name((sr_setting_field)f), sr_json_str(st->source[f]));
    sr_json_add(o, "sources", src);
    return o;
}

cJSON *sr_json_manifest(const sr_sweep *sw)
{
    const sr_manifest *mf = &sw->manifest;
    cJSON *o = cJSON_CreateObject();
    sr_json_add(o, "name", sr_json_str(mf->name));
    sr_json_add(o, "hardware", sr_json_str(mf->hardware));
    sr_json_add(o, "hbm_gib", sr_json_num(mf->hbm_gib));
    sr_json_add(o, "gpu_memory_utilization", sr_json_num(mf->gpu_memory_utilization));
    sr_json_add(o, "max_model_len", sr_json_count(mf->max_model_len));
    sr_json_add(o, "max_num_seqs", sr_json_count(mf->max_num_seqs));
    sr_json_add(o, "image", sr_json_str(mf->image));
    sr_json_add(o, "vllm_version", sr_json_str(mf->vllm_version));
    sr_json_add(o, "date", sr_json_str(mf->date));
    sr_json_add(o, "source", sr_json_str(mf->source));
    return o;
}

cJSON *sr_json_input(const sr_input_file *in)
{
    cJSON *f = cJSON_CreateObject();
    sr_json_add(f, "path", cJSON_CreateString(in->path));
    sr_json_add(f, "kind", cJSON_CreateString(in->kind));
    sr_json_add(f, "size", in->size >= 0 ? cJSON_CreateNumber((double)in->size) : cJSON_CreateNull());
    sr_json_add(f, "sha256", in->sha256[0] ? cJSON_CreateString(in->sha256) : cJSON_CreateNull());
    sr_json_add(f, "reason", sr_json_str(in->reason));
    return f;
}

cJSON *sr_json_inputs(const sr_sweep *sw)
{
    cJSON *inputs = cJSON_CreateArray();
    for (size_t i = 0; i < sw->n_inputs; i++)
        sr_json_append(inputs, sr_json_input(&sw->inputs[i]));
    return inputs;
}

cJSON *sr_json_provenance(const sr_provenance *p)
{
    cJSON *o = cJSON_CreateObject(), *listings = cJSON_CreateArray(), *counts = cJSON_CreateObject(),
          *files = cJSON_CreateArray();
    for (size_t i = 0; i < p->n_listings; i++) {
        const sr_listing *l = &p->listings[i];
        cJSON *j = cJSON_CreateObject();
        sr_json_add(j, "path", cJSON_CreateString(l->path));
        sr_json_add(j, "format", cJSON_CreateString(sr_listing_format_name(l->format)));
        sr_json_add(j, "sha256", cJSON_CreateString(l->sha256));
        sr_json_add(j, "bytes", cJSON_CreateNumber((double)l->bytes));
        sr_json_add(j, "objects", cJSON_CreateNumber((double)l->objects));
        sr_json_add(j, "placeholders", cJSON_CreateNumber((double)l->placeholders));
        sr_json_add(j, "outside", cJSON_CreateNumber((double)l->outside));
        sr_json_add(j, "bucket", sr_json_str(l->bucket));
        sr_json_add(j, "prefix", cJSON_CreateString(l->prefix ? l->prefix : ""));
        sr_json_add(j, "prefix_given", cJSON_CreateBool(l->prefix_given));
        sr_json_append(listings, j);
    }
    for (int s = 0; s < SR_CUSTODY_N; s++)
        sr_json_add(counts, sr_custody_status_name((sr_custody_status)s), cJSON_CreateNumber((double)p->counts[s]));
    for (size_t i = 0; i < p->n_files; i++) {
        const sr_custody_file *f = &p->files[i];
        cJSON *j = cJSON_CreateObject();
        sr_json_add(j, "path", cJSON_CreateString(f->path));
        sr_json_add(j, "status", cJSON_CreateString(sr_custody_status_name(f->status)));
        sr_json_add(j, "hash", sr_json_str(sr_custody_check_name(f->check)));
        sr_json_add(j, "expected", sr_json_str(f->expected));
        sr_json_add(j, "actual", sr_json_str(f->actual));
        sr_json_add(j, "generation", sr_json_str(f->generation));
        sr_json_add(j, "reason", sr_json_str(f->reason));
        sr_json_add(j, "entry", sr_json_str(f->entry));
        sr_json_append(files, j);
    }
    sr_json_add(o, "listings", listings);
    sr_json_add(o, "counts", counts);
    sr_json_add(o, "bucket_files", cJSON_CreateNumber((double)p->bucket_files));
    sr_json_add(o, "files", files);
    return o;
}

cJSON *sr_json_statistics_settings(const sr_settings *st)
{
    cJSON *o = cJSON_CreateObject();
    sr_json_add(o, "resamples", cJSON_CreateNumber((double)st->resamples));
    sr_json_add(o, "seed", cJSON_CreateNumber((double)st->seed));
    sr_json_add(o, "confidence", cJSON_CreateNumber(st->confidence));
    sr_json_add(o, "rng", cJSON_CreateString(st->rng));
    sr_json_add(o, "ci_method", cJSON_CreateString(st->ci_method));
    return o;
}

cJSON *sr_json_warnings(const sr_sweep *sw)
{
    cJSON *warnings = cJSON_CreateArray();
    for (size_t i = 0; i < sw->n_warnings; i++)
        sr_json_append(warnings, cJSON_CreateString(sw->warnings[i]));
    return warnings;
}

cJSON *sr_json_notes(const sr_sweep *sw)
{
    cJSON *notes = cJSON_CreateArray();
    for (size_t i = 0; i < sw->n_notes; i++)
        sr_json_append(notes, cJSON_CreateString(sw->notes[i]));
    return notes;
}
