#include "render/doc/pdf_tounicode.h"

#include <hpdf_font.h>
#include <hpdf_objects.h>
#include <hpdf_streams.h>
#include <string.h>

#include "util/strbuf.h"

/* A CMap section holds at most 100 entries (Adobe TN 5099, 5014). */
#define RANGES_PER_SECTION 100

/* The identity from 2-byte codes to UTF-16, one bfrange per high byte
 * (a bfrange's ends may differ in their last byte only), the surrogates'
 * D800-DFFF left out: they are no characters. */
static void identity_cmap(sr_strbuf *sb)
{
    unsigned highs[256];
    size_t n = 0;
    for (unsigned h = 0; h < 256; h++)
        if (h < 0xD8 || h > 0xDF)
            highs[n++] = h;
    sr_strbuf_puts(sb, "/CIDInit /ProcSet findresource begin\n"
                       "12 dict begin\n"
                       "begincmap\n"
                       "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
                       "/CMapName /Adobe-Identity-UCS def\n"
                       "/CMapType 2 def\n"
                       "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n");
    for (size_t i = 0; i < n; i += RANGES_PER_SECTION) {
        size_t k = n - i < RANGES_PER_SECTION ? n - i : RANGES_PER_SECTION;
        sr_strbuf_printf(sb, "%zu beginbfrange\n", k);
        for (size_t j = i; j < i + k; j++)
            sr_strbuf_printf(sb, "<%02X00> <%02XFF> <%02X00>\n", highs[j], highs[j], highs[j]);
        sr_strbuf_puts(sb, "endbfrange\n");
    }
    sr_strbuf_puts(sb, "endcmap\n"
                       "CMapName currentdict /CMap defineresource pop\n"
                       "end\n"
                       "end\n");
}

void sr_pdf_write_to_unicode(HPDF_Font font)
{
    if (!font || !font->attr)
        return;
    HPDF_FontAttr attr = (HPDF_FontAttr)font->attr;
    HPDF_Dict to_unicode = attr->cmap_stream;
    /* Only the case described: a TrueType Type0 font whose ToUnicode is
     * the UTF-8 encoder's stream. */
    if (attr->type != HPDF_FONT_TYPE0_TT || !attr->encoder || strcmp(attr->encoder->name, "UTF-8") != 0 ||
        !to_unicode || !to_unicode->stream || HPDF_Dict_GetItem(font, "ToUnicode", HPDF_OCLASS_DICT) != to_unicode)
        return;
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    identity_cmap(&sb);
    HPDF_MemStream_FreeData(to_unicode->stream);
    /* A failed write is recorded by the document's error handler, which
     * sr_pdf_save reports. */
    HPDF_Stream_Write(to_unicode->stream, (const HPDF_BYTE *)sb.data, (HPDF_UINT)sb.len);
    sr_strbuf_release(&sb);
}
