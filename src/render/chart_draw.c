/* The canvas the charts draw on: cairo surfaces, DejaVu through FreeType,
 * text, axes, and the SVG clean-up. */
#include "chart_draw.h"

#include <cairo-ft.h>
#include <cairo-svg.h>
#include <ft2build.h>
#include FT_FREETYPE_H
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

/* ---- fonts ------------------------------------------------------------- */

typedef struct ft_holder {
    FT_Library lib;
    FT_Face face;
} ft_holder;

static const cairo_user_data_key_t ft_key;

static void ft_done(void *p)
{
    ft_holder *h = p;
    FT_Done_Face(h->face);
    FT_Done_FreeType(h->lib);
    free(h);
}

/* A cairo font face for the TrueType file at path; the FreeType objects are
 * released when cairo drops the face. */
static sr_error *load_font(const char *path, cairo_font_face_t **out)
{
    ft_holder *h = calloc(1, sizeof *h);
    if (!h)
        return sr_oom();
    if (FT_Init_FreeType(&h->lib) != 0) {
        free(h);
        return sr_error_new(SR_EXIT_FAILURE, path, 0, "cannot start FreeType");
    }
    if (FT_New_Face(h->lib, path, 0, &h->face) != 0) {
        FT_Done_FreeType(h->lib);
        free(h);
        return sr_error_new(SR_EXIT_FAILURE, path, 0,
                            "cannot load the chart font (install fonts-dejavu-core)");
    }
    cairo_font_face_t *ff = cairo_ft_font_face_create_for_ft_face(h->face, 0);
    if (cairo_font_face_status(ff) != CAIRO_STATUS_SUCCESS ||
        cairo_font_face_set_user_data(ff, &ft_key, h, ft_done) != CAIRO_STATUS_SUCCESS) {
        cairo_font_face_destroy(ff);
        ft_done(h);
        return sr_oom();
    }
    *out = ff;
    return NULL;
}

/* ---- canvas ------------------------------------------------------------ */

static cairo_status_t write_cb(void *closure, const unsigned char *data, unsigned int length)
{
    sr_strbuf *sb = closure;
    sr_strbuf_append(sb, (const char *)data, length);
    return sb->failed ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

void sr_canvas_free(sr_canvas *cv)
{
    if (cv->cr)
        cairo_destroy(cv->cr);
    if (cv->surface) {
        cairo_surface_finish(cv->surface); /* may still write into cv->svg */
        cairo_surface_destroy(cv->surface);
    }
    if (cv->regular)
        cairo_font_face_destroy(cv->regular);
    if (cv->bold)
        cairo_font_face_destroy(cv->bold);
    sr_strbuf_free(&cv->svg);
    memset(cv, 0, sizeof *cv);
}

sr_error *sr_canvas_open(sr_canvas *cv, sr_chart_format format, double width, double height)
{
    memset(cv, 0, sizeof *cv);
    sr_strbuf_init(&cv->svg);
    cv->format = format;
    cv->width = width;
    cv->height = height;
    sr_error *err = load_font(SR_FONT_SANS, &cv->regular);
    if (!err)
        err = load_font(SR_FONT_SANS_BOLD, &cv->bold);
    if (err) {
        sr_canvas_free(cv);
        return err;
    }
    if (format == SR_CHART_PNG) {
        cv->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(width * SR_CHART_PNG_SCALE),
                                                 (int)ceil(height * SR_CHART_PNG_SCALE));
    } else {
        cv->surface = cairo_svg_surface_create_for_stream(write_cb, &cv->svg, width, height);
        cairo_svg_surface_restrict_to_version(cv->surface, CAIRO_SVG_VERSION_1_1);
    }
    cv->cr = cairo_create(cv->surface);
    if (cairo_status(cv->cr) != CAIRO_STATUS_SUCCESS) {
        sr_error *e = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot make a %.0fx%.0f chart: %s", width, height,
                                   cairo_status_to_string(cairo_status(cv->cr)));
        sr_canvas_free(cv);
        return e;
    }
    if (format == SR_CHART_PNG)
        cairo_scale(cv->cr, SR_CHART_PNG_SCALE, SR_CHART_PNG_SCALE);
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    cairo_set_font_options(cv->cr, fo);
    cairo_font_options_destroy(fo);
    cairo_set_source_rgb(cv->cr, 1, 1, 1);
    cairo_paint(cv->cr);
    return NULL;
}

