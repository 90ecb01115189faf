/* Claims from Markdown: every pipe table of the document (GitHub's table
 * syntax: a header row, a delimiter row of ---, then rows until a blank
 * line or a line without '|'; fenced code blocks are skipped). The first
 * column names the model, the other columns are figures by header
 * (sr_claims_header_figure); a header naming none is recorded once as not
 * checked. Stricter than GitHub where a silent fix would hide a mistake:
 * a row with another number of cells than the header, or one that opens
 * with '|' but does not close with one when the header does, is an error. */
#include <stdlib.h>
#include <string.h>

#include "ingest/claims.h"
#include "ingest/claims_parts.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/strbuf.h"
#include "util/text.h"

typedef struct md_line {
    const char *s;
    size_t n;
    long lineno;
} md_line;

typedef struct cell {
    const char *s;
    size_t n;
} cell;

typedef struct cell_list {
    cell *items;
    size_t n, cap;
} cell_list;

/* What a column's cells may hold, from its figure. */
typedef enum {
    CELL_NUMBER,  /* a number; bare numbers in report.json's units */
    CELL_RATIO,   /* a speed ratio, then optionally its run range "(0.55–0.58)" */
    CELL_POINTS,  /* a number; bare numbers in points (interval bounds) */
    CELL_DELTA,   /* points, then optionally [low, high], then optionally a verdict */
    CELL_VERDICT, /* the report's verdict words */
    CELL_WORDS    /* any words (status, failure stage) */
} cell_kind;

typedef struct column {
    char *figure; /* NULL: not checked */
    cell_kind kind;
    bool row_n;   /* headed "n": each row's count of items, given to the row's claims */
} column;

typedef struct md_ctx {
    const char *path;
    const sr_claim_alias *aliases;
    size_t n_aliases;
    sr_claim_list *out;
} md_ctx;

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

static cell_kind kind_of(const char *figure)
{
    if (ends_with(figure, ".delta"))
        return CELL_DELTA;
    if (strncmp(figure, "speed.", 6) == 0 && ends_with(figure, ".ratio"))
        return CELL_RATIO;
    if (ends_with(figure, "ci_low") || ends_with(figure, "ci_high"))
        return CELL_POINTS;
    if (ends_with(figure, ".verdict"))
        return CELL_VERDICT;
    if (strcmp(figure, "status") == 0 || strcmp(figure, "failure.stage") == 0 || ends_with(figure, ".resampling") ||
        ends_with(figure, ".equivalent") || strcmp(figure, "kv_cache.backend") == 0 ||
        strcmp(figure, "kv_cache.token_formula") == 0)
        return CELL_WORDS;
    return CELL_NUMBER;
}

/* ---- lines and rows ---------------------------------------------------------- */

static size_t leading_spaces(const md_line *l)
{
    size_t i = 0;
    while (i < l->n && l->s[i] == ' ')
        i++;
    return i;
}

/* A '|' not escaped by an odd number of backslashes. */
static bool pipe_at(const char *s, size_t i)
{
    if (s[i] != '|')
        return false;
    size_t slashes = 0;
    while (slashes < i && s[i - 1 - slashes] == '\\')
        slashes++;
    return slashes % 2 == 0;
}

static bool has_pipe(const md_line *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (pipe_at(l->s, i))
            return true;
    return false;
}

/* Could start a table: at most three spaces of indent (four make a code
 * block), not a block quote, and a '|'. */
static bool table_line(const md_line *l)
{
    size_t ind = leading_spaces(l);
    return ind <= 3 && ind < l->n && l->s[ind] != '>' && l->s[ind] != '\t' && has_pipe(l);
}

static bool blank_line(const md_line *l)
{
    const char *s = l->s;
    size_t n = l->n;
    sr_claims_trim(&s, &n);
    return n == 0;
}

