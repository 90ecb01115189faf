/* config.json -> per-layer KV layout (docs/kv.md 2).
 *
 * The text model's fields come from "text_config" when present (Gemma 3/3n/4
 * and other multimodal configs), else from the top level; dtype and
 * architectures fall back to the top level. A field set to null counts as
 * absent (Gemma 4 E2B has num_global_key_value_heads: null). What the
 * reader assumes is recorded as sr_hf_note bits, not words. */
#include "ingest/hf_config.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/ingest.h" /* sr_json_check_text */
#include "ingest/json.h"
#include "ingest/json_keys.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/text.h"

#define KV_MAX_LAYERS 100000L
#define KV_MAX_DIM 1000000L

static const char *string_member(const cJSON *obj, const char *name);

/* What is read: the root object and the text model's object (the same
 * unless the config has "text_config"; then its keys are searched from
 * "text_config" on and named "text_config.<key>"). */
typedef struct reader {
    sr_json_obj root;
    sr_json_obj text;
    unsigned notes;                       /* sr_hf_note bits */
    const char *defaults_type;            /* the text model's type for defaults, or NULL */
    const sr_hf_class_defaults *defaults; /* its class defaults, or NULL */
    unsigned defaulted;                   /* sr_hf_default_field bits used */
    bool incomplete;                      /* a missing_field error was returned */
} reader;

/* Multimodal configs whose text_config without a model_type is built as
 * this type (LlavaConfig / LlavaNextConfig: text_config.get("model_type",
 * "llama"); Gemma3Config: Gemma3TextConfig). */
static const char *const nested_default_type[][2] = {
    {"llava", "llama"}, {"llava_next", "llama"}, {"gemma3", "gemma3_text"}};

/* Whether the class default stands for key: only when the key is absent.
 * A key set to null is passed to the class as None, which is not its
 * default (Mistral's sliding_window: null is no window, not 4096). */
static bool takes_default(const reader *r, const char *key)
{
    return r->defaults && !cJSON_GetObjectItemCaseSensitive(r->text.obj, key);
}

/* A field's value from the text model's object, else the class default
 * (recorded in r->defaulted); *found false when neither. */
static sr_error *get_long_default(reader *r, const char *name, unsigned field, long lo, long hi, long *out, bool *found)
{
    sr_error *err = sr_json_get_long(&r->text, name, lo, hi, out, found);
    if (err || *found)
        return err;
    long d = takes_default(r, name) ? sr_hf_class_default(r->defaults, field) : -1;
    if (d >= lo && d <= hi && d > 0) {
        *out = d;
        *found = true;
        r->defaulted |= field;
    }
    return NULL;
}

/* A field neither in the config nor defaulted: say which, and why no default. */
static sr_error *missing_field(reader *r, const char *name, const char *needed_for)
{
    r->incomplete = true;
    if (r->defaults_type)
        return sr_json_field_error(&r->text, name, "is missing%s, and model type '%s' has no known default", needed_for,
                                   r->defaults_type);
    return sr_json_field_error(&r->text, name, "is missing%s, and the config names no model type to default it from",
                               needed_for);
}

static sr_error *need_long(const sr_json_obj *o, const char *name, long lo, long hi, long *out)
{
    bool found;
    sr_error *err = sr_json_get_long(o, name, lo, hi, out, &found);
    if (!err && !found)
        err = sr_json_field_error(o, name, "is missing");
    return err;
}

/* A short string field copied into *out (NULL when absent). */
static sr_error *get_string(const sr_json_obj *o, const char *name, char **out)
{
    *out = NULL;
    return sr_json_get_string(o, name, 200, out, NULL);
}

/* A per-model integer that may also be a per-layer array (newer
 * transformers); fills vals[0..n-1]. */
