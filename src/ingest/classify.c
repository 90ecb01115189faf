/* What a .json / .jsonl file holds, by its content: the export walker
 * asks before choosing a parser, so a renamed file (an lm-eval results
 * file saved as "gsm8k-phi-3-mini_<date>.json") is still read as what it
 * is, and a file that does not parse is reported, never skipped.
 *
 * Every value of the file is parsed (cJSON), so the error names the line
 * where the text breaks; the kind is decided by the first value's keys,
 * by the content rules of the table of input kinds (input_kinds.def). */
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "ingest/ingest.h"
#include "ingest/input_kinds.h"
#include "ingest/json.h"
#include "util/text.h"

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

sr_json_kind sr_json_kind_by_top_keys(const cJSON *obj)
{
    return sr_input_kind_of_object(obj, true);
}

/* One object's kind: the table's content rules in row order (the most
 * specific key sets first, the loosest last). */
static sr_json_kind object_kind(const cJSON *obj)
{
    return sr_input_kind_of_object(obj, false);
}

/* A top-level value's kind: an object, or an array of bench results
 * (summary.json), of lm-eval samples (old lm-eval wrote samples as a JSON
 * array) or of LLMPerf's individual responses. */
static sr_json_kind value_kind(const cJSON *v)
{
    if (!cJSON_IsArray(v))
        return object_kind(v);
    sr_json_kind first = object_kind(cJSON_GetArrayItem(v, 0));
    if (first == SR_JSON_BENCH || first == SR_JSON_BENCH_WARMUP)
        return SR_JSON_BENCH_SUMMARY;
    if (first == SR_JSON_LLMPERF_INDIVIDUAL) /* LLMPerf writes its requests as one array */
        return SR_JSON_LLMPERF_INDIVIDUAL;
    return first == SR_JSON_LMEVAL_SAMPLES ? SR_JSON_LMEVAL_SAMPLES : SR_JSON_UNKNOWN;
}

/* 1-based line of data[pos], counting from data[from] on line `line`. */
static long line_of(const char *data, size_t from, size_t pos, long line)
{
    for (const char *p = data + from, *end = data + pos; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        line++;
    return line;
}

/* Whether [s, s+n) ends inside a string or an open bracket: the file was
 * cut short (a lexical scan for the message only; cJSON decides what
 * parses). */
static bool ends_open(const char *s, size_t n)
{
    long depth = 0;
    bool in_string = false, escape = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_string) {
            if (escape)
                escape = false;
            else if (c == '\\')
                escape = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if ((c == '}' || c == ']') && depth > 0) {
            depth--;
        }
    }
    return in_string || depth > 0;
}

/* The value starting at data[pos] does not parse; cJSON stopped at
 * data[at]. line is the line of data[from]. */
static sr_error *parse_error(const char *path, const char *data, size_t len, size_t pos, size_t at, size_t from,
                             long line)
{
    const char *rest = data + at;
    size_t left = len - at;
    if (ends_open(data + pos, len - pos)) {
        size_t last = len; /* its last line with text */
        while (last > pos && is_space(data[last - 1]))
            last--;
        return sr_input_error(path, line_of(data, from, last ? last - 1 : 0, line),
                              "invalid json: the file ends inside a value (cut short?)");
    }
    line = line_of(data, from, at, line);
    if ((left >= 3 && memcmp(rest, "NaN", 3) == 0) || (left >= 8 && memcmp(rest, "Infinity", 8) == 0) ||
        (left >= 9 && memcmp(rest, "-Infinity", 9) == 0))
        return sr_input_error(path, line, "non-finite number (NaN or Infinity)");
    return sr_input_error(path, line, "invalid json");
}

sr_error *sr_classify_json(const char *path, const char *data, size_t len, sr_json_kind *kind)
{
    *kind = SR_JSON_UNKNOWN;
    sr_error *err = sr_json_check_text(path, 1, data, len);
    if (err)
        return err;
    sr_json_kind first = SR_JSON_UNKNOWN;
    size_t pos = 0, scanned = 0, values = 0;
    long line = 1; /* of data[scanned] */
    for (;;) {
        while (pos < len && is_space(data[pos]))
            pos++;
        if (pos >= len)
            break;
        const char *end = NULL;
        cJSON *v = cJSON_ParseWithLengthOpts(data + pos, len - pos, &end, 0);
        if (!v) {
            size_t at = end && end >= data + pos && end <= data + len ? (size_t)(end - data) : pos;
            return parse_error(path, data, len, pos, at, scanned, line);
        }
        if (values++ == 0)
            first = value_kind(v);
        cJSON_Delete(v);
        size_t next = (size_t)(end - data);
        line = line_of(data, scanned, next, line);
        scanned = next;
        pos = next;
    }
    if (values == 0)
        return sr_input_error(path, 0, "empty file, expected json");
    *kind = first;
    return NULL;
}

const char *sr_json_kind_name(sr_json_kind kind)
{
    return sr_input_kind_of_json(kind)->name;
}
