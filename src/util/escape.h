/* Escaping text from the inputs for the outputs that interpret markup:
 * HTML text and attributes, XML/SVG text, and plain text for PDF and chart
 * labels. Every function also repairs what the output cannot carry: invalid
 * UTF-8 and control characters become U+FFFD (HTML/XML) or a space (plain),
 * so a hostile or broken input never breaks the document around it. */
#ifndef SR_ESCAPE_H
#define SR_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "strbuf.h"

/* Append s (len bytes) escaped for HTML text or a quoted attribute value
 * (either quote): & < > " ' become entities. Tab and newline are kept. */
void sr_escape_html(sr_strbuf *sb, const char *s, size_t len);
/* The same for XML 1.0 text and attributes (SVG): also drops the
 * characters XML forbids (U+FFFE, U+FFFF). */
void sr_escape_xml(sr_strbuf *sb, const char *s, size_t len);
/* NUL-terminated conveniences; fresh strings, NULL on OOM (s NULL -> ""). */
char *sr_html_escape_dup(const char *s);

/* A copy of s fit for a PDF text line or a chart label: valid UTF-8, every
 * control character (tab, newline included) turned into a space. Fresh
 * string, NULL on OOM (s NULL -> ""). */
char *sr_plain_text_dup(const char *s);

/* Decode one UTF-8 sequence at s (at most len bytes). Returns its length
 * (1..4) and stores the code point, or returns 0 for an invalid or
 * truncated sequence (len 0 also gives 0). */
size_t sr_utf8_decode(const char *s, size_t len, unsigned *cp);

#endif
