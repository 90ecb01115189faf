/* The command-line tables (src/cli.c): parsing into the opts struct, the one
 * wording of bad values, operands, and the generated --help. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kv_cap.h"
#include "cli.h"
#include "cmd/cmd.h"
#include "model/sweep.h"

typedef struct demo_opts {
    const char *out_dir;
    long count;
    double level, gib;
    int color;
    const char *method;
    bool quiet;
    int n_tags;
    const char *tags[4];
} demo_opts;

enum { RED = 7, BLUE = 9 };
static const sr_cli_choice colors[] = {{"red", RED}, {"blue", BLUE}, {NULL, 0}};
static const sr_cli_choice methods[] = {{"fast", 0}, {"slow", 0}, {"exact", 0}, {NULL, 0}};

static sr_error *add_tag(void *opts, const char *arg)
{
    demo_opts *o = opts;
    if (o->n_tags == 4)
        return sr_cli_bad_value("tag", "at most 4 tags", arg);
    o->tags[o->n_tags++] = arg;
    return NULL;
}

static const sr_cli_option demo_options[] = {
    SR_OPT_STRING('o', "output", "DIR", demo_opts, out_dir, "where to write"),
    SR_OPT_WHOLE(0, "count", "N", demo_opts, count, 1, 1000000, "how many"),
    SR_OPT_NUMBER(0, "level", "C", demo_opts, level, 0, 1, SR_CLI_OPEN, "a level"),
    SR_OPT_GROUP("Memory"),
    SR_OPT_NUMBER(0, "gib", "G", demo_opts, gib, 0, 1.5, SR_CLI_OPEN_LOW, "memory"),
    SR_OPT_ALIAS("memory-gib", "gib", NULL),
    SR_OPT_CHOICE(0, "color", demo_opts, color, colors, "a color"),
    SR_OPT_NAME(0, "method", demo_opts, method, methods, "a method"),
    SR_OPT_FLAG('q', "quiet", demo_opts, quiet, "say less"),
    SR_OPT_CALL(0, "tag", "T", add_tag, "a tag (repeatable)"),
    SR_OPT_END,
};

static const sr_cli_command demo = {
    .name = "demo",
    .summary = "a demonstration",
    .usage = "IN OUT... [options]",
    .operands = "IN OUT...",
    .min_operands = 2,
    .max_operands = 3,
    .options = {demo_options},
};

typedef struct parse_result {
    sr_error *err;
    demo_opts opts;
    sr_cli_parsed parsed;
    char out[8192];
} parse_result;

/* Parse the words (after "demo") into r; help goes to r->out. */
static void parse(parse_result *r, const char *const *words, int n)
{
    static char *argv[32];
    argv[0] = "demo";
    for (int i = 0; i < n; i++)
        argv[i + 1] = (char *)words[i];
    argv[n + 1] = NULL;
    memset(r, 0, sizeof *r);
    r->opts.count = 5;
    r->opts.level = r->opts.gib = NAN;
    r->opts.color = -1;
    FILE *f = fmemopen(r->out, sizeof r->out - 1, "w");
    cr_assert_not_null(f);
    r->err = sr_cli_parse(&demo, n + 1, argv, &r->opts, f, &r->parsed);
    fclose(f);
}

/* The usage error's message for these words. */
static void expect_usage_error(const char *const *words, int n, const char *message)
{
    parse_result r;
    parse(&r, words, n);
    cr_assert_not_null(r.err, "no error for '%s'", words[0]);
    cr_expect_eq(r.err->code, SR_EXIT_USAGE);
    cr_expect_str_eq(r.err->message, message);
    cr_expect_eq(r.out[0], '\0', "printed: %s", r.out);
    sr_error_free(r.err);
}

#define WORDS(...)                                                                                                     \
    ((const char *const[]){__VA_ARGS__}), (int)(sizeof((const char *const[]){__VA_ARGS__}) / sizeof(char *))

