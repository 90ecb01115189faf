#include "cli.h"

#include <ctype.h>

#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/alloc.h"
#include "util/strbuf.h"
#include "util/text.h"

#define HELP_WIDTH 80  /* columns of --help text */
#define LABEL_WIDTH 30 /* widest option label before its text moves to the next line */
#define VAL_OPTION 256 /* getopt_long's val for option i is VAL_OPTION + i */

const char *const sr_cli_exit_codes[] = {
    "success",
    "any other failure (cannot write output, out of memory)",
    "usage error",
    "unreadable or invalid input (the message names the file, and the line where it applies)",
    "a check the subcommand makes failed (audit; compare --fail-on-regression)",
};
const size_t sr_cli_n_exit_codes = sizeof sr_cli_exit_codes / sizeof *sr_cli_exit_codes;

/* ---- the tables --------------------------------------------------------- */

static bool is_option(const sr_cli_option *o)
{
    return o->kind != SR_CLI_GROUP;
}

static size_t count_options(const sr_cli_command *cmd)
{
    size_t n = 0;
    for (size_t t = 0; t < SR_CLI_MAX_TABLES && cmd->options[t]; t++)
        for (const sr_cli_option *o = cmd->options[t]; o->kind != SR_CLI_END; o++)
            n += is_option(o);
    return n;
}

/* The option (not an alias) with this long name, or NULL. */
static const sr_cli_option *find_long(const sr_cli_command *cmd, const char *name)
{
    for (size_t t = 0; t < SR_CLI_MAX_TABLES && cmd->options[t]; t++)
        for (const sr_cli_option *o = cmd->options[t]; o->kind != SR_CLI_END; o++)
            if (is_option(o) && o->kind != SR_CLI_ALIAS && strcmp(o->name, name) == 0)
                return o;
    return NULL;
}

const sr_cli_command *sr_cli_find(const sr_cli_command *cmds, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(cmds[i].name, name) == 0)
            return &cmds[i];
    return NULL;
}

/* ---- did you mean -------------------------------------------------------- */

/* Append "; did you mean 'x'?" (or "'x' or 'y'", up to three) for the names
 * nearest to word (len bytes), as git does for a mistyped command: the
 * names within an edit distance of a third of the word (at least 1, at
 * most 3), or beginning with it when it has two letters or more; the
 * nearest of them, in table order, each after dashes ("--" for options).
 * Nothing when none is near. */
static void did_you_mean(sr_strbuf *sb, const char *word, size_t len, const char *const *names, size_t n,
                         const char *dashes)
{
    size_t limit = len / 3 < 1 ? 1 : len / 3 > 3 ? 3 : len / 3;
    size_t best = SIZE_MAX;
    size_t *dist = sr_xcalloc(n ? n : 1, sizeof *dist);
    for (size_t i = 0; i < n; i++) {
        size_t name_len = strlen(names[i]);
        bool prefix = len >= 2 && len < name_len && strncasecmp(names[i], word, len) == 0;
        dist[i] = prefix ? 0 : sr_edit_distance(word, len, names[i], name_len);
        if (name_len == len && strncmp(names[i], word, len) == 0)
            dist[i] = SIZE_MAX; /* the name itself: what is wrong is not the name */
        if (dist[i] <= limit && dist[i] < best)
            best = dist[i];
    }
    size_t shown = 0, total = 0;
    for (size_t i = 0; i < n && best != SIZE_MAX; i++)
        total += dist[i] == best;
    for (size_t i = 0; i < n && shown < total && shown < 3; i++) {
        if (dist[i] != best)
            continue;
        size_t left = (total < 3 ? total : 3) - ++shown;
        sr_strbuf_printf(sb, "%s'%s%s'%s", shown == 1 ? "; did you mean " : "", dashes, names[i],
                         left == 0 ? "?" : left == 1 ? " or " : ", ");
    }
    free(dist);
}

