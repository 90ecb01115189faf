/* util/csv_read: libcsv fed line by line, errors at the right line. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/csv_read.h"
#include "util/text.h"

/* Records every field as "line:text" and every row end as "|". */
typedef struct record {
    sr_csv_reader *in;
    char log[512];
    int fail_at_row; /* a row callback that reports an error at this row (1-based); 0: never */
    int rows;
} record;

static void field(void *data, size_t len, void *ctx)
{
    record *r = ctx;
    size_t n = strlen(r->log);
    snprintf(r->log + n, sizeof r->log - n, "%ld:%.*s,", r->in->row_line, (int)len, data ? (char *)data : "");
}

static void row(int term, void *ctx)
{
    (void)term;
    record *r = ctx;
    strncat(r->log, "|", sizeof r->log - strlen(r->log) - 1);
    if (++r->rows == r->fail_at_row && !r->in->err)
        r->in->err = sr_input_error(r->in->path, r->in->row_line, "row %d refused", r->rows);
}

static sr_error *read_csv(const char *text, record *r, sr_csv_reader *in)
{
    memset(r, 0, sizeof *r);
    memset(in, 0, sizeof *in);
    in->path = "t.csv";
    r->in = in;
    return sr_csv_read(in, text, strlen(text), field, row, r);
}

Test(csv_read, rows_know_the_line_they_began_on)
{
    record r;
    sr_csv_reader in;
    /* A quoted field over two lines, a blank line, CRLF, a byte order mark. */
    sr_error *err = read_csv("\xEF\xBB\xBFid,score\r\n\"a\nb\",1\n\nc,0\n", &r, &in);
    cr_assert_null(err);
    cr_expect_str_eq(r.log, "1:id,1:score,|2:a\nb,2:1,|5:c,5:0,|");
}

Test(csv_read, last_line_without_newline)
{
    record r;
    sr_csv_reader in;
    cr_assert_null(read_csv("x,y\n1,2", &r, &in));
    cr_expect_str_eq(r.log, "1:x,1:y,|2:1,2:2,|");
}

Test(csv_read, invalid_utf8_names_its_line)
{
    record r;
    sr_csv_reader in;
    sr_error *err = read_csv("x,y\n1,2\n3,\xff\n", &r, &in);
    cr_assert_not_null(err);
    cr_expect_eq(err->line, 3);
    cr_expect(strstr(err->message, "invalid utf-8") != NULL);
    sr_error_free(err);
}

Test(csv_read, open_quote_at_the_end_names_the_row)
{
    record r;
    sr_csv_reader in;
    sr_error *err = read_csv("x,y\n1,\"2\n3\n", &r, &in);
    cr_assert_not_null(err);
    cr_expect_eq(err->line, 2);
    cr_expect_str_eq(err->message, "malformed csv: unterminated quoted field");
    sr_error_free(err);
}

Test(csv_read, stray_quote_is_malformed_at_its_line)
{
    record r;
    sr_csv_reader in;
    sr_error *err = read_csv("x,y\n1,2\n3,4\"5\n", &r, &in);
    cr_assert_not_null(err);
    cr_expect_eq(err->line, 3);
    cr_expect(strncmp(err->message, "malformed csv", 13) == 0);
    sr_error_free(err);
}

Test(csv_read, a_callback_error_stops_the_reading)
{
    record r;
    sr_csv_reader in;
    memset(&r, 0, sizeof r);
    memset(&in, 0, sizeof in);
    in.path = "t.csv";
    r.in = &in;
    r.fail_at_row = 2;
    const char *text = "x\n1\n2\n3\n";
    sr_error *err = sr_csv_read(&in, text, strlen(text), field, row, &r);
    cr_assert_not_null(err);
    cr_expect_eq(err->line, 2);
    cr_expect_eq(r.rows, 2, "no row after the error: %d", r.rows);
    sr_error_free(err);
}

Test(text, blank)
{
    cr_expect(sr_blank("", 0));
    cr_expect(sr_blank(" \t\r\n", 4));
    cr_expect_not(sr_blank(" x ", 3));
}
