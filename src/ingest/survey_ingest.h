/* Reading for `sweep-report survey` and for the survey's predictions in a
 * report: the Hub API model record (hub_record.c), a directory of saved
 * metadata in its three layouts (metadata_dir.c), and the survey's own
 * candidates.json when an export carries it (candidates.c). */
#ifndef SR_INGEST_SURVEY_INGEST_H
#define SR_INGEST_SURVEY_INGEST_H

#include <stdbool.h>
#include <stddef.h>

#include "model/survey.h"
#include "model/sweep.h"
#include "util/error.h"

/* ---- hub_record.c --------------------------------------------------------
 * The JSON of GET https://huggingface.co/api/models/<org>/<name>?blobs=true:
 * id, sha, cardData.{license, license_name, license_link}, tags
 * ("license:..."), gated, siblings[].{rfilename, size | lfs.size},
 * safetensors.{parameters, total}. Other keys are ignored. Errors name path
 * and the line of the field. */
sr_error *sr_parse_hub_record(const char *path, const char *data, size_t len, sr_hub_record *out);

/* True when s is a Hugging Face repo id "org/name": each part 1..96
 * characters of [A-Za-z0-9._-], not starting with '.' or '-'. */
bool sr_is_repo_id(const char *s, size_t len);

/* ---- metadata_dir.c ------------------------------------------------------
 * One model's pair of files in METADATA_DIR, in any of the layouts:
 *   <dir>/config.json + <dir>/model_info.json             (a directory per model)
 *   <org>--<name>.config.json + <org>--<name>.model_info.json
 *   models--<org>--<name>/snapshots/<rev>/config.json + models--<org>--<name>/model_info.json
 *                                                          (a Hugging Face hub cache)
 * Either file may be missing (rel NULL); the caller decides. */
typedef struct sr_metadata_files {
    char *name;        /* what names the model before its record is read: "org/name" from a
                          file or cache name, or the directory's name */
    bool name_is_id;   /* name is an org/name the record's id must match */
    char *config_rel;  /* METADATA_DIR-relative, for messages and outputs; NULL when missing */
    char *config_open; /* the resolved path to open */
    char *record_rel;
    char *record_open;
    char *problem_path; /* with problem: the METADATA_DIR-relative path it concerns */
    char *problem;      /* why the pair cannot be read ("missing: expected ..."), or NULL */
} sr_metadata_files;

#define SR_MAX_CONFIG_BYTES ((size_t)4 << 20)  /* config.json: a few kB in practice */
#define SR_MAX_RECORD_BYTES ((size_t)32 << 20) /* a record lists every file of the repo */

/* List the models of dir in name order. Symbolic links are followed only
 * when they stay inside dir; hidden names are skipped. Fills *out (free
 * with sr_metadata_files_free). An unreadable dir is an input error. */
sr_error *sr_metadata_scan(const char *dir, sr_metadata_files **out, size_t *n);
void sr_metadata_files_free(sr_metadata_files *files, size_t n);

/* The same scan for report/audit/compare --configs DIR: config.json files
 * alone, in the same layouts (no Hub record expected), and
 * <org>_<name>/config.json, <name>/config.json as directories per model.
 * Messages call dir "--configs DIR". */
sr_error *sr_configs_scan(const char *dir, sr_metadata_files **out, size_t *n);
/* The config of an entry's model id among files (sr_configs_scan's): the
 * id's own (<org>--<name>.config.json, models--<org>--<name>/), else
 * <org>_<name>/, else <name>/. An id that is a path or a bare name (a
 * local checkpoint) is matched by its last component: <name>/, else the one
 * org/name item of that name. NULL when none (or two org/name items
 * share the name). */
const sr_metadata_files *sr_configs_find(const sr_metadata_files *files, size_t n, const char *model_id);

/* Read a regular file of at most max bytes (NUL-terminated); rel names it
 * in errors. */
sr_error *sr_metadata_read(const char *open_path, const char *rel, size_t max, char **data, size_t *len);

/* ---- candidates.c --------------------------------------------------------
 * A survey's candidates.json in an export: each kept model's predicted KV
 * tokens go to every entry of the same model id (models not in the sweep are
 * skipped). */
sr_error *sr_parse_survey_candidates(const char *path, const char *data, size_t len, sr_sweep *sweep);
/* Read the export's candidates.json (rel names it, open_path opens it),
 * record it among the sweep's inputs, and parse it as above. Called by
 * export.c once the models are known. */
sr_error *sr_load_survey_candidates(sr_sweep *sweep, const char *rel, const char *open_path);

#endif
