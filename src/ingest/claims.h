/* Claims files: a published table of figures about a sweep, to be checked
 * against the export (docs/claims.md). Two forms:
 *   Markdown (.md, .markdown): every pipe table of the document; the first
 *     column names the model, the other columns are figures recognised by
 *     their header.
 *   CSV (.csv, libcsv): long form model,figure,value, header required.
 * The reader only reads and records: model names are matched and values
 * checked by src/analysis/claims.c. Errors name the file and line (exit 3):
 * an unreadable file, a table row that does not close or has the wrong
 * number of cells, a number that is not one, the same claim twice. */
#ifndef SR_INGEST_CLAIMS_H
#define SR_INGEST_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/claims.h"
#include "util/error.h"

/* A number as people write it: an optional sign (+, -, U+2212 minus),
 * digits with optional ',' thousands separators (groups of three), an
 * optional fraction and exponent, then optionally (after spaces) a unit:
 * % | pp | pts | points (PERCENT / POINTS), x | X | × (TIMES), tok | tokens
 * (PLAIN). */
typedef struct sr_claim_number {
    double value; /* as written, sign applied: 91.1 for "91.1%" */
    int decimals; /* digits after the point less the exponent: "0.57" 2, "1.5e3" -2 */
    sr_claim_unit unit;
} sr_claim_number;

/* Parse a whole cell as one number (surrounding spaces allowed); false
 * when it is not one. */
bool sr_claims_parse_number(const char *s, size_t len, sr_claim_number *out);

/* The figure a Markdown column header names (case, spaces and ',' ignored;
 * a trailing "[...]" or "(...)" note ignored when the rest is known), or
 * NULL: fresh string. */
char *sr_claims_header_figure(const char *header, size_t len, const sr_claim_alias *aliases, size_t n_aliases);

/* True for the cells that state no claim: empty, "-", "—", "–", "n/a". */
bool sr_claims_no_claim(const char *s, size_t len);

/* Read one claims file into out (appended), by its extension. On error out
 * is as it was. The claims' duplicates are checked against everything
 * already in out. */
sr_error *sr_read_claims(const char *path, const sr_claim_alias *aliases, size_t n_aliases, sr_claim_list *out);

/* The same from bytes in memory; path names the file in sources and
 * errors. */
sr_error *sr_parse_claims_markdown(const char *path, const char *data, size_t len, const sr_claim_alias *aliases,
                                   size_t n_aliases, sr_claim_list *out);
sr_error *sr_parse_claims_csv(const char *path, const char *data, size_t len, sr_claim_list *out);

#endif