sr_error *sr_cli_unknown_command(const sr_cli_command *cmds, size_t n, const sr_cli_option *top, const char *word)
{
    bool option = word[0] == '-';
    size_t n_top = 0;
    for (const sr_cli_option *o = top; o && o->kind != SR_CLI_END; o++)
        n_top++;
    const char **names = sr_xcalloc(n + n_top + 1, sizeof *names);
    size_t n_names = 0;
    if (option) {
        names[n_names++] = "help";
        for (size_t i = 0; i < n_top; i++)
            if (is_option(&top[i]))
                names[n_names++] = top[i].name;
    } else {
        for (size_t i = 0; i < n; i++)
            names[n_names++] = cmds[i].name;
        names[n_names++] = "help";
    }
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    if (option) {
        size_t len = strcspn(word, "=");
        sr_strbuf_printf(&sb, "unknown option '%.*s'", (int)len, word);
        if (strncmp(word, "--", 2) == 0)
            did_you_mean(&sb, word + 2, len - 2, names, n_names, "--");
    } else {
        sr_strbuf_printf(&sb, "unknown subcommand '%s'", word);
        did_you_mean(&sb, word, strlen(word), names, n_names, "");
    }
    sr_error *err = sr_usage_error("%s", sr_strbuf_cstr(&sb));
    sr_strbuf_release(&sb);
    free(names);
    return err;
}

/* ---- the wording of bad values ----------------------------------------- */

sr_error *sr_cli_bad_value(const char *name, const char *what, const char *arg)
{
    return sr_usage_error("--%s takes %s, not '%s'", name, what, arg);
}

/* 1000000, not 1e+06; 0.5 as it is. */
static void format_bound(char *buf, size_t size, double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%g", v);
}

/* "a whole number from 1 to 64", "a number greater than 0 and at most 1". */
static void describe_range(const sr_cli_option *o, char *buf, size_t size)
{
    char lo[64], hi[64];
    format_bound(lo, sizeof lo, o->min);
    format_bound(hi, sizeof hi, o->max);
    if (o->kind == SR_CLI_WHOLE)
        snprintf(buf, size, "a whole number from %s to %s", lo, hi);
    else if (o->open_ends == SR_CLI_CLOSED)
        snprintf(buf, size, "a number from %s to %s", lo, hi);
    else
        snprintf(buf, size, "a number %s %s and %s %s", o->open_ends & SR_CLI_OPEN_LOW ? "greater than" : "at least",
                 lo, o->open_ends & SR_CLI_OPEN_HIGH ? "less than" : "at most", hi);
}

/* "a or b", "a, b or c"; with sep "|": "a|b|c". */
static void join_choices(const sr_cli_choice *c, const char *sep, sr_strbuf *sb)
{
    size_t n = 0;
    while (c[n].name)
        n++;
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            sr_strbuf_puts(sb, sep ? sep : i + 1 == n ? " or " : ", ");
        sr_strbuf_puts(sb, c[i].name);
    }
}

static sr_error *bad_choice(const sr_cli_option *o, const char *name, const char *arg)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    join_choices(o->choices, NULL, &sb);
    sr_error *err = sr_cli_bad_value(name, sr_strbuf_cstr(&sb), arg);
    sr_strbuf_release(&sb);
    return err;
}

/* ---- parsing ------------------------------------------------------------ */