static sr_error *get_per_layer(const reader *r, const char *name, long lo, long hi, long n, long *vals, bool *found)
{
    *found = false;
    const sr_json_obj *t = &r->text;
    const cJSON *it = sr_json_item(t->obj, name);
    if (!it)
        return NULL;
    if (cJSON_IsArray(it)) {
        if ((long)cJSON_GetArraySize(it) < n)
            return sr_json_field_error(t, name, "has %d entries for %ld layers", cJSON_GetArraySize(it), n);
        long i = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, it)
        {
            if (i >= n)
                break;
            double d;
            if (sr_json_check_number(e, (double)lo, (double)hi, true, &d) != SR_JSON_OK)
                return sr_json_key_error(t, name, "field '%s%s[%ld]' must be an integer from %ld to %ld", t->prefix,
                                         name, i, lo, hi);
            vals[i++] = (long)d;
        }
        *found = true;
        return NULL;
    }
    long v;
    sr_error *err = sr_json_get_long(t, name, lo, hi, &v, found);
    if (err || !*found)
        return err;
    for (long i = 0; i < n; i++)
        vals[i] = v;
    return NULL;
}

/* Bytes per element of a torch dtype name; 0 if unknown. float32 models run
 * in 16 bits under vLLM's dtype "auto", so their KV cache is 2 bytes. */
static int dtype_bytes(const char *s, bool *downcast)
{
    static const char *const two[] = {"bfloat16", "float16", "half", "bf16", "fp16", "torch.bfloat16", "torch.float16"};
    static const char *const four[] = {"float32", "float", "fp32", "torch.float32"};
    *downcast = false;
    for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
        if (strcmp(s, two[i]) == 0)
            return 2;
    for (size_t i = 0; i < sizeof four / sizeof four[0]; i++)
        if (strcmp(s, four[i]) == 0) {
            *downcast = true;
            return 2;
        }
    return 0;
}

static sr_error *read_dtype(reader *r, sr_kv_layout *out)
{
    static const char *const names[] = {"torch_dtype", "dtype"};
    const sr_json_obj *objs[2] = {&r->text, &r->root};
    for (int o = 0; o < 2; o++) {
        if (o == 1 && objs[1]->obj == objs[0]->obj)
            break;
        for (int k = 0; k < 2; k++) {
            if (!sr_json_item(objs[o]->obj, names[k]))
                continue;
            sr_error *err = get_string(objs[o], names[k], &out->dtype);
            if (err)
                return err;
            bool downcast;
            out->dtype_bytes = dtype_bytes(out->dtype, &downcast);
            if (out->dtype_bytes == 0)
                return sr_json_field_error(objs[o], names[k],
                                           "names an unknown dtype (expected bfloat16, float16 or float32)");
            if (downcast)
                r->notes |= SR_HF_DTYPE_DOWNCAST;
            return NULL;
        }
    }
    out->dtype_bytes = 2;
    r->notes |= SR_HF_DTYPE_ASSUMED;
    return NULL;
}

static bool in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

/* Layer kinds from "layer_types" (Gemma 3n/4, gpt-oss, newer HF configs). */
static sr_error *kinds_from_layer_types(reader *r, const cJSON *types, long n, sr_kv_layer_kind *kinds)
{
    static const char *const full[] = {"full_attention", "attention", "global_attention", "full", "global"};
    static const char *const sliding[] = {"sliding_attention", "sliding_window_attention", "local_attention", "sliding",
                                          "local"};
    static const char *const none[] = {"linear_attention", "mamba", "mamba2", "conv", "short_conv", "recurrent", "ssm"};
    if (!cJSON_IsArray(types))
        return sr_json_field_error(&r->text, "layer_types", "must be an array of strings");
    if ((long)cJSON_GetArraySize(types) < n)
        return sr_json_field_error(&r->text, "layer_types", "has %d entries for %ld layers", cJSON_GetArraySize(types),
                                   n);
    long i = 0, n_none = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, types)
    {
        if (i >= n)
            break;
        if (!cJSON_IsString(e) || !e->valuestring)
            return sr_json_key_error(&r->text, "layer_types", "field '%slayer_types[%ld]' must be a string",
                                     r->text.prefix, i);
        const char *s = e->valuestring;
        if (in_list(s, full, sizeof full / sizeof full[0]))
            kinds[i] = SR_KV_LAYER_FULL;
        else if (in_list(s, sliding, sizeof sliding / sizeof sliding[0]))
            kinds[i] = SR_KV_LAYER_SLIDING;
        else if (in_list(s, none, sizeof none / sizeof none[0])) {
            kinds[i] = SR_KV_LAYER_NONE;
            n_none++;
        } else {
            size_t len = strlen(s), shown = len > 40 ? 40 : len;
            bool text = sr_utf8_valid(s, len);
            while (text && shown > 0 && shown < len && ((unsigned char)s[shown] & 0xC0) == 0x80)
                shown--; /* cut on a character boundary: messages stay UTF-8 */
            return sr_json_key_error(&r->text, "layer_types", "field '%slayer_types[%ld]' has unsupported value '%.*s'",
                                     r->text.prefix, i, (int)shown, text ? s : "?");
        }
        i++;
    }
    if (n_none > 0)
        r->notes |= SR_HF_STATE_NOT_COUNTED;
    return NULL;
}