Test(cli, every_kind_parses_into_its_field)
{
    parse_result r;
    parse(&r, WORDS("in", "--count", "4,096", "-odir", "--level=0.95", "--memory-gib", "1.5", "--color", "blue",
                    "--method", "exact", "-q", "--tag", "a", "out", "--tag=b"));
    cr_assert_null(r.err, "%s", r.err ? r.err->message : "");
    cr_expect_not(r.parsed.help);
    cr_expect_str_eq(r.opts.out_dir, "dir");
    cr_expect_eq(r.opts.count, 4096);
    cr_expect_eq(r.opts.level, 0.95);
    cr_expect_eq(r.opts.gib, 1.5); /* through the alias; 1.5 is inside (0, 1.5] */
    cr_expect_eq(r.opts.color, BLUE);
    cr_expect_eq(r.opts.method, methods[2].name, "the choice's own string");
    cr_expect(r.opts.quiet);
    cr_assert_eq(r.opts.n_tags, 2);
    cr_expect_str_eq(r.opts.tags[0], "a");
    cr_expect_str_eq(r.opts.tags[1], "b");
    /* operands in order, wherever they stood among the options */
    cr_assert_eq(r.parsed.n_operands, 2);
    cr_expect_str_eq(r.parsed.operands[0], "in");
    cr_expect_str_eq(r.parsed.operands[1], "out");
}

Test(cli, defaults_stay_when_not_given)
{
    parse_result r;
    parse(&r, WORDS("a", "b", "--", "--count"));
    cr_assert_null(r.err);
    cr_expect_eq(r.opts.count, 5);
    cr_expect(isnan(r.opts.level));
    cr_expect_eq(r.opts.color, -1);
    cr_expect_null(r.opts.method);
    cr_assert_eq(r.parsed.n_operands, 3); /* after "--" an option-looking word is an operand */
    cr_expect_str_eq(r.parsed.operands[2], "--count");
}

Test(cli, bad_numbers_have_one_wording)
{
    expect_usage_error(WORDS("a", "b", "--count", "0"), "--count takes a whole number from 1 to 1000000, not '0'");
    expect_usage_error(WORDS("a", "b", "--count", "1.5"), "--count takes a whole number from 1 to 1000000, not '1.5'");
    expect_usage_error(WORDS("a", "b", "--count", "1000001"),
                       "--count takes a whole number from 1 to 1000000, not '1000001'");
    expect_usage_error(WORDS("a", "b", "--count", ""), "--count takes a whole number from 1 to 1000000, not ''");
    /* both ends open */
    expect_usage_error(WORDS("a", "b", "--level", "1"),
                       "--level takes a number greater than 0 and less than 1, not '1'");
    expect_usage_error(WORDS("a", "b", "--level", "0x0.8"),
                       "--level takes a number greater than 0 and less than 1, not '0x0.8'");
    expect_usage_error(WORDS("a", "b", "--level", "nan"),
                       "--level takes a number greater than 0 and less than 1, not 'nan'");
    /* low end open, high end closed; an alias names itself */
    expect_usage_error(WORDS("a", "b", "--gib", "0"), "--gib takes a number greater than 0 and at most 1.5, not '0'");
    expect_usage_error(WORDS("a", "b", "--memory-gib", "2"),
                       "--memory-gib takes a number greater than 0 and at most 1.5, not '2'");
}

Test(cli, bad_choices_list_the_words)
{
    expect_usage_error(WORDS("a", "b", "--color", "green"), "--color takes red or blue, not 'green'");
    expect_usage_error(WORDS("a", "b", "--method", "Fast"), "--method takes fast, slow or exact, not 'Fast'");
    expect_usage_error(WORDS("a", "b", "--tag", "1", "--tag", "2", "--tag", "3", "--tag", "4", "--tag", "5"),
                       "--tag takes at most 4 tags, not '5'");
}

/* SR_OPT_LIST: a comma-separated list of a choice's words, their values
 * OR'ed; an empty item or an unknown word is refused in the shared wording. */
