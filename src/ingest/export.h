/* Reading an export (a copy of a sweep's results bucket): walk EXPORT_DIR,
 * recognise each file by name and content, hand it to its parser, and put
 * the result into the sweep under the right model. */
#ifndef SR_INGEST_EXPORT_H
#define SR_INGEST_EXPORT_H

#include "model/sweep.h"
#include "util/error.h"

/* Fill sweep (initialised, settings set) from export_dir. Input problems
 * return an error naming the file (exit 3), unless
 * sweep->settings.keep_going, when they become warnings and the affected
 * model or benchmark is left out. Symlinks that lead outside export_dir are
 * refused with a warning. */
sr_error *sr_load_export(sr_sweep *sweep, const char *export_dir);

/* --configs DIR (configs_dir.c): every entry without a config.json of its
 * own takes its model's from dir (sr_configs_find), read, hashed and
 * recorded among the inputs under the path dir/<rel> as given, and parsed
 * as an export's; an entry that has one keeps it (a warning when dir's
 * differs); one that gets none is marked config_searched. A missing or
 * unreadable dir is an input error. */
sr_error *sr_attach_configs(sr_sweep *sweep, const char *dir);

#endif