/* Layer kinds without "layer_types" (docs/kv.md 2):
 * LFM2 full_attn_idxs; no window -> all full; use_sliding_window false ->
 * all full (Qwen2, R1-Distill, SmolLM3); sliding_window_pattern p (Gemma 3,
 * Cohere2): sliding unless (i+1) % p == 0; Gemma 2: even layers sliding;
 * use_sliding_window true (Qwen2): layers >= max_window_layers slide;
 * otherwise vLLM applies the model-wide window to every layer (Mistral). */
static sr_error *kinds_from_rules(reader *r, long n, long window, sr_kv_layer_kind *kinds)
{
    const cJSON *idxs = sr_json_item(r->text.obj, "full_attn_idxs");
    if (idxs) {
        if (!cJSON_IsArray(idxs))
            return sr_json_field_error(&r->text, "full_attn_idxs", "must be an array");
        for (long i = 0; i < n; i++)
            kinds[i] = SR_KV_LAYER_NONE;
        long k = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, idxs)
        {
            double index;
            if (sr_json_check_number(e, 0, (double)(n - 1), true, &index) != SR_JSON_OK)
                return sr_json_key_error(&r->text, "full_attn_idxs",
                                         "field '%sfull_attn_idxs[%ld]' must be a layer index below %ld",
                                         r->text.prefix, k, n);
            kinds[(long)index] = SR_KV_LAYER_FULL;
            k++;
        }
        r->notes |= SR_HF_SHORT_CONV;
        return NULL;
    }
    for (long i = 0; i < n; i++)
        kinds[i] = SR_KV_LAYER_FULL;
    if (window <= 0)
        return NULL;
    bool use_sw = true, has_use_sw;
    sr_error *err = sr_json_get_bool(&r->text, "use_sliding_window", &use_sw, &has_use_sw);
    if (err)
        return err;
    if (has_use_sw && !use_sw) {
        r->notes |= SR_HF_WINDOW_UNUSED;
        return NULL;
    }
    long pattern, mwl = 0;
    bool found;
    if ((err = get_long_default(r, "sliding_window_pattern", SR_HF_DEF_WINDOW_PATTERN, 1, KV_MAX_LAYERS, &pattern,
                                &found)))
        return err;
    if (found) {
        for (long i = 0; i < n; i++)
            kinds[i] = (i + 1) % pattern != 0 ? SR_KV_LAYER_SLIDING : SR_KV_LAYER_FULL;
        return NULL;
    }
    const char *mt = NULL;
    const cJSON *mti = sr_json_item(r->text.obj, "model_type");
    if (mti && cJSON_IsString(mti))
        mt = mti->valuestring;
    if (mt && strcmp(mt, "gemma2") == 0) {
        for (long i = 0; i < n; i++)
            kinds[i] = i % 2 == 0 ? SR_KV_LAYER_SLIDING : SR_KV_LAYER_FULL;
        return NULL;
    }
    if (has_use_sw) {
        if ((err = sr_json_get_long(&r->text, "max_window_layers", 0, KV_MAX_LAYERS, &mwl, &found)))
            return err;
        for (long i = 0; i < n; i++)
            kinds[i] = i >= mwl ? SR_KV_LAYER_SLIDING : SR_KV_LAYER_FULL;
        return NULL;
    }
    for (long i = 0; i < n; i++)
        kinds[i] = SR_KV_LAYER_SLIDING;
    r->notes |= SR_HF_WINDOW_EVERYWHERE;
    return NULL;
}

