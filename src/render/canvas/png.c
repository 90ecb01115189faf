/* PNG encoding of a chart's pixels with libpng. It touches no cairo state,
 * so report.c runs it on any thread while cairo stays on one.
 *
 * libpng's row writer with about the settings of its simplified writer's
 * PNG_IMAGE_FLAG_FAST (no row filter, the sRGB chunk) but zlib's level 2
 * (it was 3) and memory level 6 (it was 8): zlib shifts every entry of its
 * hash table (32,768 at memory level 8, 8,192 at 6) and of its 32,768-entry
 * chain table each time its 32 KiB window moves on, and at 2x (66 MB of
 * pixels a report) that shifting was half of zlib's time. The charts'
 * matches are runs and repeated rows, which the smaller table and the
 * shorter search find about as well: 12 % less encoding time, 3 % more
 * bytes on the 60-model report's charts (docs/performance.md). cairo's own
 * writer uses zlib's default level and tries every filter on every row,
 * three times slower on these mostly flat images, and its files were no
 * smaller (787 against 794 kB for a 1,600 x 4,476 chart). */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "render/canvas/png.h"

/* zlib's level and memLevel for the charts (6 and 8 are its defaults):
 * see above. */
#define SR_PNG_ZLIB_LEVEL 2
#define SR_PNG_ZLIB_MEM_LEVEL 6

/* What libpng writes into, and its error message: on the heap, since
 * libpng changes them between setjmp and its longjmp. */
typedef struct png_sink {
    char *data;
    size_t len, cap;
    char message[128];
} png_sink;

static void sink_write(png_structp png, png_bytep bytes, png_size_t n)
{
    png_sink *s = png_get_io_ptr(png);
    if (n > s->cap - s->len) {
        size_t cap = s->cap * 2 > s->len + n ? s->cap * 2 : s->len + n;
        s->data = sr_xrealloc(s->data, cap + 1);
        s->cap = cap;
    }
    memcpy(s->data + s->len, bytes, n);
    s->len += n;
}

static void sink_flush(png_structp png)
{
    (void)png;
}

/* libpng's message for the error below (it longjmps after calling this). */
static void on_error(png_structp png, png_const_charp message)
{
    png_sink *s = png_get_error_ptr(png);
    snprintf(s->message, sizeof s->message, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;
}

/* libpng's and zlib's memory through ours: out of memory exits as
 * everywhere else (util/alloc.h), not as a PNG error ("insufficient
 * memory") that would read as a fault of the chart. */
static png_voidp png_alloc(png_structp png, png_alloc_size_t size)
{
    (void)png;
    return sr_xmalloc(size ? size : 1);
}

static void png_release(png_structp png, png_voidp mem)
{
    (void)png;
    free(mem);
}

sr_error *sr_encode_png(const char *rgb, size_t rgb_len, size_t width, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    if (width == 0 || width > 0x7fffffff / 3 || rgb_len == 0 || rgb_len % (width * 3) != 0 ||
        rgb_len / (width * 3) > 0x7fffffff)
        return sr_error_new(SR_EXIT_FAILURE, NULL, 0,
                            "cannot encode the chart as PNG: %zu bytes are not rows of %zu pixels", rgb_len, width);
    size_t row_bytes = width * 3, height = rgb_len / row_bytes;
    png_sink *sink = sr_xcalloc(1, sizeof *sink);
    snprintf(sink->message, sizeof sink->message, "out of memory");
    sink->cap = rgb_len / 32 + 1024; /* the charts compress about 30 to 1; grown if not */
    sink->data = sr_xmalloc(sink->cap + 1);
    png_structp png =
        png_create_write_struct_2(PNG_LIBPNG_VER_STRING, sink, on_error, on_warning, NULL, png_alloc, png_release);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        sr_error *e = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot encode the chart as PNG: %s", sink->message);
        free(sink->data);
        free(sink);
        return e;
    }
    png_set_write_fn(png, sink, sink_write, sink_flush);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_level(png, SR_PNG_ZLIB_LEVEL);
    png_set_compression_mem_level(png, SR_PNG_ZLIB_MEM_LEVEL);
    png_write_info(png, info);
    for (size_t y = 0; y < height; y++)
        png_write_row(png, (png_const_bytep)(rgb + y * row_bytes));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    sink->data[sink->len] = '\0';
    *out = sr_xrealloc(sink->data, sink->len + 1);
    *len = sink->len;
    free(sink);
    return NULL;
}
