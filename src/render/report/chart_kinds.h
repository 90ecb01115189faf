/* The report's charts by kind (render.h's sr_chart_kind): their titles,
 * read by each chart's drawing and by the outline's figures. */
#ifndef SR_RENDER_REPORT_CHART_KINDS_H
#define SR_RENDER_REPORT_CHART_KINDS_H

#include "render/render.h"

/* A chart's title ("Output throughput relative to the baseline"). */
const char *sr_chart_title(sr_chart_kind kind);

#endif