/* The longest max-model-len vLLM starts with (vllm/config/model.py,
 * _get_and_verify_max_len): max_position_embeddings, times rope_scaling's
 * factor unless its type already counts it (su, longrope, llama3) or the
 * model is a Gemma 3 (whose 128K is already scaled); YaRN scales
 * original_max_position_embeddings. A rope_scaling this reader cannot use
 * (not an object, no numeric factor) leaves the positions as they are:
 * it is no input error, only a figure vLLM would not use either. */
static long derived_max_model_len(const reader *r, const sr_kv_layout *out)
{
    long positions = out->max_position_embeddings;
    const cJSON *rope = sr_json_item(r->text.obj, "rope_scaling");
    if (positions <= 0 || !cJSON_IsObject(rope) || (out->model_type && strstr(out->model_type, "gemma3")))
        return positions;
    const char *type = string_member(rope, "rope_type");
    if (!type)
        type = string_member(rope, "type");
    static const char *const counted[] = {"su", "longrope", "llama3", "default"};
    for (size_t i = 0; type && i < sizeof counted / sizeof counted[0]; i++)
        if (strcmp(type, counted[i]) == 0)
            return positions;
    const cJSON *factor = sr_json_item(rope, "factor");
    if (!cJSON_IsNumber(factor) || !(factor->valuedouble >= 1 && factor->valuedouble <= 1024))
        return positions;
    double base = (double)positions;
    const cJSON *original = sr_json_item(rope, "original_max_position_embeddings");
    if (type && strcmp(type, "yarn") == 0 && cJSON_IsNumber(original) && original->valuedouble >= 1 &&
        original->valuedouble <= (double)(1L << 40))
        base = original->valuedouble;
    double derived = base * factor->valuedouble;
    return derived < (double)(1L << 50) ? (long)derived : positions;
}

/* model_type, architectures[0], the dtype and max_position_embeddings. */
static sr_error *read_identity(reader *r, sr_kv_layout *out)
{
    sr_error *err;
    bool found;
    if ((err = get_string(&r->text, "model_type", &out->model_type)))
        return err;
    if (!out->model_type && r->text.obj != r->root.obj && (err = get_string(&r->root, "model_type", &out->model_type)))
        return err;
    const cJSON *archs = sr_json_item(r->root.obj, "architectures");
    if (archs) {
        const cJSON *a0 = cJSON_IsArray(archs) ? cJSON_GetArrayItem(archs, 0) : NULL;
        if (!cJSON_IsArray(archs) || (a0 && !cJSON_IsString(a0)))
            return sr_json_field_error(&r->root, "architectures", "must be an array of strings");
        const char *name;
        if (a0) {
            if (sr_json_check_string(a0, 200, &name) != SR_JSON_OK)
                return sr_json_key_error(&r->root, "architectures",
                                         "field 'architectures[0]' is not a short UTF-8 string");
            out->architecture = sr_xstrdup(name);
        }
    }
    if ((err = read_dtype(r, out)))
        return err;
    if ((err = get_long_default(r, "max_position_embeddings", SR_HF_DEF_MAX_POSITIONS, 1, 1L << 40,
                                &out->max_position_embeddings, &found)))
        return err;
    if (!found)
        out->max_position_embeddings = -1;
    out->derived_max_model_len = derived_max_model_len(r, out);
    return NULL;
}

/* MLA (docs/kv.md 3.1: MLAAttentionSpec, one latent of kv_lora_rank +
 * qk_rope_head_dim per token and layer): every layer MLA when the config
 * has kv_lora_rank. */