/* An opening code fence (``` or ~~~, three or more): its character and length. */
static bool fence_open(const md_line *l, char *ch, size_t *len)
{
    size_t i = leading_spaces(l), k = i;
    if (i > 3 || i >= l->n || (l->s[i] != '`' && l->s[i] != '~'))
        return false;
    while (k < l->n && l->s[k] == l->s[i])
        k++;
    if (k - i < 3)
        return false;
    *ch = l->s[i];
    *len = k - i;
    return true;
}

static bool fence_close(const md_line *l, char ch, size_t len)
{
    size_t i = leading_spaces(l), k = i;
    if (i > 3)
        return false;
    while (k < l->n && l->s[k] == ch)
        k++;
    if (k - i < len)
        return false;
    const char *rest = l->s + k;
    size_t n = l->n - k;
    sr_claims_trim(&rest, &n);
    return n == 0;
}

/* Split a row into trimmed cells; a leading and a trailing '|' are
 * borders, not separators. *opened / *closed say whether it had them. */
static sr_error *split_row(const md_line *l, cell_list *cells, bool *opened, bool *closed)
{
    const char *s = l->s;
    size_t n = l->n;
    sr_claims_trim(&s, &n);
    cells->n = 0;
    *opened = n > 0 && s[0] == '|';
    *closed = n > 1 && pipe_at(s, n - 1);
    size_t start = *opened ? 1 : 0, stop = *closed ? n - 1 : n;
    for (size_t i = start;; i++) {
        if (i < stop && !pipe_at(s, i))
            continue;
        void *items = cells->items;
        sr_grow(&items, &cells->cap, cells->n + 1, sizeof *cells->items);
        cells->items = items;
        cell c = {s + start, i - start};
        sr_claims_trim(&c.s, &c.n);
        cells->items[cells->n++] = c;
        if (i >= stop)
            break;
        start = i + 1;
    }
    return NULL;
}

/* Every cell :?-+:? */
static bool delimiter_cells(const cell_list *cells)
{
    for (size_t i = 0; i < cells->n; i++) {
        const char *s = cells->items[i].s;
        size_t n = cells->items[i].n, a = 0, b = n;
        if (a < b && s[a] == ':')
            a++;
        if (b > a && s[b - 1] == ':')
            b--;
        if (a == b)
            return false;
        for (size_t k = a; k < b; k++)
            if (s[k] != '-')
                return false;
    }
    return cells->n > 0;
}

/* ---- cells ---------------------------------------------------------------------- */

static sr_error *not_a_number(const md_ctx *ctx, long line, const char *s, size_t n, const char *header,
                              size_t header_len)
{
    return sr_input_error(ctx->path, line, "'%.*s' is not a number (column '%.*s')", (int)sr_claims_shown(s, n), s,
                          (int)sr_claims_shown(header, header_len), header);
}

/* A number cell; in points columns a bare number is points and a ratio
 * sign is refused. */
static sr_error *number_claim(const md_ctx *ctx, long line, const cell *model, const char *figure, const cell *text,
                              bool points, const cell *header)
{
    sr_claim_number num, ratio;
    cell value = *text;
    /* The report's KV column adds the ratio to the baseline's, "50,688
     * (0.16x)": the figure is the number before it. */
    if (value.n > 3 && value.s[value.n - 1] == ')') {
        const char *open = NULL;
        for (const char *q = value.s + value.n - 1; q > value.s && !open; q--)
            if (*q == '(')
                open = q;
        if (open && open > value.s && open[-1] == ' ' &&
            sr_claims_parse_number(open + 1, (size_t)(value.s + value.n - 1 - (open + 1)), &ratio) &&
            ratio.unit == SR_CLAIM_UNIT_TIMES) {
            value.n = (size_t)(open - value.s);
            sr_claims_trim(&value.s, &value.n);
        }
    }
    if (!sr_claims_parse_number(value.s, value.n, &num) || (points && num.unit == SR_CLAIM_UNIT_TIMES))
        return not_a_number(ctx, line, text->s, text->n, header->s, header->n);
    if (points && num.unit == SR_CLAIM_UNIT_PLAIN)
        num.unit = SR_CLAIM_UNIT_POINTS;
    sr_claims_add(ctx->out, ctx->path, line, model->s, model->n, figure, value.s, value.n, &num, NULL);
    return NULL;
}