typedef struct list_opts {
    unsigned sizes;
} list_opts;
static const sr_cli_choice sizes[] = {{"s", 1}, {"m", 2}, {"l", 4}, {NULL, 0}};
static const sr_cli_option list_options[] = {
    SR_OPT_LIST(0, "sizes", "LIST", list_opts, sizes, sizes, "sizes"),
    SR_OPT_END,
};

static sr_error *parse_list(const char *arg, unsigned *sizes_out)
{
    static const sr_cli_command cmd = {
        .name = "lists", .summary = "lists", .usage = "", .max_operands = 0, .options = {list_options}};
    char *argv[] = {"lists", "--sizes", (char *)arg, NULL};
    list_opts o = {.sizes = 99};
    sr_cli_parsed parsed;
    sr_error *err = sr_cli_parse(&cmd, 3, argv, &o, stdout, &parsed);
    *sizes_out = o.sizes;
    return err;
}

Test(cli, lists_take_comma_separated_words)
{
    unsigned got;
    cr_assert_null(parse_list("s,l", &got));
    cr_expect_eq(got, 5u);
    cr_assert_null(parse_list("m,m", &got));
    cr_expect_eq(got, 2u);
    static const char *const bad[] = {"s,,l", "", "s,", ",s", "xl", "S"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sr_error *err = parse_list(bad[i], &got);
        cr_assert_not_null(err, "'%s' accepted", bad[i]);
        char want[128];
        snprintf(want, sizeof want, "--sizes takes a comma-separated list of s, m, l, not '%s'", bad[i]);
        cr_expect_str_eq(err->message, want);
        cr_expect_eq(got, 99u, "'%s' changed the field", bad[i]);
        sr_error_free(err);
    }
}

Test(cli, unknown_missing_and_misused_options)
{
    expect_usage_error(WORDS("a", "b", "--frobnicate"), "unknown option '--frobnicate'");
    expect_usage_error(WORDS("a", "b", "--frobnicate=3"), "unknown option '--frobnicate'");
    expect_usage_error(WORDS("a", "b", "-x"), "unknown option '-x'");
    /* a short option in the wrong case gets the right one */
    expect_usage_error(WORDS("a", "b", "-O", "x"), "unknown option '-O'; did you mean '-o'?");
    expect_usage_error(WORDS("a", "b", "-Q"), "unknown option '-Q'; did you mean '-q'?");
    expect_usage_error(WORDS("a", "b", "--count"), "option '--count' needs a value");
    expect_usage_error(WORDS("a", "b", "-o"), "option '-o' needs a value");
    expect_usage_error(WORDS("a", "b", "--quiet=yes"), "option '--quiet' takes no value");
    expect_usage_error(WORDS("a", "b", "--help=1"), "option '--help' takes no value");
    /* --co is a prefix of --count and --color */
    expect_usage_error(WORDS("a", "b", "--co", "1"), "ambiguous option '--co' (--count, --color)");
}

/* A mistyped option gets the nearest names, as git does ("did you mean");
 * a word far from every name gets none. */
Test(cli, mistyped_options_get_the_nearest_names)
{
    expect_usage_error(WORDS("a", "b", "--cuont", "3"), "unknown option '--cuont'; did you mean '--count'?");
    expect_usage_error(WORDS("a", "b", "--levle=0.5"), "unknown option '--levle'; did you mean '--level'?");
    expect_usage_error(WORDS("a", "b", "--memory-gb", "1"),
                       "unknown option '--memory-gb'; did you mean '--memory-gib'?"); /* aliases are names too */
    expect_usage_error(WORDS("a", "b", "--tags", "x"), "unknown option '--tags'; did you mean '--tag'?");
    expect_usage_error(WORDS("a", "b", "--colot", "red"), "unknown option '--colot'; did you mean '--color'?");
    expect_usage_error(WORDS("a", "b", "--xolor"), "unknown option '--xolor'; did you mean '--color'?");
    expect_usage_error(WORDS("a", "b", "--qiuet"), "unknown option '--qiuet'; did you mean '--quiet'?");
    expect_usage_error(WORDS("a", "b", "--zzzzzz"), "unknown option '--zzzzzz'");
}

