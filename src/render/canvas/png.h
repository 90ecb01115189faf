/* A chart's pixels (SR_CHART_RGB) encoded as the PNG (libpng; png.c). */
#ifndef SR_RENDER_CANVAS_PNG_H
#define SR_RENDER_CANVAS_PNG_H

#include <stddef.h>

#include "util/error.h"

sr_error *sr_encode_png(const char *rgb, size_t rgb_len, size_t width, char **out, size_t *len);

#endif
