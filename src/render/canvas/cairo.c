/* The cairo backend of the chart canvas: PNG (pixels drawn at
 * SR_CHART_PNG_SCALE, encoded by png.c) and SVG surfaces, the DejaVu fonts through FreeType,
 * and the SVG clean-up that makes the bytes reproducible and the ids unique
 * per chart. */
#include <cairo-ft.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/canvas/canvas.h"
#include "render/canvas/png.h"
#include "util/alloc.h"
#include "util/escape.h"

typedef struct cairo_canvas {
    sr_chart_format format;
    unsigned char *pixels; /* PNG: the image surface's memory, this thread's scratch (not freed) */
    int pixel_w, pixel_h, stride;
    cairo_surface_t *surface;
    cairo_t *cr;
    cairo_font_face_t *regular, *bold;
    sr_strbuf svg; /* what the SVG surface wrote */
} cairo_canvas;

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
    ft_holder *h = sr_xcalloc(1, sizeof *h);
    FT_Error err = FT_Init_FreeType(&h->lib);
    if (err != 0) {
        free(h);
        return err == FT_Err_Out_Of_Memory ? sr_oom() : sr_error_new(SR_EXIT_FAILURE, path, 0, "cannot start FreeType");
    }
    /* Out of memory is told apart: the font is there, the machine is full. */
    err = FT_New_Face(h->lib, path, 0, &h->face);
    if (err != 0) {
        FT_Done_FreeType(h->lib);
        free(h);
        return err == FT_Err_Out_Of_Memory
                   ? sr_oom()
                   : sr_error_new(SR_EXIT_FAILURE, path, 0, "cannot load the chart font (install fonts-dejavu-core)");
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

/* ---- surfaces ---------------------------------------------------------- */

static cairo_status_t write_cb(void *closure, const unsigned char *data, unsigned int length)
{
    sr_strbuf *sb = closure;
    sr_strbuf_append(sb, (const char *)data, length);
    return CAIRO_STATUS_SUCCESS;
}

static void release(sr_canvas *cv)
{
    cairo_canvas *cc = cv->impl;
    if (!cc)
        return;
    if (cc->cr)
        cairo_destroy(cc->cr);
    if (cc->surface) {
        cairo_surface_finish(cc->surface); /* may still write into cc->svg */
        cairo_surface_destroy(cc->surface);
    }
    if (cc->regular)
        cairo_font_face_destroy(cc->regular);
    if (cc->bold)
        cairo_font_face_destroy(cc->bold);
    sr_strbuf_release(&cc->svg);
    free(cc);
    cv->impl = NULL;
}

/* ---- SVG clean-up ------------------------------------------------------ */

typedef struct id_map {
    char **old, **new_;
    size_t *old_len; /* every glyph use looks its id up: no strlen each time */
    size_t n, cap_old, cap_new, cap_len;
} id_map;

static void id_map_free(id_map *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->old[i]);
        free(m->new_[i]);
    }
    free(m->old);
    free(m->new_);
    free(m->old_len);
}

static const char *id_map_get(const id_map *m, const char *s, size_t len)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->old_len[i] == len && memcmp(m->old[i], s, len) == 0)
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
static void collect_ids(const char *svg, size_t len, const char *prefix, id_map *m)
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
        char *new_ = surface ? sr_asprintf("%ssurface%ld", prefix, ++surfaces) : sr_asprintf("%s%s", prefix, old);
        void *a = m->old, *b = m->new_, *c = m->old_len;
        sr_grow(&a, &m->cap_old, m->n + 1, sizeof *m->old);
        m->old = a;
        sr_grow(&b, &m->cap_new, m->n + 1, sizeof *m->new_);
        m->new_ = b;
        sr_grow(&c, &m->cap_len, m->n + 1, sizeof *m->old_len);
        m->old_len = c;
        m->old[m->n] = old;
        m->old_len[m->n] = end - start;
        m->new_[m->n++] = new_;
        i = end;
    }
}

