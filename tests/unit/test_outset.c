/* What the output writer records and what a rerun leaves (util/outset.h,
 * util/outset_record.h): the manifest's text read as untrusted, the lock
 * file's line, and the rules for an earlier run's files. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tmp_tree.h"
#include "util/alloc.h"
#include "util/fileio.h"
#include "util/outset.h"
#include "util/outset_record.h"
#include "util/strbuf.h"

#define SHA_A "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb" /* sha256("a") */

Test(outset_record, manifest_round_trip)
{
    sr_written_set m = {0};
    sr_written_file e = {.size = 1};
    snprintf(e.kind, sizeof e.kind, "report");
    snprintf(e.name, sizeof e.name, "charts/speed_ratio.png");
    snprintf(e.sha256, sizeof e.sha256, SHA_A);
    sr_written_set_add(&m, &e);
    size_t len;
    char *text = sr_written_set_format(&m, &len);
    cr_expect(strstr(text, "report " SHA_A " 1 charts/speed_ratio.png\n") != NULL, "%s", text);
    sr_written_set back;
    sr_written_set_parse(text, len, &back);
    cr_assert_eq(back.n, 1);
    cr_expect_eq(back.n_bad, 0);
    cr_expect_str_eq(back.items[0].name, "charts/speed_ratio.png");
    cr_expect_eq(back.items[0].size, 1);
    free(text);
    sr_written_set_release(&m);
    sr_written_set_release(&back);
}

/* A stranger's manifest (OUT_DIR may be their export) names nothing the
 * writer would not write itself: every line that is not exactly ours is
 * counted and skipped. */
Test(outset_record, manifest_lines_not_ours_are_skipped)
{
    static const char *const bad[] = {
        "report " SHA_A " 1 ../escape",
        "report " SHA_A " 1 /etc/passwd",
        "report " SHA_A " 1 .sweep-report.lock",
        "report " SHA_A " 1 charts/.hidden",
        "report " SHA_A " 1 a/b/c",
        "report " SHA_A " 1 charts/",
        "report " SHA_A " 1 tab\there",
        "Report " SHA_A " 1 a.txt",
        "report " SHA_A "0 1 2 a.txt",
        "report CA978112CA1BBDCAFAC231B39A23DC4DA786EFF8147C4E72B9807785AFEE48BB 1 2 a.txt",
        "report " SHA_A " -1 a.txt",
        "report " SHA_A " 99999999999999999999 a.txt",
        "report " SHA_A " 1 ",
        "report " SHA_A " 1",
        "report  " SHA_A " 1 a.txt",
        "report " SHA_A " 1 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    };
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, "sweep-report manifest 1\n# a comment\n");
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        sr_strbuf_printf(&sb, "%s\n", bad[i]);
    sr_strbuf_puts(&sb, "report " SHA_A " 1 ok.txt\n");
    static const char with_nul[] = "report " SHA_A " 1 nul\0.txt\n";
    sr_strbuf_append(&sb, with_nul, sizeof with_nul - 1);
    sr_written_set m;
    sr_written_set_parse(sb.data, sb.len, &m);
    cr_expect_eq(m.n_bad, sizeof bad / sizeof *bad + 1);
    cr_assert_eq(m.n, 1);
    cr_expect_str_eq(m.items[0].name, "ok.txt");
    sr_written_set_release(&m);
    /* without the heading nothing counts */
    const char *headless = "report " SHA_A " 1 ok.txt\n";
    sr_written_set_parse(headless, strlen(headless), &m);
    cr_expect_eq(m.n, 0);
    cr_expect_eq(m.n_bad, 1);
    sr_written_set_release(&m);
    sr_strbuf_release(&sb);
}

Test(outset_record, staging_record)
{
    char *text = sr_staging_record_format(".sweep-report.new.AbC12345", 2049, 77);
    char name[64];
    dev_t dev;
    ino_t ino;
    cr_assert(sr_staging_record_parse(text, strlen(text), name, &dev, &ino));
    cr_expect_str_eq(name, ".sweep-report.new.AbC12345");
    cr_expect_eq(dev, 2049);
    cr_expect_eq(ino, 77);
    free(text);
    static const char *const bad[] = {
        "",
        "sweep-report staging .sweep-report.new.A 1 2",     /* no newline */
        "sweep-report staging ../x 1 2\n",                  /* not a staging name */
        "sweep-report staging .sweep-report.new.a/b 1 2\n", /* a path */
        "sweep-report staging .sweep-report.new. 1 2\n",    /* nothing after the prefix */
        "sweep-report staging .sweep-report.new.A x 2\n",
        "sweep-report staging .sweep-report.new.A 1\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_expect_not(sr_staging_record_parse(bad[i], strlen(bad[i]), name, &dev, &ino), "'%s'", bad[i]);
}

/* ---- reruns ---------------------------------------------------------------------- */

static char *path_in(const char *dir, const char *rel)
{
    return sr_path_join(dir, rel);
}

static bool exists(const char *dir, const char *rel)
{
    char *p = path_in(dir, rel);
    struct stat st;
    bool there = lstat(p, &st) == 0;
    free(p);
    return there;
}

/* The notes joined, one per line, fresh. */
static char *joined(sr_outset_notes *notes)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (size_t i = 0; i < notes->n; i++)
        sr_strbuf_printf(&sb, "%s\n", notes->lines[i]);
    sr_outset_notes_release(notes);
    return sr_strbuf_detach(&sb);
}

