/* The one writer of OUT_DIR: a document's files, rendered in memory, written
 * as one set (docs/reliability.md, "The output writer"). */
#ifndef SR_UTIL_OUTSET_H
#define SR_UTIL_OUTSET_H

#include <stddef.h>

#include "util/error.h"

/* An output file made in memory, to be written below an output directory:
 * every subcommand renders all of them first, then writes them all. */
typedef struct sr_output {
    char name[64]; /* path below the directory: "report.json", "charts/speed_ratio.png" */
    char *data;
    size_t len;
} sr_output;

/* What the writer tells the user without failing: entries it met and left
 * alone (a staging directory a killed run may have left, which it cannot
 * prove it made). Sentences, heap-allocated. */
typedef struct sr_outset_notes {
    char **lines;
    size_t n;
} sr_outset_notes;
void sr_outset_notes_release(sr_outset_notes *notes);

/* Write out[0..n) below out_dir as one set. The rules:
 * - out_dir is made if missing; it and every directory below it that a
 *   name holds ("charts/") are opened without following a symbolic link:
 *   a link there is refused (exit 1, nothing written). Every later step is
 *   relative to those descriptors (openat, renameat, unlinkat).
 * - One run at a time: an flock on out_dir/.sweep-report.lock (a second run
 *   is refused, exit 1).
 * - Every file is written and synced into a staging directory the writer
 *   makes itself (out_dir/.sweep-report.new.XXXXXXXX), then, file by file,
 *   the old one of its name is moved into the staging directory and the new
 *   one moved in (an output whose data is NULL: the old one is only moved
 *   out). A failure at any step moves back what was moved: out_dir then
 *   holds the previous set whole. From the lock on, every signal that
 *   would end the process (but SIGKILL and the faults, write_safe.h)
 *   waits until the set is switched.
 * - Files are made with mode 0666 and directories with 0777, less the
 *   umask.
 * - Only what this run created or moved into its staging directory is
 *   deleted; nothing is found by its name. Leftovers of a killed run are
 *   left alone and named in notes (may be NULL).
 * Other files in out_dir are never touched. */
sr_error *sr_write_outputs(const char *out_dir, const sr_output *out, size_t n, sr_outset_notes *notes);

/* Free the outputs' data. */
void sr_outputs_release(sr_output *out, size_t n);

#endif
