/* candidates.md, candidates.html and candidates.pdf are one outline
 * (outline.c), laid out by the document layer's writers (render/doc/doc.h). */
#ifndef SR_RENDER_SURVEY_OUTLINE_H
#define SR_RENDER_SURVEY_OUTLINE_H

#include "model/survey.h"

/* The outline of candidates.md, candidates.html and candidates.pdf
 * (survey/outline.c; render/doc/doc.h's writers lay it out); svg: the chart
 * already drawn (borrowed until written), or NULL. Free with sr_doc_free. */
struct sr_doc;
struct sr_doc *sr_survey_outline(const sr_survey *s, const char *svg);

#endif
