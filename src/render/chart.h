/* What the chart, HTML and PDF renderers share beyond render.h: the fonts
 * (one file, so every output looks the same) and the charts' titles. */
#ifndef SR_CHART_H
#define SR_CHART_H

#include "render.h"

/* DejaVu Sans: the Debian package fonts-dejavu-core (scripts/ensure-deps.sh
 * checks for it). It carries Δ, ±, ≥, − and most Latin, Greek and Cyrillic. */
#define SR_FONT_SANS "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#define SR_FONT_SANS_BOLD "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

/* Design size of a chart: SVG user units (pt); the PNG is drawn at
 * SR_CHART_PNG_SCALE times this (1,600 px wide). */
#define SR_CHART_WIDTH 800
#define SR_CHART_PNG_SCALE 2

/* A chart's title ("Output throughput relative to the baseline"). */
const char *sr_chart_title(sr_chart_kind kind);

#endif
