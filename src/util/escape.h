/* Escaping text from the inputs for the outputs: HTML text and attributes,
 * XML/SVG text, plain text for PDF and chart labels, and the visible form
 * used by JSON, CSV, Markdown and the terminal. Every function also repairs
 * what the output cannot carry, keeping the original visible: a byte that
 * is not UTF-8 and a C0 control or DEL become the four characters "\xHH",
 * a C1 control or a noncharacter (U+FDD0..U+FDEF, U+xxFFFE/U+xxFFFF, which
 * cairo refuses) "\u{HHHH}"; so a hostile or broken input never breaks the
 * document around it (docs/reliability.md). */
#ifndef SR_UTIL_ESCAPE_H
#define SR_UTIL_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

/* Append s (len bytes) escaped for HTML text or a quoted attribute value
 * (either quote): & < > " ' become entities. Tab and newline are kept. */
void sr_escape_html(sr_strbuf *sb, const char *s, size_t len);
/* The same for XML 1.0 text and attributes (SVG): also drops the
 * characters XML forbids (U+FFFE, U+FFFF). */
void sr_escape_xml(sr_strbuf *sb, const char *s, size_t len);
/* NUL-terminated conveniences; fresh strings, never NULL (s NULL -> ""). */
char *sr_html_escape_dup(const char *s);

/* A copy of s fit for a PDF text line or a chart label: valid UTF-8, every
 * control character (tab, newline included) turned into a space. Fresh
 * string, never NULL (s NULL -> ""). */
char *sr_plain_text_dup(const char *s);

/* What sr_visible_text leaves as it is, beyond printable text. */
enum {
    SR_KEEP_TAB = 1,
    SR_KEEP_NEWLINE = 2,
    SR_KEEP_NONCHARACTERS = 4, /* JSON carries them */
    SR_KEEP_CONTROLS = 8,      /* every control character (JSON escapes them itself) */
};

/* The same as a fresh string (s NULL -> ""), never NULL. */
char *sr_visible_text_dup(const char *s, unsigned keep);
/* Text from the inputs printed on a terminal: nothing is kept, so an
 * escape sequence in a model name cannot retitle or clear the terminal. */
#define sr_terminal_text_dup(s) sr_visible_text_dup((s), 0)

/* Make every key and string of a cJSON tree (root and its siblings, and
 * all below) valid UTF-8, bytes that are not in their "\xHH" form, before
 * it is printed: cJSON copies bytes as they are. */
struct cJSON;
void sr_json_tree_visible(struct cJSON *node);

/* Decode one UTF-8 sequence at s (at most len bytes). Returns its length
 * (1..4) and stores the code point, or returns 0 for an invalid or
 * truncated sequence (len 0 also gives 0). */
size_t sr_utf8_decode(const char *s, size_t len, unsigned *cp);

#endif
