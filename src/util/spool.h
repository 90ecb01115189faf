/* An output too big to hold until the set is written (report.json of ten
 * thousand models is 220 MB, report.sqlite 300 MB): its bytes in a
 * temporary file of $TMPDIR, copied into OUT_DIR's staging directory by the
 * writer (util/outset.h, sr_output.spool) in place of a buffer. And the
 * sink the renderers write such a file through: a growing buffer that
 * moves to a spool once it passes a limit, so a small report stays in
 * memory and a big one never is. */
#ifndef SR_UTIL_SPOOL_H
#define SR_UTIL_SPOOL_H

#include <stddef.h>

#include "util/error.h"
#include "util/strbuf.h"

typedef struct sr_spool sr_spool;

/* A new, empty spool: an unlinked temporary file (nothing is left behind
 * on any exit). */
sr_error *sr_spool_open(sr_spool **out);
/* A file someone else wrote at path (report.sqlite's build), open as fd:
 * the spool owns both, and removes the file when freed. */
sr_spool *sr_spool_adopt(int fd, char *path);
sr_error *sr_spool_write(sr_spool *s, const void *data, size_t len);
/* Its size in bytes. */
size_t sr_spool_size(const sr_spool *s);
/* The path it can be opened by (an adopted file), or NULL. */
const char *sr_spool_path(const sr_spool *s);
/* Up to n bytes from offset at into buf; *got how many (fewer only at the end). */
sr_error *sr_spool_read_at(const sr_spool *s, size_t at, void *buf, size_t n, size_t *got);
/* Its bytes, from the start, written to fd; their SHA-256 (hex) into
 * sha256 as they are copied (the writer's manifest), unless it is NULL. */
sr_error *sr_spool_copy_to(const sr_spool *s, int fd, char sha256[65]);
/* Its bytes in memory (*data NUL-terminated; free it): for the tests. */
sr_error *sr_spool_read_all(const sr_spool *s, char **data, size_t *len);
void sr_spool_free(sr_spool *s); /* NULL: nothing */

/* ---- the sink ------------------------------------------------------------------- */

/* Renderers append to buf and call sr_sink_step where a row or an element
 * ends; past limit bytes what buf holds moves to a spool. */
typedef struct sr_sink {
    sr_strbuf buf;
    sr_spool *spool; /* NULL until the first move */
    size_t limit;    /* 0: never spooled */
    sr_error *err;   /* the first failure; later steps do nothing */
} sr_sink;

/* The limit past which the report's big files leave memory. */
#define SR_SINK_LIMIT ((size_t)1 << 20)

void sr_sink_init(sr_sink *k, size_t limit);
void sr_sink_step(sr_sink *k);
/* The bytes as a buffer (*spool NULL) or as a spool (*data NULL, *len its
 * size); the sink is emptied. On an error nothing is handed over. */
sr_error *sr_sink_finish(sr_sink *k, char **data, size_t *len, sr_spool **spool);
void sr_sink_release(sr_sink *k);

#endif