static sr_error *read_mla(reader *r, sr_kv_layout *out)
{
    long lora, rope;
    bool found;
    sr_error *err = sr_json_get_long(&r->text, "kv_lora_rank", 1, KV_MAX_DIM, &lora, &found);
    if (err || !found)
        return err;
    if ((err = need_long(&r->text, "qk_rope_head_dim", 0, KV_MAX_DIM, &rope)))
        return err;
    out->mla = true;
    out->kv_lora_rank = lora;
    out->qk_rope_head_dim = rope;
    for (long i = 0; i < out->n_layers; i++)
        out->layers[i] = (sr_kv_layer){SR_KV_LAYER_MLA, 1, lora + rope, 0, -1, -1};
    return NULL;
}

/* KV heads and head size per layer (docs/kv.md 2): num_key_value_heads
 * (else multi_query, else num_attention_heads), head_dim (else hidden_size
 * / num_attention_heads). */
static sr_error *read_heads(reader *r, long n, long *kv, long *hd)
{
    long heads = 0, hidden = 0;
    bool has_heads, has_hidden, has_kv, has_hd;
    sr_error *err;
    if ((err = get_long_default(r, "num_attention_heads", SR_HF_DEF_HEADS, 1, KV_MAX_DIM, &heads, &has_heads)) ||
        (err = get_long_default(r, "hidden_size", SR_HF_DEF_HIDDEN, 1, 1L << 30, &hidden, &has_hidden)) ||
        (err = get_per_layer(r, "num_key_value_heads", 1, KV_MAX_DIM, n, kv, &has_kv)))
        return err;
    long kv_default = takes_default(r, "num_key_value_heads") ? r->defaults->kv_heads : -1;
    if (!has_kv && kv_default > 0) {
        for (long i = 0; i < n; i++)
            kv[i] = kv_default;
        r->defaulted |= SR_HF_DEF_KV_HEADS;
        has_kv = true;
    }
    if (!has_kv) {
        bool mq = false, has_mq;
        if ((err = sr_json_get_bool(&r->text, "multi_query", &mq, &has_mq)))
            return err;
        if (!mq && !has_heads)
            return missing_field(r, "num_key_value_heads", " (and so is num_attention_heads)");
        for (long i = 0; i < n; i++)
            kv[i] = mq ? 1 : heads;
        if (!mq)
            r->notes |= SR_HF_NO_GQA;
    }
    /* As vLLM's Attention asserts (num_heads % num_kv_heads == 0): each
     * KV head serves a whole group of query heads, so there are no more KV
     * heads than query heads and their number divides it. */
    for (long i = 0; i < n && has_heads && has_kv; i++) {
        if (kv[i] > heads)
            return sr_json_field_error(&r->text, "num_key_value_heads",
                                       "%ld is more than num_attention_heads %ld (a KV head serves a group of query "
                                       "heads; vLLM refuses this)",
                                       kv[i], heads);
        if (heads % kv[i] != 0)
            return sr_json_field_error(&r->text, "num_key_value_heads",
                                       "%ld does not divide num_attention_heads %ld (query heads are shared out "
                                       "in whole groups; vLLM refuses this)",
                                       kv[i], heads);
    }
    if ((err = get_per_layer(r, "head_dim", 1, KV_MAX_DIM, n, hd, &has_hd)) || has_hd)
        return err;
    long hd_default = takes_default(r, "head_dim") ? r->defaults->head_dim : -1;
    if (hd_default > 0) {
        for (long i = 0; i < n; i++)
            hd[i] = hd_default;
        r->defaulted |= SR_HF_DEF_HEAD_DIM;
        return NULL;
    }
    if (!has_heads)
        return missing_field(r, "num_attention_heads", " (needed for hidden_size / heads)");
    if (!has_hidden)
        return missing_field(r, "hidden_size", " (needed for the head size)");
    if (hidden % heads != 0)
        return sr_json_field_error(&r->text, "hidden_size", "%ld is not a multiple of num_attention_heads %ld", hidden,
                                   heads);
    for (long i = 0; i < n; i++)
        hd[i] = hidden / heads;
    return NULL;
}

/* Full-attention layers of Gemma 4: global_head_dim, and
 * num_global_key_value_heads when attention_k_eq_v (docs/kv.md 2). */
typedef struct full_overrides {
    long head_size, kv_heads; /* -1: as the other layers */
} full_overrides;

