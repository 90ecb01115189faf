/* Which characters the DejaVu faces can draw (glyphs.h): their character
 * maps read once through FreeType into sorted arrays, looked up from any
 * thread. */
#include "render/canvas/glyphs.h"

#include <ft2build.h>
#include FT_FREETYPE_H
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/canvas/chart.h" /* the fonts */
#include "util/alloc.h"
#include "util/escape.h"
#include "util/strbuf.h"

typedef struct coverage {
    uint32_t *cps; /* sorted */
    size_t n;
} coverage;

static coverage faces[2];
static bool fonts_read;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static bool read_cmap(FT_Library lib, const char *path, coverage *c)
{
    FT_Face face;
    if (FT_New_Face(lib, path, 0, &face) != 0)
        return false;
    size_t cap = 0;
    FT_UInt index;
    for (FT_ULong cp = FT_Get_First_Char(face, &index); index != 0; cp = FT_Get_Next_Char(face, cp, &index)) {
        if (c->n == cap) {
            cap = cap ? cap * 2 : 1024;
            c->cps = sr_xreallocarray(c->cps, cap, sizeof *c->cps);
        }
        c->cps[c->n++] = (uint32_t)cp; /* FreeType walks the map in order */
    }
    FT_Done_Face(face);
    return true;
}

static void read_fonts(void)
{
    FT_Library lib;
    if (FT_Init_FreeType(&lib) != 0)
        return;
    fonts_read = read_cmap(lib, SR_FONT_SANS, &faces[0]) && read_cmap(lib, SR_FONT_SANS_BOLD, &faces[1]);
    FT_Done_FreeType(lib);
}

static bool covered(const coverage *c, uint32_t cp)
{
    size_t lo = 0, hi = c->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->cps[mid] < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->n && c->cps[lo] == cp;
}

/* Whether the code point can be drawn: in the Basic Multilingual Plane
 * (libharu writes nothing else into the PDF) and given a glyph by both
 * faces (true for every BMP code point when the fonts cannot be read: the
 * renderers say so themselves). */
static bool sr_font_has_glyph(unsigned cp)
{
    if (cp >= 0x20 && cp < 0x7F)
        return true;
    /* libharu 2.3.0 encodes UTF-8 text for the PDF as 16-bit code units
     * and drops the rest: DejaVu's emoticons (U+1F600) would print as
     * nothing there, so past the BMP every chart and page shows the code. */
    if (cp > 0xFFFF)
        return false;
    pthread_once(&once, read_fonts);
    return !fonts_read || (covered(&faces[0], cp) && covered(&faces[1], cp));
}

#define ELLIPSIS "\xE2\x80\xA6"

char *sr_font_text_dup(const char *s, size_t max_bytes)
{
    char *plain = sr_plain_text_dup(s);
    size_t len = strlen(plain);
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    /* a name of megabytes is cut at once: nothing past max_bytes is shown */
    for (size_t i = 0; i < len && (!max_bytes || sb.len <= max_bytes);) {
        unsigned cp;
        size_t n = sr_utf8_decode(plain + i, len - i, &cp);
        if (n == 0) /* cannot happen after sr_plain_text_dup; keep the byte */
            n = 1;
        if (n == 1 || sr_font_has_glyph(cp))
            sr_strbuf_append(&sb, plain + i, n);
        else
            sr_strbuf_printf(&sb, "U+%04X", cp);
        i += n;
    }
    free(plain);
    if (max_bytes && sb.len > max_bytes) {
        /* the longest start on a character boundary that fits with "…" */
        size_t cut = max_bytes > strlen(ELLIPSIS) ? max_bytes - strlen(ELLIPSIS) : 0;
        while (cut > 0 && ((unsigned char)sb.data[cut] & 0xC0) == 0x80)
            cut--;
        sb.len = cut;
        sb.data[cut] = '\0';
        sr_strbuf_puts(&sb, ELLIPSIS);
    }
    return sr_strbuf_detach(&sb); /* "" when empty, never NULL */
}
