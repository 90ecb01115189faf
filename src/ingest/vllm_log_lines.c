/* Server-log lines: every known prefix form stripped (colours, docker-compose names, process tags, level, timestamp,
 * file:line). */
#include "ingest/vllm_log_parts.h"

/* ---- prefixes ------------------------------------------------------------ */

/* Copy the line without ANSI escape sequences (CSI "ESC [ ... final" and
 * two-byte "ESC x") into buf. */
void sr_vllm_log_strip_ansi(const char *s, size_t n, sr_strbuf *buf)
{
    buf->len = 0;
    size_t i = 0;
    while (i < n) {
        if (s[i] != '\x1b') {
            size_t j = i;
            while (j < n && s[j] != '\x1b')
                j++;
            sr_strbuf_append(buf, s + i, j - i);
            i = j;
            continue;
        }
        i++;
        if (i < n && s[i] == '[') {
            i++;
            while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x3f)
                i++;
            if (i < n && (unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7e)
                i++;
        } else if (i < n) {
            i++;
        }
    }
    sr_strbuf_append(buf, "", 0);
}

const char *sr_vllm_log_skip_spaces(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

bool sr_vllm_log_starts_with(const char *p, const char *end, const char *word)
{
    if (p >= end || *p != *word) /* most lines, before measuring the word */
        return false;
    size_t n = strlen(word);
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

/* "name  | " as docker-compose writes it. */
static const char *skip_compose(const char *p, const char *end)
{
    const char *q = p;
    while (q < end && (isalnum((unsigned char)*q) || *q == '_' || *q == '.' || *q == '-'))
        q++;
    if (q == p || q >= end || *q != ' ')
        return p;
    const char *r = sr_vllm_log_skip_spaces(q, end);
    if (r < end && *r == '|' && (r + 1 == end || r[1] == ' '))
        return sr_vllm_log_skip_spaces(r + 1, end);
    return p;
}

/* "(Name pid=N) " process tags; may repeat (Ray nests them). */
static const char *skip_tags(const char *p, const char *end, bool *server_tag)
{
    for (int k = 0; k < 3 && p < end && *p == '('; k++) {
        size_t room = (size_t)(end - p);
        const char *close = memchr(p, ')', room < 160 ? room : 160);
        if (!close || !sr_memmem(p, (size_t)(close - p), "pid="))
            break;
        static const char *const servers[] = {"(EngineCore", "(APIServer", "(Worker", "(VllmWorker", "(RayWorker"};
        for (size_t i = 0; i < sizeof servers / sizeof *servers; i++)
            if (sr_vllm_log_starts_with(p, close, servers[i]))
                *server_tag = true;
        p = sr_vllm_log_skip_spaces(close + 1, end);
    }
    return p;
}

static const char *skip_level(const char *p, const char *end, log_level *level)
{
    static const struct {
        const char *word;
        log_level level;
    } levels[] = {{"DEBUG", LVL_DEBUG},  {"INFO", LVL_INFO},   {"WARNING", LVL_WARNING},
                  {"WARN", LVL_WARNING}, {"ERROR", LVL_ERROR}, {"CRITICAL", LVL_CRITICAL}};
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
        size_t n = strlen(levels[i].word);
        if (sr_vllm_log_starts_with(p, end, levels[i].word) && p + n < end && (p[n] == ' ' || p[n] == ':')) {
            *level = levels[i].level;
            p += n;
            if (*p == ':')
                p++;
            return sr_vllm_log_skip_spaces(p, end);
        }
    }
    return p;
}

/* Timestamps "05-28 09:14:55", "2025-05-28 09:14:55,123": up to two tokens
 * of digits and -:., starting with a digit. */
static const char *skip_time(const char *p, const char *end)
{
    for (int k = 0; k < 2 && p < end && isdigit((unsigned char)*p); k++) {
        const char *q = p;
        while (q < end && (isdigit((unsigned char)*q) || *q == '-' || *q == ':' || *q == '.' || *q == ','))
            q++;
        if (q < end && *q != ' ')
            return p;
        p = sr_vllm_log_skip_spaces(q, end);
    }
    return p;
}

/* True if [p, close) ends with ".py:<digits>". */
static bool is_file_ref(const char *p, const char *close)
{
    const char *q = close;
    while (q > p && isdigit((unsigned char)q[-1]))
        q--;
    return q < close && q - p >= 4 && memcmp(q - 4, ".py:", 4) == 0;
}

static const char *skip_file(const char *p, const char *end, bool *file_prefix)
{
    if (p < end && *p == '[') {
        size_t room = (size_t)(end - p);
        const char *close = memchr(p, ']', room < 256 ? room : 256);
        if (close && is_file_ref(p + 1, close)) {
            *file_prefix = true;
            return sr_vllm_log_skip_spaces(close + 1, end);
        }
        return p;
    }
    const char *q = p;
    while (q < end && *q != ' ' && *q != ']')
        q++;
    if (q < end && *q == ']' && is_file_ref(p, q)) {
        *file_prefix = true;
        return sr_vllm_log_skip_spaces(q + 1, end);
    }
    return p;
}

/* Strip every prefix form and return the message and level. */
log_line sr_vllm_log_strip_prefix(const char *s, size_t n)
{
    log_line ll = {LVL_NONE, NULL, 0, false, false};
    const char *p = s, *end = s + n;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) /* docker logs keep tqdm's leading '\r' */
        p++;
    p = skip_compose(p, end);
    p = skip_tags(p, end, &ll.server_tag);
    const char *before = p;
    p = skip_level(p, end, &ll.level);
    if (p != before) {
        p = skip_time(p, end);
        p = skip_file(p, end, &ll.file_prefix);
    }
    size_t len = (size_t)(end - p);
    sr_trim(&p, &len);
    ll.msg = p;
    ll.len = len;
    return ll;
}