/* Store arg by o into opts; name is the long name as typed (an alias's). */
static sr_error *apply(const sr_cli_option *o, const char *name, const char *arg, void *opts)
{
    char *field = (char *)opts + o->offset;
    const char *end = arg ? arg + strlen(arg) : NULL, *stop;
    char what[192];
    switch (o->kind) {
    case SR_CLI_FLAG: *(bool *)field = true; return NULL;
    case SR_CLI_STRING: *(const char **)field = arg; return NULL;
    case SR_CLI_WHOLE: {
        long v;
        if (sr_parse_long_commas(arg, end, &v, &stop) && stop == end && v >= o->min && v <= o->max) {
            *(long *)field = v;
            return NULL;
        }
        describe_range(o, what, sizeof what);
        return sr_cli_bad_value(name, what, arg);
    }
    case SR_CLI_NUMBER: {
        double v;
        bool low_ok, high_ok;
        if (sr_parse_double(arg, end, &v, &stop) && stop == end) {
            low_ok = o->open_ends & SR_CLI_OPEN_LOW ? v > o->min : v >= o->min;
            high_ok = o->open_ends & SR_CLI_OPEN_HIGH ? v < o->max : v <= o->max;
            if (low_ok && high_ok) {
                *(double *)field = v;
                return NULL;
            }
        }
        describe_range(o, what, sizeof what);
        return sr_cli_bad_value(name, what, arg);
    }
    case SR_CLI_CHOICE:
    case SR_CLI_NAME:
        for (const sr_cli_choice *c = o->choices; c->name; c++)
            if (strcmp(c->name, arg) == 0) {
                if (o->kind == SR_CLI_CHOICE)
                    *(int *)field = c->value;
                else
                    *(const char **)field = c->name;
                return NULL;
            }
        return bad_choice(o, name, arg);
    case SR_CLI_LIST: {
        unsigned mask = 0;
        for (const char *p = arg;; p++) { /* each comma-separated word, empty ones refused */
            size_t n = strcspn(p, ",");
            const sr_cli_choice *c = o->choices;
            while (c->name && !(strlen(c->name) == n && strncmp(p, c->name, n) == 0))
                c++;
            if (!c->name) {
                sr_strbuf sb;
                sr_strbuf_init(&sb);
                sr_strbuf_puts(&sb, "a comma-separated list of ");
                join_choices(o->choices, ", ", &sb);
                sr_error *err = sr_cli_bad_value(name, sr_strbuf_cstr(&sb), arg);
                sr_strbuf_release(&sb);
                return err;
            }
            mask |= (unsigned)c->value;
            p += n;
            if (!*p)
                break;
        }
        *(unsigned *)field = mask;
        return NULL;
    }
    case SR_CLI_CALL: return o->call(opts, arg);
    default: return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "option table: '--%s' has no kind", name);
    }
}

/* The getopt_long tables built from cmd's options: option i (entries[i] as
 * written, targets[i] with an alias resolved) has val VAL_OPTION + i. */
typedef struct getopt_tables {
    size_t n;
    const sr_cli_option **entries, **targets;
    struct option *longs;
    char *shorts;
} getopt_tables;

static void getopt_tables_free(getopt_tables *g)
{
    free(g->entries);
    free(g->targets);
    free(g->longs);
    free(g->shorts);
}

static sr_error *getopt_tables_make(const sr_cli_command *cmd, getopt_tables *g)
{
    memset(g, 0, sizeof *g);
    size_t n = count_options(cmd);
    g->entries = sr_xcalloc(n + 1, sizeof *g->entries);
    g->targets = sr_xcalloc(n + 1, sizeof *g->targets);
    g->longs = sr_xcalloc(n + 2, sizeof *g->longs);
    g->shorts = sr_xmalloc(2 * n + 4);
    size_t k = 0, s = 0;
    g->shorts[s++] = ':'; /* a missing value returns ':' */
    for (size_t t = 0; t < SR_CLI_MAX_TABLES && cmd->options[t]; t++)
        for (const sr_cli_option *o = cmd->options[t]; o->kind != SR_CLI_END; o++) {
            if (!is_option(o))
                continue;
            const sr_cli_option *target = o->kind == SR_CLI_ALIAS ? find_long(cmd, o->alias_of) : o;
            if (!target || o->short_name == 'h')
                return sr_error_new(SR_EXIT_FAILURE, NULL, 0, "option table of '%s': bad entry '--%s'", cmd->name,
                                    o->name);
            bool takes_arg = target->kind != SR_CLI_FLAG;
            g->entries[k] = o;
            g->targets[k] = target;
            g->longs[k] =
                (struct option){o->name, takes_arg ? required_argument : no_argument, NULL, VAL_OPTION + (int)k};
            if (o->short_name) {
                g->shorts[s++] = o->short_name;
                if (takes_arg)
                    g->shorts[s++] = ':';
            }
            k++;
        }
    g->longs[k] = (struct option){"help", no_argument, NULL, 'h'};
    g->shorts[s++] = 'h';
    g->shorts[s] = '\0';
    g->n = k;
    return NULL;
}

/* The usage error for what getopt_long refused: arg is the word it stopped
 * at, optopt what it says about it. */
