/* A progress line for long runs on a terminal: "sweep-report: reading
 * 412/1,000 models", rewritten in place with \r at most ten times a second
 * and cleared before anything else is printed. Only when the stream is a
 * terminal (isatty), so pipes, files and the tests' captured stderr never
 * see it. The stages count their work with sr_progress_step from any
 * thread (an atomic counter); whichever thread finds the line due prints
 * it. Every function takes NULL and then does nothing. */
#ifndef SR_UTIL_PROGRESS_H
#define SR_UTIL_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct sr_progress sr_progress;

/* A progress line on stream, or NULL when stream is not a terminal. */
sr_progress *sr_progress_open(FILE *stream);
/* The same whether or not stream is a terminal, with the first line due
 * after first_ms and the next every interval_ms (the unit tests). */
sr_progress *sr_progress_open_always(FILE *stream, long first_ms, long interval_ms);
/* Start counting a stage: "<what> <done>/<total> <unit>" (what and unit
 * are static strings). Clears the line of the stage before. Not to be
 * called while another thread steps. */
void sr_progress_begin(sr_progress *p, const char *what, const char *unit, size_t total);
/* One more unit of the stage done; thread-safe. */
void sr_progress_step(sr_progress *p);
/* Clear the line if one is shown (before a summary, a warning or an
 * error is printed). */
void sr_progress_clear(sr_progress *p);
/* Clear and free. */
void sr_progress_close(sr_progress *p);
/* Lines printed so far (the tests). */
size_t sr_progress_lines(sr_progress *p);

#endif