static void rewrite_ids(const char *svg, size_t len, const id_map *m, sr_strbuf *out)
{
    static const char *const refs[] = {" id=\"", "href=\"#", "url(#"};
    size_t i = 0, run = 0;
    while (i < len) {
        /* Most bytes start none of the references: one test, not three
         * prefix comparisons (they were 3 % of a report's CPU). */
        char c = svg[i];
        if (c != ' ' && c != 'h' && c != 'u') {
            i++;
            continue;
        }
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

static sr_error *svg_finish(const sr_strbuf *in, const char *prefix, const char *title, const char *desc, char **out,
                            size_t *len)
{
    const char *svg = sr_strbuf_cstr(in);
    size_t n = in->len;
    id_map m = {0};
    collect_ids(svg, n, prefix, &m);
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
    return NULL;
}

/* The pixels as packed 8-bit RGB (what sr_encode_png takes), in place:
 * cairo keeps a pixel as a native-endian 0xXXRRGGBB word, and a row's RGB
 * bytes never start after its words do, so rows are repacked front to back
 * in the same memory (a fresh 45 MB buffer cost more in page faults than
 * the repacking). On little-endian machines four pixels become three words
 * at once: a byte-swapped pixel's low three bytes are R, G, B in memory
 * order. Returns the byte count. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <tmmintrin.h>
#define PACK_SSSE3 1
/* Four pixels a step with SSSE3's byte shuffle (every x86-64 CPU since
 * 2006 has it; checked at run time): at 2x the charts are 22 million
 * pixels, and the word-by-word loop below was 6 % of a 60-model report.
 * In place like it: the 16 bytes a step stores end no later than the next
 * load starts, and the 4 past a row's 12 are overwritten by the next step
 * or row, or lie in the word of the row's unread part (the last step of a
 * row is done by the loop below). Returns the pixels done in the row. */
__attribute__((target("ssse3"))) static int pack_row_ssse3(const unsigned char *src, unsigned char *row, int w)
{
    const __m128i order = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    int x = 0;
    for (; x + 8 <= w; x += 4) { /* leave at least 4 pixels: the last store stays inside the row's words */
        __m128i p = _mm_loadu_si128((const __m128i *)(const void *)(src + (size_t)x * 4));
        _mm_storeu_si128((__m128i *)(void *)(row + (size_t)x * 3), _mm_shuffle_epi8(p, order));
    }
    return x;
}
#endif

static size_t pack_rgb(unsigned char *data, int w, int h, int stride)
{
    size_t row_bytes = (size_t)w * 3;
#ifdef PACK_SSSE3
    const bool ssse3 = __builtin_cpu_supports("ssse3");
#endif
    for (int y = 0; y < h; y++) {
        const unsigned char *src = data + (size_t)y * (size_t)stride;
        unsigned char *row = data + (size_t)y * row_bytes;
        int x = 0;
#ifdef PACK_SSSE3
        if (ssse3)
            x = pack_row_ssse3(src, row, w);
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        for (; x + 4 <= w; x += 4) {
            uint32_t p[4], q[4], word[3];
            memcpy(p, src + (size_t)x * 4, sizeof p); /* read before the write below */
            for (int i = 0; i < 4; i++)
                q[i] = __builtin_bswap32(p[i]) >> 8; /* R | G << 8 | B << 16 */
            word[0] = q[0] | q[1] << 24;
            word[1] = q[1] >> 8 | q[2] << 16;
            word[2] = q[2] >> 16 | q[3] << 8;
            memcpy(row + (size_t)x * 3, word, sizeof word);
        }
#endif
        for (; x < w; x++) {
            uint32_t v;
            memcpy(&v, src + (size_t)x * 4, 4);
            row[3 * x] = (unsigned char)(v >> 16);
            row[3 * x + 1] = (unsigned char)(v >> 8);
            row[3 * x + 2] = (unsigned char)v;
        }
    }
    return row_bytes * (size_t)h;
}

static sr_error *finish(sr_canvas *cv, const char *id_prefix, const char *title, const char *desc, char **out,
                        size_t *len)
{
    cairo_canvas *cc = cv->impl;
    cairo_status_t st = cairo_status(cc->cr);
    cairo_destroy(cc->cr);
    cc->cr = NULL;
    if (st != CAIRO_STATUS_SUCCESS)
        return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot draw the chart: %s", cairo_status_to_string(st));
    if (cc->format == SR_CHART_PNG || cc->format == SR_CHART_RGB) {
        cairo_surface_finish(cc->surface); /* cairo is done with the pixels */
        cairo_surface_destroy(cc->surface);
        cc->surface = NULL;
        size_t n = pack_rgb(cc->pixels, cc->pixel_w, cc->pixel_h, cc->stride);
        if (cc->format == SR_CHART_PNG)
            return sr_encode_png((const char *)cc->pixels, n, (size_t)cc->pixel_w, out, len);
        cc->pixels[n] = '\0'; /* inside: the words took more room */
        *out = (char *)cc->pixels;
        *len = n;
        return NULL;
    }
    cairo_surface_finish(cc->surface);
    st = cairo_surface_status(cc->surface);
    if (st != CAIRO_STATUS_SUCCESS)
        return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot write the chart as SVG: %s", cairo_status_to_string(st));
    return svg_finish(&cc->svg, id_prefix, title, desc, out, len);
}

/* ---- drawing ----------------------------------------------------------- */

static void set_color(cairo_t *cr, sr_rgb c)
{
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

static void rect(sr_canvas *cv, double x, double y, double w, double h, sr_rgb fill)
{
    cairo_t *cr = ((cairo_canvas *)cv->impl)->cr;
    set_color(cr, fill);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill(cr);
}

static void line(sr_canvas *cv, double x1, double y1, double x2, double y2, double width, sr_rgb color, bool dashed)
{
    static const double dash[] = {5, 3};
    cairo_t *cr = ((cairo_canvas *)cv->impl)->cr;
    set_color(cr, color);
    cairo_set_line_width(cr, width);
    cairo_set_dash(cr, dash, dashed ? 2 : 0, 0);
    cairo_move_to(cr, x1, y1);
    cairo_line_to(cr, x2, y2);
    cairo_stroke(cr);
    cairo_set_dash(cr, dash, 0, 0);
}

static void shape(sr_canvas *cv, const double *xy, int n, double r, sr_rgb fill)
{
    cairo_t *cr = ((cairo_canvas *)cv->impl)->cr;
    set_color(cr, fill);
    if (n == 0) {
        cairo_arc(cr, xy[0], xy[1], r, 0, 2 * M_PI);
    } else {
        cairo_move_to(cr, xy[0], xy[1]);
        for (int i = 1; i < n; i++)
            cairo_line_to(cr, xy[2 * i], xy[2 * i + 1]);
        cairo_close_path(cr);
    }
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
}

static void use_font(cairo_canvas *cc, double size, bool bold)
{
    cairo_set_font_face(cc->cr, bold ? cc->bold : cc->regular);
    cairo_set_font_size(cc->cr, size);
}

static double text_width(sr_canvas *cv, const char *clean, double size, bool bold)
{
    cairo_canvas *cc = cv->impl;
    cairo_text_extents_t ext;
    use_font(cc, size, bold);
    cairo_text_extents(cc->cr, clean, &ext);
    return ext.x_advance;
}

static void text(sr_canvas *cv, double x, double y, const char *clean, double size, bool bold, sr_rgb color)
{
    cairo_canvas *cc = cv->impl;
    use_font(cc, size, bold);
    set_color(cc->cr, color);
    cairo_move_to(cc->cr, x, y);
    cairo_show_text(cc->cr, clean);
}

static const sr_canvas_ops cairo_ops = {rect, line, shape, text, text_width, finish, release};

sr_error *sr_canvas_open_cairo(sr_canvas *cv, sr_chart_format format)
{
    cairo_canvas *cc = sr_xcalloc(1, sizeof *cc);
    cv->ops = &cairo_ops;
    cv->impl = cc;
    cc->format = format;
    sr_strbuf_init(&cc->svg);
    sr_error *err = load_font(SR_FONT_SANS, &cc->regular);
    if (!err)
        err = load_font(SR_FONT_SANS_BOLD, &cc->bold);
    if (err)
        return err;
    if (format != SR_CHART_SVG) {
        double pw = ceil(cv->width * SR_CHART_PNG_SCALE), ph = ceil(cv->height * SR_CHART_PNG_SCALE);
        if (!(pw >= 1 && ph >= 1 && pw <= 32767 && ph <= 32767)) /* cairo's limit */
            return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot make a %.0fx%.0f pixel chart", pw, ph);
        cc->pixel_w = (int)pw;
        cc->pixel_h = (int)ph;
        cc->stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, cc->pixel_w);
        if (cc->stride <= 0)
            return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot make a %dx%d pixel chart", cc->pixel_w, cc->pixel_h);
        /* This thread's scratch, reused chart after chart: a fresh buffer
         * of 2x pixels cost its page faults and zeroing each time (5 % of
         * a 60-model report), and so did growing it exactly to the next
         * taller chart. Room for a NUL after the packed pixels. */
        size_t need = (size_t)cc->stride * (size_t)cc->pixel_h + 1;
        sr_scratch *px = sr_thread_scratch(SR_SCRATCH_PIXELS);
        if (!px)
            return sr_oom(); /* no thread-specific storage */
        if (px->cap < need) { /* twice the room: only the pages drawn on are ever faulted in */
            free(px->data);
            size_t room = need <= SIZE_MAX / 2 ? 2 * need : need;
            px->data = sr_xmalloc_pages(room);
            px->cap = room;
        }
        cc->pixels = px->data;
        cc->surface =
            cairo_image_surface_create_for_data(cc->pixels, CAIRO_FORMAT_RGB24, cc->pixel_w, cc->pixel_h, cc->stride);
    } else {
        cc->surface = cairo_svg_surface_create_for_stream(write_cb, &cc->svg, cv->width, cv->height);
        cairo_svg_surface_restrict_to_version(cc->surface, CAIRO_SVG_VERSION_1_1);
    }
    cc->cr = cairo_create(cc->surface);
    if (cairo_status(cc->cr) != CAIRO_STATUS_SUCCESS)
        return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot make a %.0fx%.0f chart: %s", cv->width, cv->height,
                            cairo_status_to_string(cairo_status(cc->cr)));
    if (format != SR_CHART_SVG)
        cairo_scale(cc->cr, SR_CHART_PNG_SCALE, SR_CHART_PNG_SCALE);
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    cairo_set_font_options(cc->cr, fo);
    cairo_font_options_destroy(fo);
    cairo_set_source_rgb(cc->cr, 1, 1, 1);
    cairo_paint(cc->cr);
    return NULL;
}
