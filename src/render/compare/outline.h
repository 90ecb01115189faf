/* compare.md, compare.html and compare.pdf are one outline (outline.c),
 * laid out by the document layer's three writers (render/doc/doc.h). */
#ifndef SR_RENDER_COMPARE_OUTLINE_H
#define SR_RENDER_COMPARE_OUTLINE_H

#include "model/comparison.h"

/* The outline of compare.md, compare.html and compare.pdf (render/doc/doc.h:
 * sr_doc_markdown, sr_doc_html, sr_doc_pdf lay it out); svg[k]: chart k
 * already drawn (inlined as is by HTML, borrowed until the outline is
 * written), or NULL (svg or an entry: drawn when written). Free with
 * sr_doc_free. */
struct sr_doc;
struct sr_doc *sr_compare_outline(const sr_comparison *c, const char *const *svg);

#endif
