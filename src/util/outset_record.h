/* What the output writer (outset.h) records in OUT_DIR so that a later run
 * can tell its files from anyone else's: the manifest of the files runs
 * wrote there, and the lock file's line naming the staging directory of a
 * run under way (docs/reliability.md, "What a rerun leaves"). Both are
 * read as untrusted text: OUT_DIR may be a stranger's export. */
#ifndef SR_UTIL_OUTSET_RECORD_H
#define SR_UTIL_OUTSET_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SR_MANIFEST_NAME ".sweep-report.manifest"
#define SR_LOCK_NAME ".sweep-report.lock"
#define SR_STAGING_PREFIX ".sweep-report.new."
/* A manifest longer than this is not read (a real one is a few KiB). */
#define SR_MANIFEST_MAX_BYTES ((size_t)1 << 20)

/* An output's name: one or two plain parts ("report.json",
 * "charts/speed_ratio.png"), none empty or hidden, shorter than 64 bytes,
 * no control character: nothing that reaches above OUT_DIR or collides
 * with the writer's own dot-names. */
bool sr_output_name_is_plain(const char *name);

/* One file a run wrote: the command kind that wrote it ("report" for report
 * and audit, "compare", "survey"), its name below OUT_DIR, and what it was
 * when the run left it. */
typedef struct sr_written_file {
    char kind[16];
    char name[64];
    char sha256[65];
    unsigned long long size;
} sr_written_file;

typedef struct sr_written_set {
    sr_written_file *items;
    size_t n, cap;
    size_t n_bad; /* lines that did not parse (skipped) */
} sr_written_set;

/* The manifest's text: a heading line, then one line per file,
 * "KIND SHA256 SIZE NAME". A line that is not exactly that (a kind
 * not of [a-z], a name that is not plain, a number out of range) is
 * counted in n_bad and skipped; text with no heading is all bad. */
void sr_written_set_parse(const char *text, size_t len, sr_written_set *m);
void sr_written_set_add(sr_written_set *m, const sr_written_file *e);
/* The text, fresh (never NULL); *len its length. */
char *sr_written_set_format(const sr_written_set *m, size_t *len);
void sr_written_set_release(sr_written_set *m);

/* Whether name, below dir_fd (opened without following a link, O_NONBLOCK),
 * is a regular file still as e records it: the same size and SHA-256. An
 * edit or a link is not. */
bool sr_written_file_holds(int dir_fd, const char *name, const sr_written_file *e);

/* The lock file's line while a run is under way: the staging directory's
 * name, device and inode. parse is false for anything else (an empty lock
 * file, a name not of the staging prefix). */
char *sr_staging_record_format(const char *name, dev_t dev, ino_t ino);
bool sr_staging_record_parse(const char *text, size_t len, char name[64], dev_t *dev, ino_t *ino);

#endif