static char *fresh_dir(void)
{
    char base[] = "/tmp/sr-outset-XXXXXX";
    cr_assert_not_null(mkdtemp(base));
    return sr_xstrdup(base);
}

static void remove_dir(const char *dir)
{
    char *cmd = sr_asprintf("rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
    free(cmd);
}

/* What a run of the same kind wrote and no longer writes (a name it has
 * nothing for: data NULL) goes, as that run left it. */
Test(outset, rerun_removes_what_an_earlier_run_wrote)
{
    char *dir = fresh_dir();
    sr_output a[] = {{.name = "keep.txt", .data = "k", .len = 1},
                     {.name = "gone.txt", .data = "g", .len = 1},
                     {.name = "charts/x.svg", .data = "<svg/>", .len = 6},
                     {.name = "old.txt", .data = "o", .len = 1}};
    cr_assert_null(sr_write_outputs(dir, "report", a, 4, NULL));
    tree_put(dir, "mine.txt", "the user's");
    /* old.txt is no name of this run's (another version's): never removed */
    sr_output b[] = {{.name = "keep.txt", .data = "K", .len = 1}, {.name = "gone.txt"}, {.name = "charts/x.svg"}};
    sr_outset_notes notes = {0};
    cr_assert_null(sr_write_outputs(dir, "report", b, 3, &notes));
    char *said = joined(&notes);
    cr_expect(strstr(said, "removed 2 files an earlier run wrote in") != NULL, "%s", said);
    cr_expect(strstr(said, "as that run left them: gone.txt, charts/x.svg\n") != NULL, "%s", said);
    cr_expect_not(exists(dir, "gone.txt"));
    cr_expect_not(exists(dir, "charts/x.svg"));
    cr_expect(exists(dir, "mine.txt"));
    cr_expect(exists(dir, "keep.txt"));
    cr_expect(exists(dir, "old.txt"));
    cr_expect(exists(dir, "charts"), "a directory is never removed by the writer");
    /* the new manifest lists keep.txt alone */
    char *mpath = path_in(dir, SR_MANIFEST_NAME), *text;
    size_t len;
    cr_assert_null(sr_read_file(mpath, NULL, &text, &len));
    sr_written_set m;
    sr_written_set_parse(text, len, &m);
    cr_assert_eq(m.n, 1);
    cr_expect_str_eq(m.items[0].name, "keep.txt");
    sr_written_set_release(&m);
    free(text);
    free(mpath);
    free(said);
    remove_dir(dir);
    free(dir);
}

/* Changed since, another kind's, a name no run recorded: all left. */
Test(outset, rerun_leaves_what_it_cannot_prove)
{
    char *dir = fresh_dir();
    sr_output a[] = {{.name = "edited.txt", .data = "e", .len = 1}, {.name = "grown.txt", .data = "g", .len = 1}};
    cr_assert_null(sr_write_outputs(dir, "report", a, 2, NULL));
    sr_output c[] = {{.name = "compare.json", .data = "{}", .len = 2}};
    cr_assert_null(sr_write_outputs(dir, "compare", c, 1, NULL));
    tree_put(dir, "edited.txt", "E"); /* the same size, other bytes */
    tree_put(dir, "grown.txt", "g and more");
    tree_put(dir, "claims.csv", "the user's own");
    sr_output b[] = {{.name = "claims.csv"},
                     {.name = "report.json", .data = "{}", .len = 2},
                     {.name = "edited.txt"},
                     {.name = "grown.txt"},
                     {.name = "compare.json"}};
    sr_outset_notes notes = {0};
    cr_assert_null(sr_write_outputs(dir, "report", b, 5, &notes));
    char *said = joined(&notes);
    cr_expect(strstr(said, "warning: left 2 files in") != NULL, "%s", said);
    cr_expect(strstr(said, "changed since that run (remove what is stale): edited.txt, grown.txt") != NULL, "%s", said);
    cr_expect(strstr(said, "no earlier run of this tool is recorded as writing: claims.csv") != NULL, "%s", said);
    cr_expect_null(strstr(said, "removed"), "%s", said);
    cr_expect(exists(dir, "edited.txt") && exists(dir, "grown.txt") && exists(dir, "claims.csv"));
    cr_expect(exists(dir, "compare.json"), "another kind's file removed");
    /* compare's entry is kept in the manifest */
    char *mpath = path_in(dir, SR_MANIFEST_NAME), *text;
    size_t len;
    cr_assert_null(sr_read_file(mpath, NULL, &text, &len));
    cr_expect(strstr(text, "compare ") != NULL && strstr(text, " compare.json\n") != NULL, "%s", text);
    cr_expect_null(strstr(text, "edited.txt"), "%s", text);
    free(text);
    free(mpath);
    free(said);
    remove_dir(dir);
    free(dir);
}

/* --outputs: only the names given are the run's; an earlier run's other
 * files are left, said, and kept in the manifest for a later full run. */
Test(outset, partial_run_leaves_other_formats)
{
    char *dir = fresh_dir();
    sr_output a[] = {{.name = "report.json", .data = "1", .len = 1}, {.name = "report.html", .data = "<p>", .len = 3}};
    cr_assert_null(sr_write_outputs(dir, "report", a, 2, NULL));
    sr_output b_partial[] = {{.name = "report.json", .data = "2", .len = 1},
                             {.name = "report.html", .not_asked = true}};
    sr_outset_notes notes = {0};
    cr_assert_null(sr_write_outputs(dir, "report", b_partial, 2, &notes));
    char *said = joined(&notes);
    cr_expect(strstr(said, "left 1 file an earlier run wrote in") != NULL, "%s", said);
    cr_expect(strstr(said, "of formats --outputs does not ask for, as they were: report.html") != NULL, "%s", said);
    cr_expect(exists(dir, "report.html"));
    free(said);
    sr_output b[] = {{.name = "report.json", .data = "2", .len = 1}, {.name = "report.html"}};
    cr_assert_null(sr_write_outputs(dir, "report", b, 2, &notes));
    said = joined(&notes);
    cr_expect(strstr(said, "removed 1 file an earlier run wrote in") != NULL, "%s", said);
    cr_expect_not(exists(dir, "report.html"));
    free(said);
    remove_dir(dir);
    free(dir);
}

/* A manifest shipped in an export names only what the run could write
 * itself: a file of another name stays, whatever the manifest says. */
Test(outset, a_forged_manifest_removes_nothing)
{
    char *dir = fresh_dir();
    tree_put(dir, "data.txt", "a");
    tree_put(dir, SR_MANIFEST_NAME, "sweep-report manifest 1\nreport " SHA_A " 1 data.txt\n");
    sr_output b[] = {{.name = "report.json", .data = "{}", .len = 2}};
    sr_outset_notes notes = {0};
    cr_assert_null(sr_write_outputs(dir, "report", b, 1, &notes));
    char *said = joined(&notes);
    cr_expect(exists(dir, "data.txt"));
    cr_expect_null(strstr(said, "data.txt"), "%s", said);
    free(said);
    remove_dir(dir);
    free(dir);
}

/* The staging directory the lock file names (a run killed half-way) is
 * removed; one it does not name is left and said. */
Test(outset, a_killed_runs_staging_directory_is_removed)
{
    char *dir = fresh_dir();
    tree_put(dir, ".sweep-report.new.Killed01/report.json", "half");
    tree_put(dir, ".sweep-report.new.Killed01/charts/x.png", "half");
    tree_put(dir, ".sweep-report.new.Killed01/.old-0", "old");
    tree_put(dir, ".sweep-report.new.Other002/f", "whose?");
    char *staging = path_in(dir, ".sweep-report.new.Killed01");
    struct stat st;
    cr_assert_eq(stat(staging, &st), 0);
    char *record = sr_staging_record_format(".sweep-report.new.Killed01", st.st_dev, st.st_ino);
    tree_put(dir, SR_LOCK_NAME, record);
    sr_output b[] = {{.name = "report.json", .data = "{}", .len = 2}};
    sr_outset_notes notes = {0};
    cr_assert_null(sr_write_outputs(dir, "report", b, 1, &notes));
    char *said = joined(&notes);
    cr_expect(strstr(said, ".sweep-report.new.Killed01', the staging directory of a run that was killed") != NULL, "%s",
              said);
    cr_expect(strstr(said, ".sweep-report.new.Other002' is named like the staging directory") != NULL, "%s", said);
    cr_expect_not(exists(dir, ".sweep-report.new.Killed01"));
    cr_expect(exists(dir, ".sweep-report.new.Other002/f"));
    char *lock = path_in(dir, SR_LOCK_NAME);
    cr_assert_eq(stat(lock, &st), 0);
    cr_expect_eq(st.st_size, 0, "the lock file still names a staging directory");
    /* a record naming a directory of that name but another inode: left */
    tree_put(dir, ".sweep-report.new.Killed01/x", "not that run's");
    cr_assert_eq(stat(staging, &st), 0);
    free(record);
    record = sr_staging_record_format(".sweep-report.new.Killed01", st.st_dev, st.st_ino ^ 1);
    tree_put(dir, SR_LOCK_NAME, record);
    cr_assert_null(sr_write_outputs(dir, "report", b, 1, &notes));
    free(said);
    said = joined(&notes);
    cr_expect(exists(dir, ".sweep-report.new.Killed01/x"), "%s", said);
    free(said);
    free(lock);
    free(record);
    free(staging);
    remove_dir(dir);
    free(dir);
}