/* ---- SVG clean-up ------------------------------------------------------ */

typedef struct id_map {
    char **old, **new_;
    size_t n, cap_old, cap_new;
} id_map;

static void id_map_free(id_map *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->old[i]);
        free(m->new_[i]);
    }
    free(m->old);
    free(m->new_);
}

static const char *id_map_get(const id_map *m, const char *s, size_t len)
{
    for (size_t i = 0; i < m->n; i++)
        if (strlen(m->old[i]) == len && memcmp(m->old[i], s, len) == 0)
            return m->new_[i];
    return NULL;
}

static bool starts(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(s, prefix, n) == 0;
}

/* cairo names surfaces after a process-wide counter ("surface7"), which
 * would make two renders differ: number them in order instead, and put
 * prefix before every id so charts inlined in one page do not clash. */
static bool collect_ids(const char *svg, size_t len, const char *prefix, id_map *m)
{
    long surfaces = 0;
    for (size_t i = 0; i + 4 < len; i++) {
        if (!(svg[i] == ' ' && starts(svg + i + 1, len - i - 1, "id=\"")))
            continue;
        size_t start = i + 5, end = start;
        while (end < len && svg[end] != '"')
            end++;
        if (end == len || id_map_get(m, svg + start, end - start))
            continue;
        char *old = sr_strndup(svg + start, end - start);
        bool surface = end - start > 7 && starts(svg + start, end - start, "surface");
        for (size_t k = start + 7; surface && k < end; k++)
            surface = svg[k] >= '0' && svg[k] <= '9';
        char *new_ = surface ? sr_asprintf("%ssurface%ld", prefix, ++surfaces)
                             : sr_asprintf("%s%s", prefix, old ? old : "");
        void *a = m->old, *b = m->new_;
        bool ok = old && new_ && sr_grow(&a, &m->cap_old, m->n + 1, sizeof *m->old);
        if (ok)
            m->old = a;
        ok = ok && sr_grow(&b, &m->cap_new, m->n + 1, sizeof *m->new_);
        if (ok)
            m->new_ = b;
        if (!ok) {
            free(old);
            free(new_);
            return false;
        }
        m->old[m->n] = old;
        m->new_[m->n++] = new_;
        i = end;
    }
    return true;
}

static void rewrite_ids(const char *svg, size_t len, const id_map *m, sr_strbuf *out)
{
    static const char *const refs[] = {" id=\"", "href=\"#", "url(#"};
    size_t i = 0, run = 0;
    while (i < len) {
        size_t r = 0, rlen = 0;
        for (; r < 3; r++)
            if (starts(svg + i, len - i, refs[r])) {
                rlen = strlen(refs[r]);
                break;
            }
        if (r == 3) {
            i++;
            continue;
        }
        size_t start = i + rlen, end = start;
        char term = r == 2 ? ')' : '"';
        while (end < len && svg[end] != term)
            end++;
        const char *repl = id_map_get(m, svg + start, end - start);
        if (repl) {
            sr_strbuf_append(out, svg + run, start - run);
            sr_strbuf_puts(out, repl);
            run = end;
        }
        i = end;
    }
    sr_strbuf_append(out, svg + run, len - run);
}

static sr_error *svg_finish(const sr_strbuf *in, const char *prefix, const char *title, const char *desc,
                            char **out, size_t *len)
{
    const char *svg = sr_strbuf_cstr(in);
    size_t n = in->len;
    id_map m = {0};
    if (!collect_ids(svg, n, prefix, &m)) {
        id_map_free(&m);
        return sr_oom();
    }
    /* The <title> and <desc> go right after the root element's start tag. */
    size_t after_root = 0;
    const char *open = strstr(svg, "<svg");
    if (open) {
        const char *gt = strchr(open, '>');
        if (gt)
            after_root = (size_t)(gt - svg) + 1;
    }
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_reserve(&sb, n + 4096);
    rewrite_ids(svg, after_root, &m, &sb);
    sr_strbuf_puts(&sb, "\n<title>");
    sr_escape_xml(&sb, title, strlen(title));
    sr_strbuf_puts(&sb, "</title>\n<desc>");
    sr_escape_xml(&sb, desc, strlen(desc));
    sr_strbuf_puts(&sb, "</desc>");
    rewrite_ids(svg + after_root, n - after_root, &m, &sb);
    id_map_free(&m);
    *len = sb.len;
    *out = sr_strbuf_detach(&sb);
    return *out ? NULL : sr_oom();
}