static void words_claim(const md_ctx *ctx, long line, const cell *model, const char *figure, const cell *text,
                        const char *words)
{
    char *own = NULL;
    if (!words) {
        own = sr_strndup(text->s, text->n);
        words = own;
    }
    sr_claims_add(ctx->out, ctx->path, line, model->s, model->n, figure, text->s, text->n, NULL, words);
    free(own);
}

/* Another field of the figure's object: "accuracy.gsm8k.delta" ->
 * "accuracy.gsm8k.ci_low". */
static char *sibling(const char *figure, const char *field)
{
    const char *dot = strrchr(figure, '.');
    size_t n = dot ? (size_t)(dot - figure) + 1 : 0;
    return sr_asprintf("%.*s%s", (int)n, figure, field);
}

static void sibling_claim(const md_ctx *ctx, long line, const cell *model, const char *figure, const char *field,
                          const cell *text, const sr_claim_number *num, const char *words)
{
    char *fig = sibling(figure, field);
    sr_claims_add(ctx->out, ctx->path, line, model->s, model->n, fig, text->s, text->n, num, words);
    free(fig);
}

/* "[low, high]" or "(low, high)" at *p, in points: both bounds, or false
 * (nothing read) when it is not one. */
static bool interval_at(const char **p, const char *end, sr_claim_number *lo, cell *lo_text, sr_claim_number *hi,
                        cell *hi_text)
{
    const char *q = *p;
    if (q >= end || (*q != '[' && *q != '('))
        return false;
    char close = *q == '[' ? ']' : ')';
    q = sr_claims_skip_spaces(q + 1, end);
    const char *lo_end = sr_claims_number_at(q, end, lo);
    if (!lo_end)
        return false;
    *lo_text = (cell){q, (size_t)(lo_end - q)};
    q = sr_claims_skip_spaces(lo_end, end);
    if (q >= end || *q != ',')
        return false;
    q = sr_claims_skip_spaces(q + 1, end);
    const char *hi_end = sr_claims_number_at(q, end, hi);
    if (!hi_end)
        return false;
    *hi_text = (cell){q, (size_t)(hi_end - q)};
    q = sr_claims_skip_spaces(hi_end, end);
    if (q >= end || *q != close)
        return false;
    *p = q + 1;
    return true;
}

/* Match text against a template: letters case-insensitively, a space
 * against one or more spaces, '#' against a number with its unit ("1.8
 * points"; its text and value kept). True when the whole text matches. */
static bool template_match(const char *text, size_t len, const char *tmpl, sr_claim_number *num, cell *num_text)
{
    const char *p = text, *end = text + len;
    for (const char *t = tmpl; *t; t++) {
        if (*t == ' ') {
            const char *q = sr_claims_skip_spaces(p, end);
            if (q == p)
                return false;
            p = q;
        } else if (*t == '#') {
            const char *stop = sr_claims_number_at(p, end, num);
            if (!stop)
                return false;
            *num_text = (cell){p, (size_t)(stop - p)};
            sr_claims_trim(&num_text->s, &num_text->n);
            p = stop;
        } else {
            char a = p < end ? *p : 0, b = *t;
            if (a >= 'A' && a <= 'Z')
                a = (char)(a - 'A' + 'a');
            if (p == end || a != b)
                return false;
            p++;
        }
    }
    return p == end;
}

/* What the words after a difference say: the report's own phrases (a
 * verdict, with the detectable effect, the equivalence test, or the count
 * of too few items), or a verdict in parentheses. */