static sr_error *refused(const getopt_tables *g, int c, const char *arg, int opt)
{
    if (c == ':') {
        if (opt >= VAL_OPTION)
            return sr_usage_error("option '--%s' needs a value", g->entries[opt - VAL_OPTION]->name);
        return sr_usage_error("option '-%c' needs a value", opt);
    }
    /* optopt is a short option's letter, 0 for an unknown long option, the
     * val of a long one given a value it does not take ('h' for --help). */
    bool is_long = (opt == 0 || opt >= VAL_OPTION || opt == 'h') && strncmp(arg, "--", 2) == 0;
    if (!is_long) {
        /* -O for -o: the same letter in the other case, when it is one */
        int other = islower(opt) ? toupper(opt) : tolower(opt);
        if (opt > 0 && opt < 128 && isalpha(opt) && strchr(g->shorts, other))
            return sr_usage_error("unknown option '-%c'; did you mean '-%c'?", opt, other);
        return sr_usage_error("unknown option '-%c'", opt);
    }
    /* A long option: unknown, ambiguous, or a flag given a value. */
    const char *name = arg + 2;
    size_t len = strcspn(name, "=");
    const char *exact = NULL;
    size_t n_prefixed = 0;
    sr_strbuf candidates;
    sr_strbuf_init(&candidates);
    for (const struct option *l = g->longs; l->name; l++)
        if (strncmp(l->name, name, len) == 0) {
            if (strlen(l->name) == len)
                exact = l->name;
            sr_strbuf_printf(&candidates, "%s--%s", n_prefixed++ ? ", " : "", l->name);
        }
    sr_error *err;
    if (exact || n_prefixed == 1)
        err = sr_usage_error("option '--%s' takes no value", exact ? exact : sr_strbuf_cstr(&candidates) + 2);
    else if (n_prefixed > 1)
        err = sr_usage_error("ambiguous option '--%.*s' (%s)", (int)len, name, sr_strbuf_cstr(&candidates));
    else {
        const char **names = sr_xcalloc(g->n + 1, sizeof *names);
        size_t n_names = 0;
        for (const struct option *l = g->longs; l->name; l++)
            names[n_names++] = l->name;
        sr_strbuf_release(&candidates);
        sr_strbuf_printf(&candidates, "unknown option '--%.*s'", (int)len, name);
        did_you_mean(&candidates, name, len, names, n_names, "--");
        free(names);
        err = sr_usage_error("%s", sr_strbuf_cstr(&candidates));
    }
    sr_strbuf_release(&candidates);
    return err;
}

/* "missing EXPORT_DIR": the operand name at position i ("FILE..." as FILE). */
static sr_error *missing_operand(const sr_cli_command *cmd, int i)
{
    const char *p = cmd->operands ? cmd->operands : "ARGUMENT";
    for (int w = 0; w < i && strchr(p, ' '); w++)
        p = strchr(p, ' ') + 1;
    size_t len = strcspn(p, " ");
    if (len > 3 && strncmp(p + len - 3, "...", 3) == 0)
        len -= 3;
    return sr_usage_error("missing %.*s", (int)len, p);
}

