/* The chart canvas: what the backends share (text that fits, wrapping,
 * markers, axes) and the calls that reach the backend. */
#include "render/canvas/canvas.h"
#include "render/canvas/glyphs.h"
#include "render/shared/wrap.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"

const sr_rgb sr_black = {0, 0, 0};
const sr_rgb sr_blue = {0 / 255.0, 114 / 255.0, 178 / 255.0};
const sr_rgb sr_sky = {86 / 255.0, 180 / 255.0, 233 / 255.0};
const sr_rgb sr_green = {0 / 255.0, 158 / 255.0, 115 / 255.0};
const sr_rgb sr_orange = {230 / 255.0, 159 / 255.0, 0 / 255.0};
const sr_rgb sr_vermillion = {213 / 255.0, 94 / 255.0, 0 / 255.0};
const sr_rgb sr_purple = {204 / 255.0, 121 / 255.0, 167 / 255.0};
const sr_rgb sr_grey = {0.45, 0.45, 0.45};
const sr_rgb sr_light = {0.88, 0.88, 0.88};
const sr_rgb sr_dark = {0.2, 0.2, 0.2};

/* ---- canvas ------------------------------------------------------------ */

sr_error *sr_canvas_open(sr_canvas *cv, const sr_chart_target *target, double width, double height)
{
    memset(cv, 0, sizeof *cv);
    cv->width = width;
    cv->height = height;
    sr_error *err =
        target->place ? sr_canvas_open_pdf(cv, target->place, target->ctx) : sr_canvas_open_cairo(cv, target->format);
    if (err)
        sr_canvas_release(cv);
    return err;
}

void sr_canvas_release(sr_canvas *cv)
{
    if (cv->ops)
        cv->ops->release(cv);
    memset(cv, 0, sizeof *cv);
}

sr_error *sr_canvas_close(sr_canvas *cv, const char *id_prefix, const char *title, const char *desc, char **out,
                          size_t *len)
{
    *out = NULL;
    *len = 0;
    sr_error *err = cv->ops->finish(cv, id_prefix, title, desc, out, len);
    if (err) {
        free(*out);
        *out = NULL;
        *len = 0;
    }
    sr_canvas_release(cv);
    return err;
}

/* ---- shapes ------------------------------------------------------------ */

void sr_canvas_rect(sr_canvas *cv, double x, double y, double w, double h, sr_rgb fill)
{
    cv->ops->rect(cv, x, y + cv->dy, w, h, fill);
}

void sr_canvas_line(sr_canvas *cv, double x1, double y1, double x2, double y2, double width, sr_rgb color, bool dashed)
{
    cv->ops->line(cv, x1, y1 + cv->dy, x2, y2 + cv->dy, width, color, dashed);
}

void sr_canvas_marker(sr_canvas *cv, int shape, double x, double y, double r, sr_rgb fill)
{
    if (shape == 0) {
        const double centre[2] = {x, y + cv->dy};
        cv->ops->shape(cv, centre, 0, r, fill);
        return;
    }
    double s = shape == 1 ? -1 : 1; /* up: apex above */
    r *= 1.25;
    y += cv->dy;
    const double xy[6] = {x, y + s * r, x - r, y - s * r * 0.7, x + r, y - s * r * 0.7};
    cv->ops->shape(cv, xy, 3, 0, fill);
}

/* ---- text -------------------------------------------------------------- */

/* Width of clean (valid UTF-8) text. */
static double clean_width(sr_canvas *cv, const char *s, double size, bool bold)
{
    return cv->ops->text_width(cv, s, size, bold);
}

double sr_canvas_label(sr_canvas *cv, double x, double y, const char *s, double size, sr_rgb color)
{
    static const sr_rgb white = {1, 1, 1};
    double w = sr_canvas_text_width(cv, s, size, false);
    cv->ops->rect(cv, x - 1.5, y + cv->dy - size * 0.85, w + 3, size * 1.1, white);
    return sr_canvas_text(cv, x, y, s, size, false, 0, color);
}

/* Input text as the fonts draw it (glyphs.h), one text at most this long. */
#define MAX_TEXT_BYTES 4000

double sr_canvas_text_width(sr_canvas *cv, const char *s, double size, bool bold)
{
    char *clean = sr_font_text_dup(s, MAX_TEXT_BYTES);
    double w = clean_width(cv, clean, size, bold);
    free(clean);
    return w;
}

double sr_canvas_text(sr_canvas *cv, double x, double y, const char *s, double size, bool bold, double align,
                      sr_rgb color)
{
    char *clean = sr_font_text_dup(s, MAX_TEXT_BYTES);
    double w = clean_width(cv, clean, size, bold);
    cv->ops->text(cv, x - w * align, y + cv->dy, clean, size, bold, color);
    free(clean);
    return w;
}

#define ELLIPSIS "\xE2\x80\xA6"
#define MAX_LABEL_BYTES 400