sr_error *sr_canvas_close(sr_canvas *cv, const char *id_prefix, const char *title, const char *desc, char **out,
                          size_t *len)
{
    *out = NULL;
    *len = 0;
    cairo_status_t st = cairo_status(cv->cr);
    cairo_destroy(cv->cr);
    cv->cr = NULL;
    sr_error *err = NULL;
    if (cv->failed) {
        err = sr_oom();
    } else if (st != CAIRO_STATUS_SUCCESS) {
        err = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot draw the chart: %s", cairo_status_to_string(st));
    } else if (cv->format == SR_CHART_PNG) {
        sr_strbuf png;
        sr_strbuf_init(&png);
        cairo_surface_flush(cv->surface);
        st = cairo_surface_write_to_png_stream(cv->surface, write_cb, &png);
        if (st != CAIRO_STATUS_SUCCESS || png.failed) {
            sr_strbuf_free(&png);
            err = png.failed ? sr_oom()
                             : sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot encode the chart as PNG: %s",
                                            cairo_status_to_string(st));
        } else {
            *len = png.len;
            *out = sr_strbuf_detach(&png);
            if (!*out)
                err = sr_oom();
        }
    } else {
        cairo_surface_finish(cv->surface);
        st = cairo_surface_status(cv->surface);
        if (st != CAIRO_STATUS_SUCCESS || cv->svg.failed)
            err = cv->svg.failed ? sr_oom()
                                 : sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot write the chart as SVG: %s",
                                                cairo_status_to_string(st));
        else
            err = svg_finish(&cv->svg, id_prefix, title, desc, out, len);
    }
    sr_canvas_free(cv);
    return err;
}

/* ---- shapes ------------------------------------------------------------ */

static void set_color(sr_canvas *cv, sr_rgb c)
{
    cairo_set_source_rgb(cv->cr, c.r, c.g, c.b);
}

void sr_canvas_rect(sr_canvas *cv, double x, double y, double w, double h, sr_rgb fill)
{
    set_color(cv, fill);
    cairo_rectangle(cv->cr, x, y, w, h);
    cairo_fill(cv->cr);
}

void sr_canvas_line(sr_canvas *cv, double x1, double y1, double x2, double y2, double width, sr_rgb color,
                    bool dashed)
{
    static const double dash[] = {5, 3};
    set_color(cv, color);
    cairo_set_line_width(cv->cr, width);
    cairo_set_dash(cv->cr, dash, dashed ? 2 : 0, 0);
    cairo_move_to(cv->cr, x1, y1);
    cairo_line_to(cv->cr, x2, y2);
    cairo_stroke(cv->cr);
    cairo_set_dash(cv->cr, dash, 0, 0);
}

void sr_canvas_marker(sr_canvas *cv, int shape, double x, double y, double r, sr_rgb fill)
{
    cairo_t *cr = cv->cr;
    set_color(cv, fill);
    if (shape == 0) {
        cairo_arc(cr, x, y, r, 0, 2 * M_PI);
    } else {
        double s = shape == 1 ? -1 : 1; /* up: apex above */
        r *= 1.25;
        cairo_move_to(cr, x, y + s * r);
        cairo_line_to(cr, x - r, y - s * r * 0.7);
        cairo_line_to(cr, x + r, y - s * r * 0.7);
        cairo_close_path(cr);
    }
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
}

/* ---- text -------------------------------------------------------------- */

static void use_font(sr_canvas *cv, double size, bool bold)
{
    cairo_set_font_face(cv->cr, bold ? cv->bold : cv->regular);
    cairo_set_font_size(cv->cr, size);
}

/* Width of clean (valid UTF-8) text. */
static double clean_width(sr_canvas *cv, const char *s, double size, bool bold)
{
    cairo_text_extents_t ext;
    use_font(cv, size, bold);
    cairo_text_extents(cv->cr, s, &ext);
    return ext.x_advance;
}

