/* The serving settings a vLLM server log prints (internal to the server-log
 * parser, vllm_log.c): the engine config line, the non-default args dict,
 * the old api_server's `args: Namespace(...)`, and single lines such as
 * "Chunked prefill is enabled with max_num_batched_tokens=2048.".
 *
 * A value the engine settled on (engine config line, chunked prefill,
 * "Using max model len", attention block size) outranks one the user asked
 * for (non-default args, Namespace); between two of the same rank the
 * first seen is kept, as for the other startup facts. Values that do not
 * read as a setting (None, 'auto', -1, text) leave the field unknown.
 * Speculative decoding is read from its config's repr on the engine line
 * (speculative_config=SpeculativeConfig(method='mtp', model=..., num_spec_tokens=1))
 * or its dict among the args ('speculative_config': {'method': 'mtp', ...}). */
#ifndef SR_INGEST_VLLM_SETTINGS_H
#define SR_INGEST_VLLM_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/sweep.h"

enum { SR_LOG_SETTING_FIELDS = 11 };

typedef struct sr_log_settings {
    sr_serving_settings *out;
    unsigned char rank[SR_LOG_SETTING_FIELDS]; /* 0 unset, 1 requested, 2 resolved */
} sr_log_settings;

void sr_log_settings_init(sr_log_settings *ls, sr_serving_settings *out);

/* The whole engine config line (wrapped pieces joined), from its message:
 * "Initializing a V1 LLM engine (v0.10.1.1) with config: model=..., ...". */
void sr_log_settings_engine(sr_log_settings *ls, const char *text, size_t len);
/* "non-default args: {'max_model_len': 16384, ...}" (dict) or
 * "args: Namespace(tensor_parallel_size=1, ...)"; the requested values. */
void sr_log_settings_args(sr_log_settings *ls, const char *text, size_t len);
/* A message [msg, end) that starts with a one-line setting: "vLLM API
 * server version X", "Chunked prefill is enabled with
 * max_num_batched_tokens=N", "Using max model len N", "Setting attention
 * block size to N tokens", "Using cache_config.block_size: N" (vLLM logs
 * them at the start of the message; matching there keeps the per-line
 * cost of big logs low). */
void sr_log_settings_line(sr_log_settings *ls, const char *msg, const char *end);

/* Bracket depth of Python reprs (dicts, Namespace(...), lists), outside
 * quoted strings: fed piece by piece to tell when a hard-wrapped
 * `non-default args: {...}` line is complete. */
typedef struct sr_brackets {
    long depth;
    char quote;  /* the quote of the string being read, or 0 */
    bool escape; /* the previous byte in a string was a backslash */
    char prev;   /* last byte outside strings that was not a space */
    bool opened; /* a bracket was opened */
} sr_brackets;

void sr_brackets_feed(sr_brackets *b, const char *s, size_t n);
/* A bracket was opened and every bracket is closed again. */
bool sr_brackets_closed(const sr_brackets *b);

#endif
