/* Claims in CSV, model,figure,value (libcsv, every error with its line). */
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

/* ---- CSV: model,figure,value --------------------------------------------- */

enum { COL_MODEL, COL_FIGURE, COL_VALUE, COL_N, N_COLS };
/* n is optional: the items the claim's figure was scored on (the GRIM test's n). */
static const char *const csv_columns[N_COLS] = {"model", "figure", "value", "n"};

typedef struct csv_ctx {
    sr_csv_reader in; /* path, line numbers, the first error */
    sr_claim_list *out;
    bool header_done;
    size_t field;
    long col[N_COLS];
    char *text[N_COLS];
    size_t len[N_COLS];
} csv_ctx;

static void csv_field(void *data, size_t len, void *user)
{
    csv_ctx *c = user;
    size_t col = c->field++;
    if (c->in.err)
        return;
    const char *s = data ? data : "";
    if (!c->header_done) {
        const char *h = s;
        size_t hlen = len;
        sr_claims_trim(&h, &hlen);
        for (size_t k = 0; k < N_COLS; k++)
            if (hlen == strlen(csv_columns[k]) && strncasecmp(h, csv_columns[k], hlen) == 0) {
                if (c->col[k] >= 0)
                    c->in.err = sr_input_error(c->in.path, c->in.row_line, "column '%s' appears twice in the header",
                                               csv_columns[k]);
                c->col[k] = (long)col;
            }
        return;
    }
    for (size_t k = 0; k < N_COLS; k++)
        if ((long)col == c->col[k]) {
            free(c->text[k]);
            c->text[k] = sr_strndup(s, len);
            c->len[k] = len;
        }
}

/* A CSV value: words when it does not start like a number. */
static sr_error *csv_claim(csv_ctx *c)
{
    const char *model = c->text[COL_MODEL], *figure = c->text[COL_FIGURE], *value = c->text[COL_VALUE];
    size_t mlen = c->len[COL_MODEL], flen = c->len[COL_FIGURE], vlen = c->len[COL_VALUE];
    sr_claims_trim(&model, &mlen);
    sr_claims_trim(&figure, &flen);
    sr_claims_trim(&value, &vlen);
    if (mlen == 0)
        return sr_input_error(c->in.path, c->in.row_line, "empty model");
    if (flen == 0)
        return sr_input_error(c->in.path, c->in.row_line, "empty figure");
    if (sr_claims_no_claim(value, vlen))
        return NULL;
    long row_n = -1;
    if (c->col[COL_N] >= 0 && c->text[COL_N] && !sr_claims_row_n(c->text[COL_N], c->len[COL_N], &row_n))
        return sr_input_error(c->in.path, c->in.row_line, "'%.*s' is not a count of items (column 'n')",
                              (int)sr_claims_shown(c->text[COL_N], c->len[COL_N]), c->text[COL_N]);
    size_t first = c->out->n;
    char *fig = sr_strndup(figure, flen);
    sr_error *err = NULL;
    bool numeric = (value[0] >= '0' && value[0] <= '9') || value[0] == '+' || value[0] == '-' || value[0] == '.' ||
                   (vlen >= 3 && memcmp(value, "\xE2\x88\x92", 3) == 0);
    if (numeric) {
        sr_claim_number num;
        if (!sr_claims_parse_number(value, vlen, &num))
            err = sr_input_error(c->in.path, c->in.row_line, "'%.*s' is not a number",
                                 (int)sr_claims_shown(value, vlen), value);
        else
            sr_claims_add(c->out, c->in.path, c->in.row_line, model, mlen, fig, value, vlen, &num, NULL);
    } else {
        char *words = sr_strndup(value, vlen);
        sr_claims_add(c->out, c->in.path, c->in.row_line, model, mlen, fig, value, vlen, NULL, words);
        free(words);
    }
    for (size_t k = first; k < c->out->n; k++)
        c->out->items[k].row_n = row_n;
    free(fig);
    return err;
}

static void csv_row(int term, void *user)
{
    (void)term;
    csv_ctx *c = user;
    c->field = 0;
    if (!c->in.err && !c->header_done) {
        c->header_done = true;
        if (c->col[COL_MODEL] < 0 || c->col[COL_FIGURE] < 0 || c->col[COL_VALUE] < 0)
            c->in.err = sr_input_error(c->in.path, c->in.row_line, "expected a header with columns model,figure,value");
    } else if (!c->in.err) {
        bool complete = c->text[COL_MODEL] && c->text[COL_FIGURE] && c->text[COL_VALUE];
        c->in.err = complete
                        ? csv_claim(c)
                        : sr_input_error(c->in.path, c->in.row_line, "expected the columns model, figure and value");
    }
    for (size_t k = 0; k < N_COLS; k++) {
        free(c->text[k]);
        c->text[k] = NULL;
        c->len[k] = 0;
    }
}

sr_error *sr_parse_claims_csv(const char *path, const char *data, size_t len, sr_claim_list *out)
{
    size_t n0 = out->n, u0 = out->n_unchecked;
    csv_ctx c = {.in = {.path = path}, .out = out, .col = {-1, -1, -1, -1}};
    sr_error *err = sr_csv_read(&c.in, data, len, csv_field, csv_row, &c);
    for (size_t k = 0; k < N_COLS; k++)
        free(c.text[k]);
    if (!err && !c.header_done)
        err = sr_input_error(path, 1, "expected a header with columns model,figure,value");
    return sr_claims_finish(err, out, n0, u0);
}

