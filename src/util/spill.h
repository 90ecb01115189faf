/* A spill file: numbers too many to hold (every inter-token latency of a
 * vLLM --save-detailed file of a gigabyte: tens of millions) appended to a
 * temporary file of $TMPDIR, unlinked at once (nothing is left behind,
 * whatever ends the process), and read back in chunks, as often as asked.
 * Appends are buffered; the buffer and a reader's chunk are all it holds. */
#ifndef SR_UTIL_SPILL_H
#define SR_UTIL_SPILL_H

#include <stddef.h>

#include "util/error.h"

typedef struct sr_spill sr_spill;

/* A new, empty spill file. */
sr_error *sr_spill_open(sr_spill **out);
/* n more values at its end. */
sr_error *sr_spill_append(sr_spill *s, const double *v, size_t n);
/* Values held (appended so far). */
size_t sr_spill_count(const sr_spill *s);
/* Up to n values from index from into buf (the appends flushed first);
 * *got is how many (fewer only at the end). */
sr_error *sr_spill_read(sr_spill *s, size_t from, double *buf, size_t n, size_t *got);
/* Close and free (NULL: nothing). */
void sr_spill_close(sr_spill *s);

#endif