Test(cli, mistyped_subcommands_get_the_nearest_names)
{
    sr_cli_command cmds[3] = {demo, demo, demo};
    cmds[1].name = "report";
    cmds[2].name = "repeat";
    static const sr_cli_option top[] = {
        SR_OPT_FLAG(0, "version", demo_opts, quiet, "the version"),
        SR_OPT_END,
    };
    static const struct {
        const char *word, *message;
    } cases[] = {
        {"reprot", "unknown subcommand 'reprot'; did you mean 'report'?"}, /* two letters swapped: one edit */
        {"rep", "unknown subcommand 'rep'; did you mean 'report' or 'repeat'?"}, /* the beginning of both */
        {"repxat", "unknown subcommand 'repxat'; did you mean 'repeat'?"},
        {"dmeo", "unknown subcommand 'dmeo'; did you mean 'demo'?"},
        {"hlep", "unknown subcommand 'hlep'; did you mean 'help'?"},
        {"frobnicate", "unknown subcommand 'frobnicate'"},
        {"--verison", "unknown option '--verison'; did you mean '--version'?"},
        {"--help=x", "unknown option '--help'"},
        {"--demo", "unknown option '--demo'"}, /* options are not subcommands */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sr_error *err = sr_cli_unknown_command(cmds, 3, top, cases[i].word);
        cr_assert_not_null(err);
        cr_expect_eq(err->code, SR_EXIT_USAGE);
        cr_expect_str_eq(err->message, cases[i].message);
        sr_error_free(err);
    }
}

Test(cli, operands_counted)
{
    expect_usage_error(WORDS("--quiet"), "missing IN");
    expect_usage_error(WORDS("in"), "missing OUT"); /* "OUT..." names the word without its dots */
    expect_usage_error(WORDS("a", "b", "c", "d"), "unexpected argument 'd'");
}

Test(cli, help_goes_to_out_and_stops)
{
    parse_result r;
    parse(&r, WORDS("--count", "3", "--help", "--count", "bad"));
    cr_assert_null(r.err);
    cr_expect(r.parsed.help);
    cr_expect_eq(r.opts.count, 3, "options before --help are taken, none after");
    const char *top = "usage: sweep-report demo IN OUT... [options]\n\na demonstration\n\nOptions:\n";
    cr_expect_eq(strncmp(r.out, top, strlen(top)), 0, "%s", r.out);
    /* every option with its argument, the group heading, the alias, -h */
    static const char *const labels[] = {"  -o, --output DIR ",
                                         "      --count N ",
                                         "      --level C ",
                                         "\nMemory:\n",
                                         "      --gib G ",
                                         "      --memory-gib G ",
                                         "the same as --gib",
                                         "      --color red|blue ",
                                         "      --method fast|slow|exact ",
                                         "  -q, --quiet ",
                                         "      --tag T ",
                                         "  -h, --help ",
                                         "show this help and exit",
                                         "\nExit codes:\n  0  success\n",
                                         "  2  usage error\n",
                                         "  4  a check"};
    for (size_t i = 0; i < sizeof labels / sizeof *labels; i++)
        cr_expect_not_null(strstr(r.out, labels[i]), "no '%s' in:\n%s", labels[i], r.out);
    parse(&r, WORDS("-h"));
    cr_assert_null(r.err, "no operands needed with -h");
    cr_expect(r.parsed.help);
}

/* Help lines stay within 80 columns; a label too wide for the column puts
 * its text on the next line, at the column set by the others (here
 * "-h, --help": 2 + 10 + 2 = 14). */
