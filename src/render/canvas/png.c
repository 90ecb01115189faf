/* PNG encoding of a chart's pixels with libpng. It touches no cairo state,
 * so report.c runs it on any thread while cairo stays on one.
 *
 * libpng's simplified writer with PNG_IMAGE_FLAG_FAST (no row filter, zlib
 * level 3): cairo's own writer uses zlib's default level and tries every
 * filter on every row, three times slower on these mostly flat images, and
 * its files were no smaller (787 against 794 kB for a 1,600 x 4,476
 * chart). */
#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "util/alloc.h"

sr_error *sr_encode_png(const char *rgb, size_t rgb_len, size_t width, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    if (width == 0 || width > 0x7fffffff / 3 || rgb_len == 0 || rgb_len % (width * 3) != 0 ||
        rgb_len / (width * 3) > 0x7fffffff)
        return sr_error_new(SR_EXIT_FAILURE, NULL, 0,
                            "cannot encode the chart as PNG: %zu bytes are not rows of %zu pixels", rgb_len, width);
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)width;
    image.height = (png_uint_32)(rgb_len / (width * 3));
    image.format = PNG_FORMAT_RGB;
    image.flags = PNG_IMAGE_FLAG_FAST;
    png_alloc_size_t cap = PNG_IMAGE_PNG_SIZE_MAX(image), n = cap;
    char *buf = sr_xmalloc(cap + 1); /* the worst case; pages never written cost nothing */
    if (!png_image_write_to_memory(&image, buf, &n, 0, rgb, 0, NULL) || n > cap) {
        sr_error *e = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot encode the chart as PNG: %s", image.message);
        png_image_free(&image);
        free(buf);
        return e;
    }
    buf[n] = '\0';
    *out = sr_xrealloc(buf, n + 1);
    *len = n;
    return NULL;
}