double sr_canvas_label(sr_canvas *cv, double x, double y, const char *s, double size, sr_rgb color)
{
    double w = sr_canvas_text_width(cv, s, size, false);
    cairo_set_source_rgb(cv->cr, 1, 1, 1);
    cairo_rectangle(cv->cr, x - 1.5, y - size * 0.85, w + 3, size * 1.1);
    cairo_fill(cv->cr);
    return sr_canvas_text(cv, x, y, s, size, false, 0, color);
}

double sr_canvas_text_width(sr_canvas *cv, const char *s, double size, bool bold)
{
    char *clean = sr_plain_text_dup(s);
    if (!clean) {
        cv->failed = true;
        return 0;
    }
    double w = clean_width(cv, clean, size, bold);
    free(clean);
    return w;
}

double sr_canvas_text(sr_canvas *cv, double x, double y, const char *s, double size, bool bold, double align,
                      sr_rgb color)
{
    char *clean = sr_plain_text_dup(s);
    if (!clean) {
        cv->failed = true;
        return 0;
    }
    double w = clean_width(cv, clean, size, bold);
    set_color(cv, color);
    cairo_move_to(cv->cr, x - w * align, y);
    cairo_show_text(cv->cr, clean);
    free(clean);
    return w;
}

#define ELLIPSIS "\xE2\x80\xA6"
#define MAX_LABEL_BYTES 400

char *sr_canvas_fit(sr_canvas *cv, const char *s, double size, bool bold, double max_width)
{
    char *clean = sr_plain_text_dup(s);
    if (!clean) {
        cv->failed = true;
        return NULL;
    }
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
        if (sb.failed || clean_width(cv, sb.data, size, bold) > max_width)
            break;
        best = i;
    }
    sb.len = 0;
    sr_strbuf_append(&sb, clean, best);
    sr_strbuf_puts(&sb, ELLIPSIS);
    free(clean);
    char *out = sr_strbuf_detach(&sb);
    if (!out)
        cv->failed = true;
    return out;
}

/* Greedy word wrap; draw when draw is set. The last of max_lines lines
 * takes the rest of the text, cut with "…" if it is too long. Returns the
 * line count. */
static int wrap(sr_canvas *cv, double x, double y, const char *s, double size, double line_height, double max_width,
                int max_lines, sr_rgb color, bool draw)
{
    char *clean = sr_plain_text_dup(s);
    if (!clean) {
        cv->failed = true;
        return 0;
    }
    sr_strbuf line;
    sr_strbuf_init(&line);
    int lines = 0;
    const char *p = clean;
    while (*p && !line.failed) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        if (lines == max_lines - 1) { /* the last line allowed */
            char *fit = sr_canvas_fit(cv, p, size, false, max_width);
            if (fit && draw)
                sr_canvas_text(cv, x, y + lines * line_height, fit, size, false, 0, color);
            free(fit);
            lines++;
            break;
        }
        /* Take words while they fit (at least one). */
        const char *end = p;
        line.len = 0;
        while (*end) {
            const char *w = end;
            while (*w == ' ')
                w++;
            const char *w_end = w;
            while (*w_end && *w_end != ' ')
                w_end++;
            if (w == w_end)
                break;
            size_t keep = line.len;
            sr_strbuf_append(&line, end, (size_t)(w_end - end));
            if (line.failed)
                break;
            if (keep > 0 && clean_width(cv, line.data, size, false) > max_width) {
                line.len = keep;
                line.data[keep] = '\0';
                break;
            }
            end = w_end;
        }
        if (draw && line.len > 0)
            sr_canvas_text(cv, x, y + lines * line_height, line.data, size, false, 0, color);
        lines++;
        p = end;
    }
    if (line.failed)
        cv->failed = true;
    sr_strbuf_free(&line);
    free(clean);
    return lines;
}

int sr_canvas_wrapped(sr_canvas *cv, double x, double y, const char *s, double size, double line_height,
                      double max_width, int max_lines, sr_rgb color)
{
    return wrap(cv, x, y, s, size, line_height, max_width, max_lines, color, true);
}

int sr_canvas_wrapped_lines(sr_canvas *cv, const char *s, double size, double max_width)
{
    return wrap(cv, 0, 0, s, size, 0, max_width, 1 << 20, sr_black, false);
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