sr_error *sr_cli_parse(const sr_cli_command *cmd, int argc, char **argv, void *opts, FILE *out, sr_cli_parsed *parsed)
{
    memset(parsed, 0, sizeof *parsed);
    getopt_tables g;
    sr_error *err = getopt_tables_make(cmd, &g);
    optind = 0; /* GNU: full reinitialisation, so a process can parse twice (tests) */
    opterr = 0;
    int c;
    while (!err && !parsed->help && (c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
        if (c == 'h') {
            parsed->help = true;
        } else if (c == ':' || c == '?') {
            err = refused(&g, c, argv[optind - 1], optopt);
        } else {
            size_t i = 0;
            if (c >= VAL_OPTION)
                i = (size_t)(c - VAL_OPTION);
            else
                while (i < g.n && g.entries[i]->short_name != c)
                    i++;
            err = i < g.n ? apply(g.targets[i], g.entries[i]->name, optarg, opts)
                          : sr_usage_error("unknown option '-%c'", c);
        }
    }
    getopt_tables_free(&g);
    if (err)
        return err;
    if (parsed->help) {
        sr_cli_print_help(cmd, out);
        return NULL;
    }
    parsed->operands = argv + optind;
    parsed->n_operands = argc - optind;
    if (parsed->n_operands < cmd->min_operands)
        return missing_operand(cmd, parsed->n_operands);
    if (cmd->max_operands >= 0 && parsed->n_operands > cmd->max_operands)
        return sr_usage_error("unexpected argument '%s'", parsed->operands[cmd->max_operands]);
    return NULL;
}

/* ---- help --------------------------------------------------------------- */

/* Print text from column col, wrapping at HELP_WIDTH onto lines indented by
 * indent; '\n' starts a new line, and spaces after it indent that line
 * further. When keep_groups, no break falls inside [...] (an optional part
 * of a usage line). Ends with a newline. */
static void print_wrapped(FILE *out, const char *text, size_t col, size_t indent, bool keep_groups)
{
    const char *p = text;
    bool line_empty = true;
    while (*p) {
        if (*p == '\n') {
            size_t extra = strspn(p + 1, " ");
            fprintf(out, "\n%*s", (int)(indent + extra), "");
            col = indent + extra, line_empty = true;
            p += 1 + extra;
            continue;
        }
        if (*p == ' ') {
            p++;
            continue;
        }
        size_t len = 0;
        int depth = 0;
        while (p[len] && p[len] != '\n' && (p[len] != ' ' || depth > 0)) {
            if (keep_groups && p[len] == '[')
                depth++;
            else if (keep_groups && p[len] == ']' && depth > 0)
                depth--;
            len++;
        }
        if (!line_empty && col + 1 + len > HELP_WIDTH) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent, line_empty = true;
        }
        if (!line_empty) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, len, out);
        col += len, line_empty = false;
        p += len;
    }
    fputc('\n', out);
}

const sr_cli_option *sr_cli_option_target(const sr_cli_command *cmd, const sr_cli_option *o)
{
    if (o->kind != SR_CLI_ALIAS)
        return o;
    return cmd ? find_long(cmd, o->alias_of) : NULL; /* cmd NULL: the top level's table, which has no alias */
}

void sr_cli_option_arg(const sr_cli_command *cmd, const sr_cli_option *o, sr_strbuf *sb)
{
    const sr_cli_option *target = sr_cli_option_target(cmd, o);
    if (!target || target->kind == SR_CLI_FLAG)
        return;
    if (target->arg)
        sr_strbuf_puts(sb, target->arg);
    else if (target->choices)
        join_choices(target->choices, "|", sb);
    else
        sr_strbuf_puts(sb, "VALUE");
}

/* "-o, --output DIR", "    --ci-method percentile|exact". */
static void option_label(const sr_cli_command *cmd, const sr_cli_option *o, sr_strbuf *sb)
{
    const sr_cli_option *target = sr_cli_option_target(cmd, o);
    if (o->short_name)
        sr_strbuf_printf(sb, "-%c, ", o->short_name);
    else
        sr_strbuf_puts(sb, "    ");
    sr_strbuf_printf(sb, "--%s", o->name);
    if (!target || target->kind == SR_CLI_FLAG)
        return;
    sr_strbuf_putc(sb, ' ');
    sr_cli_option_arg(cmd, o, sb);
}

static void print_option(FILE *out, const char *label, const char *help, size_t column)
{
    fprintf(out, "  %s", label);
    size_t col = 2 + strlen(label);
    if (col + 2 > column) {
        fprintf(out, "\n%*s", (int)column, "");
    } else {
        fprintf(out, "%*s", (int)(column - col), "");
    }
    print_wrapped(out, help ? help : "", column, column, false);
}