typedef struct verdict_phrase {
    const char *verdict; /* canonical verdict, or NULL */
    const char *extra;   /* another figure's field the phrase claims ("mde", "n_paired", "equivalent"), or NULL */
    sr_claim_number num; /* its number */
    cell num_text;       /* as written */
    const char *words;   /* or its words ("true", "false") */
} verdict_phrase;

static bool verdict_phrase_of(cell rest, verdict_phrase *out)
{
    static const struct {
        const char *tmpl;
        const char *verdict, *extra, *words;
    } phrases[] = {
        {"no measured difference (differences under # could not be detected)", "no measured difference", "mde", NULL},
        {"too few items to compare, n = #", "too few items", "n_paired", NULL},
        {"equivalent within \xC2\xB1#", "no measured difference", "equivalent", "true"},
        {"no measured difference, not shown equivalent within \xC2\xB1#", "no measured difference", "equivalent",
         "false"},
    };
    /* The report's overview writes the verdict as a mark. */
    static const struct {
        const char *mark, *verdict, *words;
    } marks[] = {{"=", "no measured difference", NULL},
                 {"\xE2\x96\xB2", "higher", NULL},
                 {"\xE2\x96\xBC", "lower", NULL},
                 {"\xE2\x89\x88", "no measured difference", "true"},
                 {"?", "too few items", NULL}};
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (rest.n == strlen(marks[i].mark) && memcmp(rest.s, marks[i].mark, rest.n) == 0) {
            out->verdict = marks[i].verdict;
            out->extra = marks[i].words ? "equivalent" : NULL;
            out->words = marks[i].words;
            out->num_text = rest;
            return true;
        }
    for (size_t i = 0; i < sizeof phrases / sizeof phrases[0]; i++)
        if (template_match(rest.s, rest.n, phrases[i].tmpl, &out->num, &out->num_text)) {
            out->verdict = phrases[i].verdict;
            out->extra = phrases[i].extra;
            out->words = phrases[i].words;
            return true;
        }
    if (rest.n >= 2 && rest.s[0] == '(' && rest.s[rest.n - 1] == ')') {
        rest.s++;
        rest.n -= 2;
        sr_claims_trim(&rest.s, &rest.n);
    }
    out->verdict = sr_claims_verdict(rest.s, rest.n);
    return out->verdict != NULL;
}

static void points_unit(sr_claim_number *num)
{
    if (num->unit == SR_CLAIM_UNIT_PLAIN)
        num->unit = SR_CLAIM_UNIT_POINTS;
}

/* A difference cell as the report prints it: "+0.4 [−0.9, +1.7] no measured
 * difference (differences under 1.8 points could not be detected)", or any
 * part of it ("−5.3", "lower", "baseline"): up to five claims (delta,
 * ci_low, ci_high, verdict, and what the phrase adds: mde, n_paired or
 * equivalent). */
static sr_error *delta_claims(const md_ctx *ctx, long line, const cell *model, const char *figure, const cell *text,
                              const cell *header)
{
    const char *p = text->s, *end = text->s + text->n;
    sr_claim_number num, lo, hi;
    cell num_text, lo_text, hi_text;
    const char *stop = sr_claims_number_at(p, end, &num);
    bool have_num = stop != NULL;
    if (have_num) {
        num_text = (cell){p, (size_t)(stop - p)};
        sr_claims_trim(&num_text.s, &num_text.n);
        p = sr_claims_skip_spaces(stop, end);
    }
    bool have_interval = interval_at(&p, end, &lo, &lo_text, &hi, &hi_text);
    p = sr_claims_skip_spaces(p, end);
    cell rest = {p, (size_t)(end - p)};
    verdict_phrase phrase = {0};
    bool have_phrase = rest.n > 0 && verdict_phrase_of(rest, &phrase);
    if ((rest.n && !have_phrase) || (have_num && num.unit == SR_CLAIM_UNIT_TIMES) ||
        (have_interval && (lo.unit == SR_CLAIM_UNIT_TIMES || hi.unit == SR_CLAIM_UNIT_TIMES)))
        return not_a_number(ctx, line, text->s, text->n, header->s, header->n);
    if (have_num) {
        points_unit(&num);
        sr_claims_add(ctx->out, ctx->path, line, model->s, model->n, figure, num_text.s, num_text.n, &num, NULL);
    }
    if (have_interval) {
        points_unit(&lo);
        points_unit(&hi);
        sibling_claim(ctx, line, model, figure, "ci_low", &lo_text, &lo, NULL);
        sibling_claim(ctx, line, model, figure, "ci_high", &hi_text, &hi, NULL);
    }
    if (have_phrase)
        sibling_claim(ctx, line, model, figure, "verdict", &rest, NULL, phrase.verdict);
    if (have_phrase && phrase.extra) {
        if (strcmp(phrase.extra, "mde") == 0)
            points_unit(&phrase.num);
        sibling_claim(ctx, line, model, figure, phrase.extra, &phrase.num_text, phrase.words ? NULL : &phrase.num,
                      phrase.words);
    }
    return NULL;
}

