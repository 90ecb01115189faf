/* Each PDF font's ToUnicode map, rewritten before the PDF is saved
 * (pdf_tounicode.c): what lets a reader search, copy and extract the text.
 * Internal to src/render. */
#ifndef SR_RENDER_PDF_TOUNICODE_H
#define SR_RENDER_PDF_TOUNICODE_H

#include <hpdf.h>

/* libharu 2.3.0 gives a TrueType font under its UTF-8 encoder that
 * encoder's CMap as the ToUnicode: a cidrange mapping every code to 0,
 * which a ToUnicode may not hold (PDF 1.7, 9.10.3), so viewers guess and
 * poppler warns on every page. Under that encoder a character code is the
 * character's own Basic Multilingual Plane code point (the CIDToGIDMap
 * finds its glyph), so the right map is the identity: written here in its
 * place, as bfranges. font: from HPDF_GetFont(doc, ttf, "UTF-8"); any
 * other font is left as it is. */
void sr_pdf_write_to_unicode(HPDF_Font font);

#endif
