/* The one word-wrapper of the renderers (PDF pages and charts): greedy,
 * breaking after spaces and after / - _ = ; (ids and paths break there
 * too, but a word that fits a line of its own is moved there whole rather
 * than split), and inside a word only when the word alone is too wide, on
 * a UTF-8 character boundary. Widths come from the caller's font. */
#ifndef SR_RENDER_SHARED_WRAP_H
#define SR_RENDER_SHARED_WRAP_H

#include <stdbool.h>
#include <stddef.h>

#include "util/text_list.h"

/* Width of s[0, len) in the caller's units. */
typedef double (*sr_measure_fn)(void *ctx, const char *s, size_t len);

/* Wrap clean text (valid UTF-8, no control characters) into lines no wider
 * than width (a line holds at least one character); trailing spaces
 * dropped; at least one line. */
void sr_wrap(const char *text, double width, sr_measure_fn measure, void *ctx, sr_text_list *lines);

/* Figures a line must not break inside, for the PDF's cells and
 * paragraphs and the HTML's tables: the spaces inside a short bracketed
 * figure ("[0.35, 0.37]", "(exceeds 8,192)"; a parenthesis only around a
 * digit), between a figure and the interval after it, before a range's
 * dash, made no-break spaces (U+00A0). Fresh string. */
char *sr_spans_unbroken(const char *s);
/* A number and its unit ("52.1 tok/s", "708 ms", "1,024 tok") joined by a
 * no-break space. Fresh string. */
char *sr_units_unbroken(const char *s);

#endif