/* "(0.55–0.58)" at *p (en dash, '-' or "to"): the run range the report
 * prints beside a ratio; false (nothing read) when it is not one. */
static bool range_at(const char **p, const char *end, sr_claim_number *lo, cell *lo_text, sr_claim_number *hi,
                     cell *hi_text)
{
    const char *q = *p;
    if (q >= end || *q != '(')
        return false;
    q = sr_claims_skip_spaces(q + 1, end);
    const char *lo_end = sr_claims_number_at(q, end, lo);
    if (!lo_end)
        return false;
    *lo_text = (cell){q, (size_t)(lo_end - q)};
    q = sr_claims_skip_spaces(lo_end, end);
    size_t sep = end - q >= 3 && memcmp(q, "\xE2\x80\x93", 3) == 0 ? 3
                 : q < end && *q == '-'                            ? 1
                 : end - q >= 3 && memcmp(q, "to ", 3) == 0        ? 2
                                                                   : 0;
    if (!sep)
        return false;
    q = sr_claims_skip_spaces(q + sep, end);
    const char *hi_end = sr_claims_number_at(q, end, hi);
    if (!hi_end)
        return false;
    *hi_text = (cell){q, (size_t)(hi_end - q)};
    q = sr_claims_skip_spaces(hi_end, end);
    if (q >= end || *q != ')')
        return false;
    sr_claims_trim(&lo_text->s, &lo_text->n);
    sr_claims_trim(&hi_text->s, &hi_text->n);
    *p = sr_claims_skip_spaces(q + 1, end);
    return true;
}

/* "(599 tok/s)" at *p: the model's own median output throughput, as the
 * report's speed table prints it below (in Markdown: beside) the ratio. */
static bool throughput_at(const char **p, const char *end, sr_claim_number *num, cell *text)
{
    static const char unit[] = "tok/s";
    const char *q = *p, *close = q < end && *q == '(' ? memchr(q, ')', (size_t)(end - q)) : NULL;
    if (!close)
        return false;
    cell inner = {q + 1, (size_t)(close - q - 1)};
    const char *semi = memchr(inner.s, ';', inner.n); /* "(1,178 tok/s; 384 of 768 failed)": the report's flag */
    if (semi && sr_claims_is_failed_flag(semi + 1, (size_t)(inner.s + inner.n - semi - 1)))
        inner.n = (size_t)(semi - inner.s);
    sr_claims_trim(&inner.s, &inner.n);
    size_t u = sizeof unit - 1;
    if (inner.n <= u || memcmp(inner.s + inner.n - u, unit, u) != 0)
        return false;
    cell digits = {inner.s, inner.n - u};
    sr_claims_trim(&digits.s, &digits.n);
    if (!sr_claims_parse_number(digits.s, digits.n, num) || num->unit != SR_CLAIM_UNIT_PLAIN)
        return false;
    *text = inner;
    *p = sr_claims_skip_spaces(close + 1, end);
    return true;
}

