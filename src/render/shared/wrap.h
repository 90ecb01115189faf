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

#endif