char *sr_canvas_fit(sr_canvas *cv, const char *s, double size, bool bold, double max_width)
{
    char *clean = sr_font_text_dup(s, 0);
    size_t len = strlen(clean);
    if (len <= MAX_LABEL_BYTES && clean_width(cv, clean, size, bold) <= max_width)
        return clean;
    /* The longest prefix (on a character boundary) that fits with "…". */
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    size_t best = 0, i = 0;
    while (i < len && i < MAX_LABEL_BYTES) {
        unsigned cp;
        size_t n = sr_utf8_decode(clean + i, len - i, &cp);
        i += n ? n : 1;
        sb.len = 0;
        sr_strbuf_append(&sb, clean, i);
        sr_strbuf_puts(&sb, ELLIPSIS);
        if (clean_width(cv, sb.data, size, bold) > max_width)
            break;
        best = i;
    }
    sb.len = 0;
    sr_strbuf_append(&sb, clean, best);
    sr_strbuf_puts(&sb, ELLIPSIS);
    free(clean);
    char *out = sr_strbuf_detach(&sb);
    return out;
}

char *sr_canvas_fit_middle(sr_canvas *cv, const char *s, double size, bool bold, double max_width)
{
    char *clean = sr_font_text_dup(s, 0);
    size_t len = strlen(clean);
    if (len > MAX_LABEL_BYTES || clean_width(cv, clean, size, bold) <= max_width) {
        if (len > MAX_LABEL_BYTES) {
            free(clean);
            return sr_canvas_fit(cv, s, size, bold, max_width);
        }
        return clean;
    }
    /* The longest tail (on a character boundary) within 40% of the width,
     * then the longest head that fits before "…" and it. */
    double ell = clean_width(cv, ELLIPSIS, size, bold);
    size_t tail = len;
    for (size_t i = len; i > 0;) {
        size_t j = i - 1;
        while (j > 0 && ((unsigned char)clean[j] & 0xC0) == 0x80)
            j--;
        if (clean_width(cv, clean + j, size, bold) > 0.4 * max_width)
            break;
        tail = i = j;
    }
    double tail_w = tail < len ? clean_width(cv, clean + tail, size, bold) : 0;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    size_t head = 0;
    for (size_t i = 0; i < tail;) {
        unsigned cp;
        size_t n = sr_utf8_decode(clean + i, tail - i, &cp);
        i += n ? n : 1;
        sb.len = 0;
        sr_strbuf_append(&sb, clean, i);
        if (clean_width(cv, sb.data, size, bold) + ell + tail_w > max_width)
            break;
        head = i;
    }
    sb.len = 0;
    sr_strbuf_append(&sb, clean, head);
    sr_strbuf_puts(&sb, ELLIPSIS);
    sr_strbuf_puts(&sb, clean + tail);
    free(clean);
    return sr_strbuf_detach(&sb);
}

char *sr_canvas_fit_label(sr_canvas *cv, const char *s, double size, bool bold, double max_width)
{
    char *whole = sr_canvas_fit_middle(cv, s, size, bold, max_width), *clean = sr_font_text_dup(s, 0);
    bool fits = strcmp(whole, clean) == 0;
    free(clean);
    size_t org = strcspn(s, "/ ("); /* an organisation: a '/' before the first space or parenthesis */
    if (fits || org == 0 || s[org] != '/' || !s[org + 1] || strlen(s) > MAX_LABEL_BYTES)
        return whole; /* a name past any room is shown from its start */
    free(whole);
    char *named = sr_asprintf(ELLIPSIS "%s", s + org);
    char *fit = sr_canvas_fit_middle(cv, named, size, bold, max_width);
    free(named);
    return fit;
}

typedef struct measure_ctx {
    sr_canvas *cv;
    double size;
} measure_ctx;

static double measure(void *ctx, const char *s, size_t len)
{
    measure_ctx *m = ctx;
    char *piece = sr_strndup(s, len);
    double w = clean_width(m->cv, piece, m->size, false);
    free(piece);
    return w;
}

/* Word wrap with the renderers' one wrapper (wrap.h); draw when draw is
 * set. The last of max_lines lines takes the rest of the text, cut with
 * "…" if it is too long. Returns the line count. */
static int wrap(sr_canvas *cv, double x, double y, const char *s, double size, double line_height, double max_width,
                int max_lines, sr_rgb color, bool draw)
{
    char *clean = sr_font_text_dup(s, 0);
    sr_text_list lines = {0};
    measure_ctx mc = {cv, size};
    if (!clean[strspn(clean, " ")]) {
        free(clean);
        return 0;
    }
    sr_wrap(clean, max_width, measure, &mc, &lines);
    int shown = lines.n > (size_t)max_lines ? max_lines : (int)lines.n;
    size_t pos = 0;
    for (int k = 0; k < shown && draw; k++) {
        const char *at = strstr(clean + pos, lines.items[k]); /* lines are the text's pieces, in order */
        size_t start = at ? (size_t)(at - clean) : pos;
        pos = start + strlen(lines.items[k]);
        if (k == shown - 1 && (size_t)shown < lines.n) { /* the rest, cut to fit */
            char *fit = sr_canvas_fit(cv, clean + start, size, false, max_width);
            sr_canvas_text(cv, x, y + k * line_height, fit, size, false, 0, color);
            free(fit);
        } else if (lines.items[k][0]) {
            sr_canvas_text(cv, x, y + k * line_height, lines.items[k], size, false, 0, color);
        }
    }
    sr_text_list_release(&lines);
    free(clean);
    return shown;
}