/* A speed cell as the report prints it: a ratio ("0.57x", "0.57×",
 * "0.57"), then optionally its Welch interval "[0.52, 0.62]" or the run
 * range "(0.55–0.58)", then optionally the model's own median "(599
 * tok/s)"; or "—" and the median alone where there is no ratio: claims of
 * ratio, ratio_ci_low, ratio_ci_high, ratio_low, ratio_high, median. */
static sr_error *ratio_claims(const md_ctx *ctx, long line, const cell *model, const char *figure, const cell *text,
                              const cell *header)
{
    const char *p = text->s, *end = text->s + text->n;
    sr_claim_number r, lo, hi, median;
    cell r_text = {0}, lo_text = {0}, hi_text = {0}, median_text = {0};
    /* "94.2 tok/s" alone: the model's own median where the scenario has no
     * ratio (the report's table of scenarios the baseline did not run) */
    static const char unit[] = "tok/s";
    size_t u = sizeof unit - 1;
    if (text->n > u && memcmp(end - u, unit, u) == 0 && !memchr(text->s, '(', text->n)) {
        cell digits = {text->s, text->n - u};
        sr_claims_trim(&digits.s, &digits.n);
        if (!sr_claims_parse_number(digits.s, digits.n, &median) || median.unit != SR_CLAIM_UNIT_PLAIN)
            return not_a_number(ctx, line, text->s, text->n, header->s, header->n);
        sibling_claim(ctx, line, model, figure, "median", text, &median, NULL);
        return NULL;
    }
    const char *stop = sr_claims_number_at(p, end, &r);
    size_t dash = strcspn(text->s, " ");
    if (stop) {
        r_text = (cell){p, (size_t)(stop - p)};
        sr_claims_trim(&r_text.s, &r_text.n);
        p = sr_claims_skip_spaces(stop, end);
    } else if (dash < text->n && sr_claims_no_claim(text->s, dash)) {
        p = sr_claims_skip_spaces(p + dash, end); /* "— (414 tok/s)": no ratio */
    } else {
        return not_a_number(ctx, line, text->s, text->n, header->s, header->n);
    }
    sr_claim_number ci_lo, ci_hi;
    cell ci_lo_text = {0}, ci_hi_text = {0};
    bool interval = stop && interval_at(&p, end, &ci_lo, &ci_lo_text, &ci_hi, &ci_hi_text);
    if (interval) {
        sr_claims_trim(&ci_lo_text.s, &ci_lo_text.n);
        sr_claims_trim(&ci_hi_text.s, &ci_hi_text.n);
        p = sr_claims_skip_spaces(p, end);
    }
    bool range = stop && !interval && range_at(&p, end, &lo, &lo_text, &hi, &hi_text);
    bool own = throughput_at(&p, end, &median, &median_text);
    const char *close = p < end && *p == '(' ? memchr(p, ')', (size_t)(end - p)) : NULL;
    if (close && sr_claims_is_failed_flag(p + 1, (size_t)(close - p - 1))) /* "(384 of 768 failed)" */
        p = sr_claims_skip_spaces(close + 1, end);
    if (p != end || (!stop && !own))
        return not_a_number(ctx, line, text->s, text->n, header->s, header->n);
    if (stop)
        sr_claims_add(ctx->out, ctx->path, line, model->s, model->n, figure, r_text.s, r_text.n, &r, NULL);
    if (interval) {
        sibling_claim(ctx, line, model, figure, "ratio_ci_low", &ci_lo_text, &ci_lo, NULL);
        sibling_claim(ctx, line, model, figure, "ratio_ci_high", &ci_hi_text, &ci_hi, NULL);
    }
    if (range) {
        sibling_claim(ctx, line, model, figure, "ratio_low", &lo_text, &lo, NULL);
        sibling_claim(ctx, line, model, figure, "ratio_high", &hi_text, &hi, NULL);
    }
    if (own)
        sibling_claim(ctx, line, model, figure, "median", &median_text, &median, NULL);
    return NULL;
}

