/* Line-numbered CSV reading over libcsv (csv_read.h). */
#include "util/csv_read.h"

#include <stdbool.h>
#include <string.h>

#include <csv.h>

#include "util/text.h"

typedef struct feed {
    sr_csv_reader *r;
    sr_csv_field_fn field;
    sr_csv_row_fn row;
    void *ctx;
    bool row_pending; /* no row in progress: the next non-blank line starts one */
} feed;

static void on_field(void *data, size_t len, void *user)
{
    feed *f = user;
    f->field(data, len, f->ctx);
}

static void on_row(int term, void *user)
{
    feed *f = user;
    f->row(term, f->ctx);
    f->row_pending = true;
}

sr_error *sr_csv_read(sr_csv_reader *r, const char *data, size_t len, sr_csv_field_fn field, sr_csv_row_fn row,
                      void *ctx)
{
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
        return r->err = sr_oom();
    feed f = {r, field, row, ctx, true};
    size_t pos = 0;
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        pos = 3; /* a byte order mark from spreadsheet exports */
    while (pos < len && !r->err) {
        const char *start = data + pos;
        const char *nl = memchr(start, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - start) + 1 : len - pos;
        r->line++;
        size_t text = n - (nl ? 1 : 0);
        if (text > 0 && start[text - 1] == '\r')
            text--;
        if (!sr_utf8_valid(start, text)) {
            r->err = sr_input_error(r->path, r->line, "invalid utf-8 or nul byte");
            break;
        }
        if (f.row_pending && !sr_blank(start, n)) {
            r->row_line = r->line;
            f.row_pending = false;
        }
        if (csv_parse(&p, start, n, on_field, on_row, &f) != n && !r->err)
            r->err = sr_input_error(r->path, r->line, "malformed csv: %s", csv_strerror(csv_error(&p)));
        pos += n;
    }
    if (!r->err && csv_fini(&p, on_field, on_row, &f) != 0 && !r->err)
        r->err = sr_input_error(r->path, r->row_line, "malformed csv: unterminated quoted field");
    csv_free(&p);
    return r->err;
}
