/* The claims reader: picks the form of a claims file (Markdown tables in
 * claims_markdown.c, model,figure,value CSV in claims_csv.c) by its name.
 * Nothing here matches a model or checks a value. */
#include "ingest/claims.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/claims_parts.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/csv_read.h"
#include "util/strbuf.h"
#include "util/text.h"

/* ---- the reader ------------------------------------------------------------- */

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

sr_error *sr_read_claims(const char *path, const sr_claim_alias *aliases, size_t n_aliases, sr_claim_list *out)
{
    const char *format = has_suffix(path, ".md") || has_suffix(path, ".markdown") ? "markdown"
                         : has_suffix(path, ".csv")                               ? "csv"
                                                                                  : NULL;
    if (!format)
        return sr_input_error(path, 0, "unknown claims file format: expected a .md or .csv file");
    void *files = out->files;
    sr_grow(&files, &out->cap_files, out->n_files + 1, sizeof *out->files);
    out->files = files;
    char *data;
    size_t len;
    sr_error *err = sr_read_file(path, path, &data, &len);
    if (err)
        return err;
    if (strcmp(format, "csv") == 0)
        err = sr_parse_claims_csv(path, data, len, out);
    else
        err = sr_parse_claims_markdown(path, data, len, aliases, n_aliases, out);
    sr_claim_file *f = &out->files[out->n_files];
    if (!err) {
        sr_sha256_hex(data, len, f->sha256);
        f->path = sr_xstrdup(path);
        f->format = sr_xstrdup(format);
        out->n_files++;
    }
    free(data);
    return err;
}
