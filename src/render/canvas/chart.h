/* What every chart and the PDF they are drawn into share: the fonts (one
 * file, so every output looks the same), a chart's design width, and where
 * a chart goes on a PDF page. */
#ifndef SR_RENDER_CANVAS_CHART_H
#define SR_RENDER_CANVAS_CHART_H

#include <hpdf.h>

#include "render/render.h" /* SR_CHART_PIXEL_WIDTH */

/* DejaVu Sans: the Debian package fonts-dejavu-core (scripts/ensure-deps.sh
 * checks for it). It carries Δ, ±, ≥, − and most Latin, Greek and Cyrillic. */
#define SR_FONT_SANS "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#define SR_FONT_SANS_BOLD "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

/* Design size of a chart: SVG user units (pt); the PNG is drawn at
 * SR_CHART_PNG_SCALE times this (1,600 px wide): a PNG is for slides and
 * high-density screens, where 800 px was soft (issue 33). It costs about
 * 0.2-0.3 CPU s on every report, whatever its size; --outputs without png
 * draws none (the HTML inlines the SVG, the PDF draws vectors). */
#define SR_CHART_WIDTH 800
#define SR_CHART_PNG_SCALE 2
_Static_assert(SR_CHART_WIDTH *SR_CHART_PNG_SCALE == SR_CHART_PIXEL_WIDTH, "PNG width");

/* Where a chart goes on a PDF page: the page, the document's fonts, the
 * bottom-left corner in points and the points per design unit. */
typedef struct sr_pdf_chart_place {
    HPDF_Doc doc; /* in an error state (out of memory) nothing more is drawn */
    HPDF_Page page;
    HPDF_Font regular, bold; /* UTF-8 encoded, as the PDF's own text */
    double x, y, scale;
} sr_pdf_chart_place;
/* Called once the chart knows its design size (width x height units). */
typedef void (*sr_pdf_chart_placer)(void *ctx, double width, double height, sr_pdf_chart_place *where);

#endif