static sr_error *cell_claims(const md_ctx *ctx, long line, const cell *model, const column *col, const cell *header,
                             cell text)
{
    sr_claims_strip_inline(&text.s, &text.n);
    /* The report's marks after a figure say how it was made, not what it is. */
    char *plain = sr_claims_without_marks(text.s, &text.n);
    text.s = plain;
    sr_claims_trim(&text.s, &text.n);
    sr_error *err = NULL;
    if (sr_claims_no_claim(text.s, text.n)) {
        free(plain);
        return NULL;
    }
    switch (col->kind) {
    case CELL_NUMBER: err = number_claim(ctx, line, model, col->figure, &text, false, header); break;
    case CELL_RATIO: err = ratio_claims(ctx, line, model, col->figure, &text, header); break;
    case CELL_POINTS: err = number_claim(ctx, line, model, col->figure, &text, true, header); break;
    case CELL_DELTA: err = delta_claims(ctx, line, model, col->figure, &text, header); break;
    case CELL_WORDS: words_claim(ctx, line, model, col->figure, &text, NULL); break;
    case CELL_VERDICT: {
        const char *verdict = sr_claims_verdict(text.s, text.n);
        if (!verdict)
            err = sr_input_error(
                ctx->path, line,
                "'%.*s' is not a verdict (baseline, no measured difference, higher, lower, too few items)",
                (int)sr_claims_shown(text.s, text.n), text.s);
        else
            words_claim(ctx, line, model, col->figure, &text, verdict);
        break;
    }
    }
    free(plain);
    return err;
}

/* ---- tables ------------------------------------------------------------------------ */

static void columns_free(column *cols, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(cols[i].figure);
    free(cols);
}

/* The figure of each header cell (column 0, the model, has none). */
static column *table_columns(const md_ctx *ctx, const cell_list *header, long line)
{
    column *cols = sr_xcalloc(header->n, sizeof *cols);
    for (size_t i = 1; i < header->n; i++) {
        const cell *h = &header->items[i];
        if ((cols[i].row_n = sr_claims_is_n_header(h->s, h->n)))
            continue;
        cols[i].figure = sr_claims_header_figure(h->s, h->n, ctx->aliases, ctx->n_aliases);
        if (cols[i].figure)
            cols[i].kind = kind_of(cols[i].figure);
        else if (h->n > 0)
            sr_claims_add_unchecked(ctx->out, ctx->path, line, h->s, h->n);
    }
    return cols;
}

static sr_error *table_row(const md_ctx *ctx, const md_line *l, const cell_list *header, const column *cols,
                           bool header_closed, cell_list *cells)
{
    bool opened, closed;
    sr_error *err = split_row(l, cells, &opened, &closed);
    if (err)
        return err;
    if (header_closed && opened && !closed)
        return sr_input_error(ctx->path, l->lineno,
                              "unterminated table row: it does not end with '|' as the header does");
    if (cells->n != header->n)
        return sr_input_error(ctx->path, l->lineno, "table row has %zu cells, the header has %zu", cells->n, header->n);
    cell model = cells->items[0];
    sr_claims_strip_inline(&model.s, &model.n);
    if (model.n == 0)
        return NULL; /* a note under the row above, not a model */
    size_t first = ctx->out->n;
    long row_n = -1;
    for (size_t i = 1; i < cells->n && !err; i++)
        if (cols[i].figure)
            err = cell_claims(ctx, l->lineno, &model, &cols[i], &header->items[i], cells->items[i]);
        else if (cols[i].row_n && !sr_claims_row_n(cells->items[i].s, cells->items[i].n, &row_n))
            err = sr_input_error(ctx->path, l->lineno, "'%.*s' is not a count of items (column 'n')",
                                 (int)sr_claims_shown(cells->items[i].s, cells->items[i].n), cells->items[i].s);
    for (size_t k = first; !err && k < ctx->out->n; k++)
        ctx->out->items[k].row_n = row_n;
    return err;
}

