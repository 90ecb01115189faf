/* Walking an export directory: the regular files below a directory in name
 * order, with the export's symlink policy (a link is followed only when it
 * stays inside the export). Every path met that is not handed back is
 * recorded in the sink's inputs as ignored, with the reason, so that every
 * file under the export is accounted for. */
#ifndef SR_INGEST_WALK_H
#define SR_INGEST_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "model/sweep.h"
#include "util/error.h"

typedef struct sr_found_file {
    char *rel;  /* export-relative path, used in reports and messages */
    char *open; /* path to open (a symlink's resolved target) */
} sr_found_file;

typedef struct sr_file_list {
    sr_found_file *items;
    size_t n, cap;
} sr_file_list;

void sr_file_list_add(sr_file_list *list, const char *rel, const char *open_path);
void sr_file_list_release(sr_file_list *list);

typedef struct sr_walker {
    const char *root_real;  /* realpath of the export */
    const char *export_dir; /* as given, for messages */
    sr_sweep *sink;         /* where ignored paths and warnings go */
    bool keep_going;
} sr_walker;

/* True when path (resolved) is root or below it. */
bool sr_path_inside(const char *root, const char *path);

/* Append the regular files below abs_dir (named rel_dir in messages) to
 * out, in name order, depth first. A directory where a result file should
 * be (a name ending in .log, .json, .jsonl, .csv) is an input error, or with
 * keep_going a warning. */
sr_error *sr_walk_files(const sr_walker *w, const char *abs_dir, const char *rel_dir, sr_file_list *out);

/* A file named on the command line (a claims file) that lies inside the
 * export by its name follows the export's link rule: a link from there to
 * outside the export is an input error, as the walk refuses it. */
sr_error *sr_check_named_file(const char *export_dir, const char *path);

#endif