static sr_error *read_full_overrides(reader *r, full_overrides *o)
{
    bool found, k_eq_v = false;
    long global_kv = -1;
    sr_error *err;
    o->head_size = o->kv_heads = -1;
    if ((err = sr_json_get_long(&r->text, "global_head_dim", 1, KV_MAX_DIM, &o->head_size, &found)))
        return err;
    if (!found)
        o->head_size = -1;
    if ((err = sr_json_get_bool(&r->text, "attention_k_eq_v", &k_eq_v, &found)) ||
        (err = sr_json_get_long(&r->text, "num_global_key_value_heads", 1, KV_MAX_DIM, &global_kv, &found)))
        return err;
    if (found && k_eq_v)
        o->kv_heads = global_kv;
    return NULL;
}

/* Every layer's kind, from layer_types or the window rules; *window is the
 * model-wide sliding_window (-1 when absent). */
static sr_error *read_kinds(reader *r, long n, sr_kv_layer_kind *kinds, long *window)
{
    bool found;
    sr_error *err = get_long_default(r, "sliding_window", SR_HF_DEF_WINDOW, 0, 1L << 40, window, &found);
    if (err)
        return err;
    if (!found)
        *window = -1;
    const cJSON *types = sr_json_item(r->text.obj, "layer_types");
    return types ? kinds_from_layer_types(r, types, n, kinds) : kinds_from_rules(r, n, *window, kinds);
}

static sr_error *fill_layers(reader *r, const sr_kv_layer_kind *kinds, const long *kv, const long *hd, long window,
                             const full_overrides *full_o, sr_kv_layout *out)
{
    for (long i = 0; i < out->n_layers; i++) {
        sr_kv_layer *l = &out->layers[i];
        l->kind = kinds[i];
        l->shared_with = -1;
        l->sliding_window = -1;
        if (kinds[i] == SR_KV_LAYER_NONE)
            continue;
        if (kinds[i] == SR_KV_LAYER_SLIDING) {
            if (window <= 0)
                return sr_json_field_error(&r->text, "sliding_window", "is missing but layer %ld is a sliding layer",
                                           i);
            l->sliding_window = window;
        }
        bool full = kinds[i] == SR_KV_LAYER_FULL;
        l->head_size = (full && full_o->head_size > 0) ? full_o->head_size : hd[i];
        l->head_size_v = l->head_size;
        l->kv_heads = (full && full_o->kv_heads > 0) ? full_o->kv_heads : kv[i];
    }
    return NULL;
}

/* KV sharing: layers from num_hidden_layers - num_kv_shared_layers on read
 * the last earlier layer of the same type (docs/kv.md 2). */
static sr_error *mark_shared(reader *r, const sr_kv_layer_kind *kinds, sr_kv_layout *out)
{
    long shared, n = out->n_layers;
    bool found;
    sr_error *err = sr_json_get_long(&r->text, "num_kv_shared_layers", 0, KV_MAX_LAYERS, &shared, &found);
    if (err || !found || shared == 0)
        return err;
    if (shared >= n)
        return sr_json_field_error(&r->text, "num_kv_shared_layers",
                                   "%ld leaves no layer with its own KV "
                                   "(num_hidden_layers %ld)",
                                   shared, n);
    long first = n - shared;
    for (long i = first; i < n; i++) {
        if (kinds[i] == SR_KV_LAYER_NONE)
            continue;
        long target = first - 1;
        while (target >= 0 && kinds[target] != kinds[i])
            target--;
        if (target < 0)
            return sr_json_key_error(&r->text, "num_kv_shared_layers",
                                     "field '%snum_kv_shared_layers': layer %ld (%s) has no earlier layer of its type "
                                     "to share",
                                     r->text.prefix, i, sr_kv_layer_kind_name(kinds[i]));
        out->layers[i].kind = SR_KV_LAYER_SHARED;
        out->layers[i].shared_with = target;
    }
    return NULL;
}