/* The table whose header is lines[at] (its delimiter row follows); *next
 * is the first line after it. */
static sr_error *read_table(const md_ctx *ctx, const md_line *lines, size_t n_lines, size_t at, size_t *next)
{
    cell_list header = {0}, delim = {0}, row = {0};
    bool opened, header_closed, d_open, d_closed;
    column *cols = NULL;
    sr_error *err = split_row(&lines[at], &header, &opened, &header_closed);
    if (!err)
        err = split_row(&lines[at + 1], &delim, &d_open, &d_closed);
    if (!err && delim.n != header.n)
        err = sr_input_error(ctx->path, lines[at + 1].lineno, "table delimiter row has %zu cells, the header has %zu",
                             delim.n, header.n);
    if (!err)
        cols = table_columns(ctx, &header, lines[at].lineno);
    size_t i = at + 2, first = ctx->out->n;
    for (; !err && i < n_lines && !blank_line(&lines[i]) && has_pipe(&lines[i]); i++)
        err = table_row(ctx, &lines[i], &header, cols, opened && header_closed, &row);
    for (size_t k = first; !err && k < ctx->out->n; k++)
        ctx->out->items[k].table = lines[at].lineno; /* its rows name distinct models */
    *next = i;
    if (cols)
        columns_free(cols, header.n);
    free(header.items);
    free(delim.items);
    free(row.items);
    return err;
}

/* A header line followed by a delimiter row with a '|'. */
static sr_error *starts_table(const md_line *lines, size_t n_lines, size_t at, bool *yes)
{
    *yes = false;
    if (at + 1 >= n_lines || !table_line(&lines[at]) || !table_line(&lines[at + 1]))
        return NULL;
    cell_list cells = {0};
    bool opened, closed;
    sr_error *err = split_row(&lines[at + 1], &cells, &opened, &closed);
    *yes = !err && delimiter_cells(&cells);
    free(cells.items);
    return err;
}

static sr_error *split_lines(const char *path, const char *data, size_t len, md_line **out, size_t *n_out)
{
    md_line *lines = NULL;
    size_t n = 0, cap = 0;
    sr_lines it;
    const char *l;
    size_t ll;
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
        data += 3; /* a byte order mark */
        len -= 3;
    }
    sr_lines_init(&it, data, len);
    while (sr_lines_next(&it, &l, &ll)) {
        if (!sr_utf8_valid(l, ll)) {
            free(lines);
            return sr_input_error(path, it.lineno, "invalid utf-8 or nul byte");
        }
        void *p = lines;
        sr_grow(&p, &cap, n + 1, sizeof *lines);
        lines = p;
        lines[n++] = (md_line){l, ll, it.lineno};
    }
    *out = lines;
    *n_out = n;
    return NULL;
}

sr_error *sr_parse_claims_markdown(const char *path, const char *data, size_t len, const sr_claim_alias *aliases,
                                   size_t n_aliases, sr_claim_list *out)
{
    size_t n0 = out->n, u0 = out->n_unchecked, n_lines = 0;
    md_line *lines = NULL;
    sr_error *err = split_lines(path, data, len, &lines, &n_lines);
    md_ctx ctx = {path, aliases, n_aliases, out};
    bool in_fence = false;
    char fence_ch = 0;
    size_t fence_len = 0;
    for (size_t i = 0; !err && i < n_lines;) {
        if (in_fence) {
            in_fence = !fence_close(&lines[i], fence_ch, fence_len);
            i++;
            continue;
        }
        if (fence_open(&lines[i], &fence_ch, &fence_len)) {
            in_fence = true;
            i++;
            continue;
        }
        bool table;
        err = starts_table(lines, n_lines, i, &table);
        if (!err && table)
            err = read_table(&ctx, lines, n_lines, i, &i);
        else
            i++;
    }
    free(lines);
    return sr_claims_finish(err, out, n0, u0);
}