Test(cli, help_is_wrapped)
{
    static const sr_cli_option wide[] = {
        SR_OPT_FLAG(0, "a-very-long-option-name-indeed", demo_opts, quiet,
                    "a long explanation that goes on and on so that it has to be wrapped onto more than one line of "
                    "the help text"),
        SR_OPT_END,
    };
    sr_cli_command cmd = demo;
    cmd.options[0] = wide;
    char buf[4096] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    sr_cli_print_help(&cmd, f);
    fclose(f);
    cr_expect_not_null(strstr(buf, "      --a-very-long-option-name-indeed\n              a long"), "%s", buf);
    for (char *line = buf; *line;) {
        size_t len = strcspn(line, "\n");
        cr_expect_leq(len, 80, "%.*s", (int)len, line);
        line += len + (line[len] == '\n');
    }
}

Test(cli, overview_lists_every_command)
{
    sr_cli_command cmds[2] = {demo, demo};
    cmds[1].name = "other";
    cmds[1].summary = "the other one";
    cmds[1].usage = "X";
    char buf[4096] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    sr_cli_print_overview(cmds, 2, NULL, f);
    fclose(f);
    const char *top = "usage: sweep-report demo IN OUT... [options]\n       sweep-report other X\n";
    cr_expect_eq(strncmp(buf, top, strlen(top)), 0, "%s", buf);
    cr_expect_not_null(strstr(buf, "\n  demo   a demonstration\n"), "%s", buf);
    cr_expect_not_null(strstr(buf, "\n  other  the other one\n"), "%s", buf);
    cr_expect_not_null(strstr(buf, "\nExit codes:\n"), "%s", buf);
    cr_expect_eq(sr_cli_find(cmds, 2, "other"), &cmds[1]);
    cr_expect_null(sr_cli_find(cmds, 2, "othe"));
}

/* The number after "(default " following the option's label in help. */
static double help_default(const char *help, const char *label)
{
    const char *at = strstr(help, label);
    cr_assert_not_null(at, "no '%s' in the help", label);
    const char *d = strstr(at, "(default ");
    cr_assert_not_null(d, "no default after '%s'", label);
    return strtod(d + strlen("(default "), NULL);
}

/* The defaults --help prints are the ones the commands start from (both
 * come from the SR_DEFAULT_* constants): report, audit and compare's
 * statistics, and kv's serving settings. */
Test(cli, help_prints_the_defaults_the_commands_use)
{
    sr_cli_command cmd = demo;
    cmd.options[0] = sr_stats_options;
    cmd.options[1] = NULL;
    static char buf[16384];
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    sr_cli_print_help(&cmd, f);
    fclose(f);
    sr_settings st;
    sr_settings_default(&st);
    cr_expect_eq(help_default(buf, "--resamples N"), (double)st.resamples);
    cr_expect_eq(help_default(buf, "--seed N"), (double)st.seed);
    cr_expect_eq(help_default(buf, "--confidence C"), st.confidence);
    char want[64];
    snprintf(want, sizeof want, "(default %s)", st.gsm8k_filter);
    cr_expect_not_null(strstr(buf, want), "no '%s' in:\n%s", want, buf);

    cmd.options[0] = sr_kv_options;
    f = fmemopen(buf, sizeof buf - 1, "w");
    sr_cli_print_help(&cmd, f);
    fclose(f);
    sr_kv_params p;
    sr_kv_params_default(&p);
    cr_expect_eq(help_default(buf, "--tp N"), (double)p.tp);
    cr_expect_eq(help_default(buf, "--max-num-batched-tokens N"), (double)p.max_num_batched_tokens);
    cr_expect_eq(help_default(buf, "--max-num-seqs N"), (double)p.max_num_seqs);
    cr_expect_not_null(strstr(buf, "default " SR_STR(SR_DEFAULT_KV_MEM_UTIL_GPU) " on gpu"), "%s", buf);
    cr_expect_not_null(strstr(buf, SR_STR(SR_DEFAULT_KV_MEM_UTIL_TPU) " on tpu"), "%s", buf);
}
