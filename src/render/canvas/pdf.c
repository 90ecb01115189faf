/* The PDF backend of the chart canvas: the chart is drawn with libharu's
 * path and text operators straight onto a page of report.pdf, so it stays
 * sharp at any zoom, its text can be selected and searched, and the PDF
 * needs no image (decoding and deflating the PNGs again was a quarter of
 * the time of a large report). The text uses the document's embedded
 * DejaVu fonts, the same faces the PNG and SVG are drawn with, so the
 * layout (what fits, what is cut with "…") matches theirs.
 *
 * Design units are y-down from the chart's top; the page is y-up. The
 * scale and offset go into the page's matrix (inside q ... Q), and the y
 * axis is flipped here, so text is not mirrored. libharu reports errors
 * to the document's handler (pdf.c), which keeps the first. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/canvas/canvas.h"
#include "util/alloc.h"

typedef struct pdf_canvas {
    sr_pdf_chart_place at;
    bool saved; /* inside q ... Q */
} pdf_canvas;

static HPDF_Page page_of(sr_canvas *cv)
{
    return ((pdf_canvas *)cv->impl)->at.page;
}

/* Once libharu has failed (an allocation), its next operators may read
 * what it could not make: draw nothing more; the document's handler kept
 * the error, so the report fails with it. */
static bool doc_failed(const sr_canvas *cv)
{
    const pdf_canvas *pc = cv->impl;
    return pc->at.doc && HPDF_GetError(pc->at.doc) != HPDF_OK;
}

/* A coordinate libharu can print: the layout should never give NaN or
 * infinity, but if it did, the op is dropped rather than written into the
 * content stream as text no reader can parse. */
static bool finite4(double a, double b, double c, double d)
{
    return isfinite(a) && isfinite(b) && isfinite(c) && isfinite(d);
}

/* Page y (before scaling) of design y. */
static HPDF_REAL flip(const sr_canvas *cv, double y)
{
    return (HPDF_REAL)(cv->height - y);
}

static void rect(sr_canvas *cv, double x, double y, double w, double h, sr_rgb fill)
{
    if (!finite4(x, y, w, h) || doc_failed(cv))
        return;
    HPDF_Page pg = page_of(cv);
    HPDF_Page_SetRGBFill(pg, (HPDF_REAL)fill.r, (HPDF_REAL)fill.g, (HPDF_REAL)fill.b);
    HPDF_Page_Rectangle(pg, (HPDF_REAL)x, flip(cv, y + h), (HPDF_REAL)w, (HPDF_REAL)h);
    HPDF_Page_Fill(pg);
}

static void line(sr_canvas *cv, double x1, double y1, double x2, double y2, double width, sr_rgb color, bool dashed)
{
    static const HPDF_UINT16 dash[] = {5, 3}; /* as the cairo backend's */
    if (!finite4(x1, y1, x2, y2) || !isfinite(width) || doc_failed(cv))
        return;
    HPDF_Page pg = page_of(cv);
    HPDF_Page_SetRGBStroke(pg, (HPDF_REAL)color.r, (HPDF_REAL)color.g, (HPDF_REAL)color.b);
    HPDF_Page_SetLineWidth(pg, (HPDF_REAL)width);
    if (dashed)
        HPDF_Page_SetDash(pg, dash, 2, 0);
    HPDF_Page_MoveTo(pg, (HPDF_REAL)x1, flip(cv, y1));
    HPDF_Page_LineTo(pg, (HPDF_REAL)x2, flip(cv, y2));
    HPDF_Page_Stroke(pg);
    if (dashed)
        HPDF_Page_SetDash(pg, NULL, 0, 0);
}

static void shape(sr_canvas *cv, const double *xy, int n, double r, sr_rgb fill)
{
    for (int i = 0; i < (n ? n : 1); i++)
        if (!finite4(xy[2 * i], xy[2 * i + 1], r, 0))
            return;
    if (doc_failed(cv))
        return;
    HPDF_Page pg = page_of(cv);
    HPDF_Page_SetRGBFill(pg, (HPDF_REAL)fill.r, (HPDF_REAL)fill.g, (HPDF_REAL)fill.b);
    HPDF_Page_SetRGBStroke(pg, 1, 1, 1);
    HPDF_Page_SetLineWidth(pg, 0.8f);
    if (n == 0) {
        HPDF_Page_Circle(pg, (HPDF_REAL)xy[0], flip(cv, xy[1]), (HPDF_REAL)r);
        HPDF_Page_FillStroke(pg);
        return;
    }
    HPDF_Page_MoveTo(pg, (HPDF_REAL)xy[0], flip(cv, xy[1]));
    for (int i = 1; i < n; i++)
        HPDF_Page_LineTo(pg, (HPDF_REAL)xy[2 * i], flip(cv, xy[2 * i + 1]));
    HPDF_Page_ClosePathFillStroke(pg);
}

static double text_width(sr_canvas *cv, const char *clean, double size, bool bold)
{
    const pdf_canvas *pc = cv->impl;
    size_t len = strlen(clean);
    if (len == 0)
        return 0;
    HPDF_TextWidth tw =
        HPDF_Font_TextWidth(bold ? pc->at.bold : pc->at.regular, (const HPDF_BYTE *)clean, (HPDF_UINT)len);
    return tw.width * size / 1000.0;
}

static void text(sr_canvas *cv, double x, double y, const char *clean, double size, bool bold, sr_rgb color)
{
    const pdf_canvas *pc = cv->impl;
    if (!clean[0] || !finite4(x, y, size, 0) || doc_failed(cv))
        return;
    HPDF_Page pg = pc->at.page;
    HPDF_Page_SetRGBFill(pg, (HPDF_REAL)color.r, (HPDF_REAL)color.g, (HPDF_REAL)color.b);
    HPDF_Page_BeginText(pg);
    HPDF_Page_SetFontAndSize(pg, bold ? pc->at.bold : pc->at.regular, (HPDF_REAL)size);
    HPDF_Page_TextOut(pg, (HPDF_REAL)x, flip(cv, y), clean);
    HPDF_Page_EndText(pg);
}

static void release(sr_canvas *cv)
{
    pdf_canvas *pc = cv->impl;
    if (!pc)
        return;
    if (pc->saved)
        HPDF_Page_GRestore(pc->at.page);
    free(pc);
    cv->impl = NULL;
}

static sr_error *finish(sr_canvas *cv, const char *id_prefix, const char *title, const char *desc, char **out,
                        size_t *len)
{
    (void)id_prefix, (void)title, (void)desc, (void)out, (void)len; /* the page is the output */
    release(cv);
    return NULL;
}

static const sr_canvas_ops pdf_ops = {rect, line, shape, text, text_width, finish, release};

sr_error *sr_canvas_open_pdf(sr_canvas *cv, sr_pdf_chart_placer place, void *ctx)
{
    pdf_canvas *pc = sr_xcalloc(1, sizeof *pc);
    cv->ops = &pdf_ops;
    cv->impl = pc;
    place(ctx, cv->width, cv->height, &pc->at);
    if (!(pc->at.scale > 0) || !isfinite(pc->at.scale))
        return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "no room for a %.0fx%.0f chart in the PDF", cv->width,
                            cv->height);
    HPDF_Page pg = pc->at.page;
    HPDF_Page_GSave(pg);
    pc->saved = true;
    HPDF_REAL s = (HPDF_REAL)pc->at.scale;
    HPDF_Page_Concat(pg, s, 0, 0, s, (HPDF_REAL)pc->at.x, (HPDF_REAL)pc->at.y);
    return NULL;
}
