/* What the claims readers (claims_markdown.c, claims_csv.c) share, defined
 * in claims_parts.c. Not for other modules. */
#ifndef SR_INGEST_CLAIMS_PARTS_H
#define SR_INGEST_CLAIMS_PARTS_H

#include <stdbool.h>
#include <stddef.h>

#include "ingest/claims.h"

/* Past ASCII spaces, tabs, U+00A0 and U+202F. */
const char *sr_claims_skip_spaces(const char *p, const char *end);
/* Trim those from both ends. */
void sr_claims_trim(const char **s, size_t *len);
/* A number (sr_claims_parse_number's forms) starting at s: its end (after
 * a unit, if any), or NULL when none starts there. */
const char *sr_claims_number_at(const char *s, const char *end, sr_claim_number *out);
/* The report's verdict words ("baseline", "no measured difference",
 * "higher", "lower", "too few items"); the canonical one these words are,
 * or NULL. */
const char *sr_claims_verdict(const char *s, size_t len);
/* Remove Markdown decoration around a cell's text: spaces, **bold**,
 * _italics_, `code`, [links](...). */
void sr_claims_strip_inline(const char **s, size_t *len);
/* The cell's text without the marks the report puts after its figures
 * (render/shared/marks.c: † ‡ § ¶ ◊ ≠): they say how a figure was made, not
 * what it is. Fresh string of *len bytes (updated). */
char *sr_claims_without_marks(const char *s, size_t *len);
/* "384 of 768 failed": the flag the report's speed cells carry when
 * requests failed, which claims nothing. */
bool sr_claims_is_failed_flag(const char *s, size_t len);
/* Whether a header is "n": the items a row scored (its cells give each
 * claim of the row its n, the GRIM test's), no figure of its own. */
bool sr_claims_is_n_header(const char *s, size_t len);
/* A cell of the n column: a whole count of at least 1 into *n, -1 for a
 * cell that claims nothing; false when it is neither. */
bool sr_claims_row_n(const char *s, size_t len, long *n);
/* Bytes of s to quote in a message: at most 40, whole characters. */
size_t sr_claims_shown(const char *s, size_t len);

/* Append a claim: a number (words NULL) or words. */
void sr_claims_add(sr_claim_list *out, const char *path, long line, const char *model, size_t model_len,
                   const char *figure, const char *written, size_t written_len, const sr_claim_number *number,
                   const char *words);
/* Record a header that names no figure, once per normalised header. */
void sr_claims_add_unchecked(sr_claim_list *out, const char *path, long line, const char *header, size_t len);
/* End of one file's read: check duplicates (from index n on) unless err is
 * set; on any error drop what the read appended. Returns the error. */
sr_error *sr_claims_finish(sr_error *err, sr_claim_list *out, size_t n, size_t n_unchecked);

#endif