static void print_options(const sr_cli_command *cmd, FILE *out)
{
    size_t widest = strlen("-h, --help");
    for (size_t t = 0; t < SR_CLI_MAX_TABLES && cmd->options[t]; t++)
        for (const sr_cli_option *o = cmd->options[t]; o->kind != SR_CLI_END; o++) {
            if (!is_option(o))
                continue;
            sr_strbuf sb;
            sr_strbuf_init(&sb);
            option_label(cmd, o, &sb);
            if (sb.len > widest && sb.len <= LABEL_WIDTH)
                widest = sb.len;
            sr_strbuf_release(&sb);
        }
    size_t column = 2 + widest + 2;
    fputs("\nOptions:\n", out);
    print_option(out, "-h, --help", "show this help and exit", column);
    for (size_t t = 0; t < SR_CLI_MAX_TABLES && cmd->options[t]; t++)
        for (const sr_cli_option *o = cmd->options[t]; o->kind != SR_CLI_END; o++) {
            if (o->kind == SR_CLI_GROUP) {
                fprintf(out, "\n%s:\n", o->help);
                continue;
            }
            sr_strbuf sb;
            sr_strbuf_init(&sb);
            option_label(cmd, o, &sb);
            char same[128];
            const char *text = o->help;
            if (!text && o->kind == SR_CLI_ALIAS) {
                snprintf(same, sizeof same, "the same as --%s", o->alias_of);
                text = same;
            }
            print_option(out, sr_strbuf_cstr(&sb), text, column);
            sr_strbuf_release(&sb);
        }
}

static void print_exit_codes(FILE *out)
{
    fputs("\nExit codes:\n", out);
    for (size_t i = 0; i < sr_cli_n_exit_codes; i++) {
        fprintf(out, "  %zu  ", i);
        print_wrapped(out, sr_cli_exit_codes[i], 5, 5, false);
    }
}

static void print_usage_line(const sr_cli_command *cmd, const char *lead, FILE *out)
{
    fprintf(out, "%ssweep-report %s ", lead, cmd->name);
    size_t col = strlen(lead) + strlen("sweep-report ") + strlen(cmd->name) + 1;
    print_wrapped(out, cmd->usage ? cmd->usage : "", col, col, true);
}

static void print_examples(const sr_cli_command *cmd, FILE *out)
{
    if (!cmd->examples || !cmd->examples[0].command)
        return;
    fputs("\nExamples:\n", out);
    for (const sr_cli_example *e = cmd->examples; e->command; e++) {
        fprintf(out, "  %s\n      ", e->command);
        print_wrapped(out, e->what, 6, 6, false);
    }
}

void sr_cli_print_help(const sr_cli_command *cmd, FILE *out)
{
    print_usage_line(cmd, "usage: ", out);
    fputc('\n', out);
    print_wrapped(out, cmd->description ? cmd->description : cmd->summary, 0, 0, false);
    print_options(cmd, out);
    print_examples(cmd, out);
    print_exit_codes(out);
}

void sr_cli_print_overview(const sr_cli_command *cmds, size_t n, const sr_cli_option *top, FILE *out)
{
    for (size_t i = 0; i < n; i++)
        print_usage_line(&cmds[i], i == 0 ? "usage: " : "       ", out);
    fputs("       sweep-report help [COMMAND]\n"
          "       sweep-report --help",
          out);
    for (const sr_cli_option *o = top; o && o->kind != SR_CLI_END; o++) {
        if (!is_option(o))
            continue;
        sr_strbuf sb;
        sr_strbuf_init(&sb);
        sr_strbuf_printf(&sb, " | --%s%s", o->name, o->kind == SR_CLI_FLAG ? "" : " ");
        sr_cli_option_arg(NULL, o, &sb);
        fputs(sr_strbuf_cstr(&sb), out);
        sr_strbuf_release(&sb);
    }
    fputs("\n\nCommands:\n", out);
    size_t widest = 4; /* "help" */
    for (size_t i = 0; i < n; i++)
        if (strlen(cmds[i].name) > widest)
            widest = strlen(cmds[i].name);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "  %-*s  ", (int)widest, cmds[i].name);
        print_wrapped(out, cmds[i].summary, widest + 4, widest + 4, false);
    }
    fprintf(out, "  %-*s  ", (int)widest, "help");
    print_wrapped(out, "a command's options: 'sweep-report help COMMAND' or 'sweep-report COMMAND --help'", widest + 4,
                  widest + 4, false);
    print_exit_codes(out);
}