/* Attention layers (not MLA): heads, kinds, per-layer fill, sharing. */
static sr_error *read_attention_layers(reader *r, sr_kv_layout *out)
{
    long n = out->n_layers;
    long *kv = sr_xcalloc((size_t)n, sizeof *kv), *hd = sr_xcalloc((size_t)n, sizeof *hd);
    sr_kv_layer_kind *kinds = sr_xcalloc((size_t)n, sizeof *kinds);
    full_overrides full_o;
    sr_error *err = read_heads(r, n, kv, hd);
    if (!err)
        err = read_full_overrides(r, &full_o);
    if (!err)
        err = read_kinds(r, n, kinds, &out->window);
    if (!err)
        err = fill_layers(r, kinds, kv, hd, out->window, &full_o, out);
    if (!err)
        err = mark_shared(r, kinds, out);
    free(kv);
    free(hd);
    free(kinds);
    return err;
}

static sr_error *read_layout(reader *r, sr_kv_layout *out)
{
    long n;
    bool found;
    sr_error *err = get_long_default(r, "num_hidden_layers", SR_HF_DEF_LAYERS, 1, KV_MAX_LAYERS, &n, &found);
    if (!err && !found)
        err = missing_field(r, "num_hidden_layers", "");
    if (err)
        return err;
    out->n_layers = n;
    out->layers = sr_xcalloc((size_t)n, sizeof *out->layers);
    if ((err = read_identity(r, out)) || (err = read_mla(r, out)))
        return err;
    return out->mla ? NULL : read_attention_layers(r, out);
}

static const char *string_member(const cJSON *obj, const char *name)
{
    const cJSON *it = sr_json_item(obj, name);
    return cJSON_IsString(it) && it->valuestring && strlen(it->valuestring) <= 100 ? it->valuestring : NULL;
}

/* The text model's type for defaults: its own model_type, else the type a
 * multimodal parent builds its text_config as. */
static void pick_defaults(reader *r)
{
    r->defaults_type = string_member(r->text.obj, "model_type");
    if (!r->defaults_type && r->text.obj != r->root.obj) {
        const char *parent = string_member(r->root.obj, "model_type");
        for (size_t i = 0; parent && i < sizeof nested_default_type / sizeof nested_default_type[0]; i++)
            if (strcmp(parent, nested_default_type[i][0]) == 0)
                r->defaults_type = nested_default_type[i][1];
    }
    r->defaults = sr_hf_class_defaults_for(r->defaults_type);
}

/* The JSON object of the file, or an input error naming the line. */

sr_error *sr_kv_layout_parse(const char *path, const char *data, size_t len, sr_kv_layout *out)
{
    memset(out, 0, sizeof *out);
    out->kv_lora_rank = out->qk_rope_head_dim = out->max_position_embeddings = out->window = -1;
    out->derived_max_model_len = -1;
    cJSON *root = NULL;
    sr_error *err = sr_json_parse_object_file(path, data, len, &root);
    if (err)
        return err;
    reader r = {.root = sr_json_file_obj(path, data, len, root)};
    r.text = r.root;
    if (sr_json_item(root, "text_config")) {
        if (!cJSON_IsObject(sr_json_item(root, "text_config")))
            err = sr_json_field_error(&r.root, "text_config", "must be an object");
        r.text = sr_json_member_obj(&r.root, "text_config", "text_config.");
    }
    if (!err)
        pick_defaults(&r);
    if (!err)
        err = read_layout(&r, out);
    cJSON_Delete(root);
    if (!err)
        out->source = sr_xstrdup(path);
    out->notes = r.notes;
    out->defaulted = r.defaulted;
    out->defaults_type = r.defaulted ? r.defaults->model_type : NULL;
    if (err) {
        sr_kv_layout_release(out);
        out->incomplete = r.incomplete;
    }
    return err;
}

sr_error *sr_kv_layout_load(const char *path, const char *display, sr_kv_layout *out)
{
    char *data;
    size_t len;
    const char *shown = display ? display : path;
    memset(out, 0, sizeof *out);
    sr_error *err = sr_read_file(path, shown, &data, &len);
    if (err)
        return err;
    err = sr_kv_layout_parse(shown, data, len, out);
    free(data);
    return err;
}
