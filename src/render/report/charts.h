/* The report's charts drawn into the PDF (charts.c); what every chart
 * shares is canvas/chart.h's. */
#ifndef SR_RENDER_REPORT_CHARTS_H
#define SR_RENDER_REPORT_CHARTS_H

#include "render/canvas/chart.h"
#include "render/render.h"

/* Draw a chart as vector graphics onto PDF pages where place() says: crisp
 * at any zoom and its text selectable. A chart taller than max_height
 * design units is drawn in parts of whole rows ("part 1 of 3"), each no
 * taller and with the same axes, place() called once per part. libharu's
 * own errors go to the document's error handler. */
sr_error *sr_draw_chart_pdf(const sr_sweep *sweep, sr_chart_kind kind, double max_height, sr_pdf_chart_placer place,
                            void *ctx);

#endif
