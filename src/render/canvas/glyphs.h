/* Text as the embedded fonts draw it. The charts (cairo, FreeType) and the
 * PDF (libharu) draw with DejaVu Sans and nothing else: a character it has
 * no glyph for prints as nothing (libharu) or as the same empty box
 * (cairo), so "org/m-😀" and "org/m-😁" both read "org/m-". */
#ifndef SR_RENDER_CANVAS_GLYPHS_H
#define SR_RENDER_CANVAS_GLYPHS_H

#include <stdbool.h>
#include <stddef.h>

/* s made fit to draw: sr_plain_text_dup's rules (valid UTF-8, controls as
 * spaces), every character that cannot be drawn (sr_font_has_glyph)
 * written as its code point ("U+1F600"), and, when max_bytes is not 0,
 * cut on a character boundary to at most max_bytes with "…". Fresh, never
 * NULL (s NULL -> ""). Safe from any thread. */
char *sr_font_text_dup(const char *s, size_t max_bytes);

#endif