int sr_canvas_count_lines(const char *s, double size, double max_width)
{
    sr_canvas cv;
    const sr_chart_target measure = {SR_CHART_SVG, NULL, NULL};
    sr_error *err = sr_canvas_open(&cv, &measure, 1, 1);
    if (err) { /* the chart's own canvas will say why it cannot draw */
        sr_error_free(err);
        return 2;
    }
    int lines = wrap(&cv, 0, 0, s, size, 1, max_width, INT_MAX, sr_black, false);
    sr_canvas_release(&cv);
    return lines;
}

int sr_canvas_wrapped(sr_canvas *cv, double x, double y, const char *s, double size, double line_height,
                      double max_width, int max_lines, sr_rgb color)
{
    return wrap(cv, x, y, s, size, line_height, max_width, max_lines, color, true);
}

/* ---- axes -------------------------------------------------------------- */

/* A round step giving about `ticks` intervals: 1, 2 or 5 times a power of
 * ten (and 2.5 below 1, for ratios in quarters). */
static double nice_step(double range, int ticks)
{
    double raw = range / (ticks > 0 ? ticks : 1);
    double mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    double nf = f < 1.5 ? 1 : f < 2.25 ? 2 : (f < 3.5 && mag < 1) ? 2.5 : f < 7.5 ? 5 : 10;
    return nf * mag;
}

void sr_axis_linear(sr_axis *a, double lo, double hi, int ticks, double x0, double x1)
{
    if (!(hi > lo)) {
        lo -= 1;
        hi += 1;
    }
    a->log = false;
    a->step = nice_step(hi - lo, ticks);
    a->lo = floor(lo / a->step + 1e-9) * a->step;
    a->hi = ceil(hi / a->step - 1e-9) * a->step;
    a->x0 = x0;
    a->x1 = x1;
}

void sr_axis_log(sr_axis *a, double lo, double hi, double x0, double x1)
{
    a->log = true;
    a->step = 10;
    a->lo = pow(10, floor(log10(lo)));
    a->hi = pow(10, ceil(log10(hi)));
    if (a->hi <= a->lo)
        a->hi = a->lo * 10;
    a->x0 = x0;
    a->x1 = x1;
}

double sr_axis_x(const sr_axis *a, double v)
{
    double t;
    if (a->log)
        t = v > 0 ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) : 0;
    else
        t = (v - a->lo) / (a->hi - a->lo);
    if (t < 0)
        t = 0;
    if (t > 1)
        t = 1;
    return a->x0 + t * (a->x1 - a->x0);
}

int sr_axis_ticks(const sr_axis *a, double *ticks, int max)
{
    int n = 0;
    if (a->log) {
        for (double e = round(log10(a->lo)); e <= round(log10(a->hi)) + 1e-9 && n < max; e++)
            ticks[n++] = pow(10, e);
    } else {
        long k0 = lround(a->lo / a->step), k1 = lround(a->hi / a->step);
        for (long k = k0; k <= k1 && n < max; k++)
            ticks[n++] = (double)k * a->step;
    }
    return n;
}

int sr_axis_decimals(const sr_axis *a)
{
    if (a->log)
        return 0;
    /* The fewest decimals that show the step exactly: 2.5 -> 1, 0.25 -> 2. */
    for (int d = 0; d < 8; d++) {
        double scaled = a->step * pow(10, d);
        if (fabs(scaled - round(scaled)) < 1e-6 * scaled)
            return d;
    }
    return 8;
}

void sr_axis_draw(sr_canvas *cv, const sr_axis *a, double y0, double y1,
                  const char *(*format)(char *buf, size_t size, double v, int decimals))
{
    double ticks[64];
    int n = sr_axis_ticks(a, ticks, 64), d = sr_axis_decimals(a);
    for (int i = 0; i < n; i++) {
        double x = sr_axis_x(a, ticks[i]);
        char buf[64];
        sr_canvas_line(cv, x, y0, x, y1, 0.6, sr_light, false);
        sr_canvas_text(cv, x, y1 + 14, format(buf, sizeof buf, ticks[i], d), 10.5, false, 0.5, sr_dark);
    }
    sr_canvas_line(cv, a->x0, y1, a->x1, y1, 0.8, sr_grey, false);
}
