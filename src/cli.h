/* The command line as tables (git's parse-options pattern). main.c holds one
 * table of subcommands; each subcommand's options are a table of
 * sr_cli_option next to the code that uses them. From those tables come the
 * option parsing (getopt_long underneath), the checks of numbers and choices
 * with one wording everywhere, and every --help text. docs/cli.md says how to
 * add a subcommand or an option.
 *
 * Options write into a struct the subcommand owns (its "opts"): each entry
 * names a field of that struct by offset, and the macros below check the
 * field's type at compile time. */
#ifndef SR_CLI_H
#define SR_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/error.h"
#include "util/strbuf.h"

typedef enum sr_cli_kind {
    SR_CLI_END = 0, /* ends a table */
    SR_CLI_GROUP,   /* a heading in --help, not an option */
    SR_CLI_FLAG,    /* bool field: set to true */
    SR_CLI_STRING,  /* const char * field: the argument as given (points into argv) */
    SR_CLI_WHOLE,   /* long field: a whole number from min to max ("4,096" too) */
    SR_CLI_NUMBER,  /* double field: a finite number within min, max (ends open or closed) */
    SR_CLI_CHOICE,  /* int field: the value of the choice named */
    SR_CLI_NAME,    /* const char * field: the (static) name of the choice named */
    SR_CLI_LIST,    /* unsigned field: a comma-separated list of choices, their values OR'ed */
    SR_CLI_CALL,    /* call(opts, arg): anything else (repeated options, odd syntax) */
    SR_CLI_ALIAS    /* another long name for the option named in alias_of */
} sr_cli_kind;

/* Which ends of a SR_CLI_NUMBER range are excluded. */
enum { SR_CLI_CLOSED = 0, SR_CLI_OPEN_LOW = 1, SR_CLI_OPEN_HIGH = 2, SR_CLI_OPEN = 3 };

/* One allowed word of a choice; a list ends with {NULL, 0}. */
typedef struct sr_cli_choice {
    const char *name;
    int value;
} sr_cli_choice;

typedef struct sr_cli_option {
    sr_cli_kind kind;
    char short_name;              /* 'o' for -o; 0: none */
    const char *name;             /* long name without "--" */
    const char *arg;              /* the argument in --help ("N", "DIR"); NULL for a flag, or "a|b" for choices */
    const char *help;             /* one sentence, lower case; wrapped by --help */
    size_t offset;                /* of the field in the subcommand's opts */
    double min, max;              /* SR_CLI_WHOLE, SR_CLI_NUMBER */
    int open_ends;                /* SR_CLI_NUMBER: SR_CLI_CLOSED, _OPEN_LOW, _OPEN_HIGH or _OPEN */
    const sr_cli_choice *choices; /* SR_CLI_CHOICE, SR_CLI_NAME, SR_CLI_LIST */
    sr_error *(*call)(void *opts, const char *arg); /* SR_CLI_CALL: a usage error for a bad arg */
    const char *alias_of;                           /* SR_CLI_ALIAS: the long name it stands for */
} sr_cli_option;

/* .offset of T's field f, with a warning at compile time unless f has type
 * ctype (comparing distinct pointer types). */
#define SR_CLI_AT(T, f, ctype) .offset = offsetof(T, f) + 0 * sizeof((ctype *)0 == &((T *)0)->f)

/* The table entries. S: short name or 0; L: long name; T, f: the opts type
 * and field; H: help text. */
#define SR_OPT_GROUP(heading)                                                                                          \
    {                                                                                                                  \
        .kind = SR_CLI_GROUP, .help = (heading)                                                                        \
    }
#define SR_OPT_FLAG(S, L, T, f, H)                                                                                     \
    {                                                                                                                  \
        .kind = SR_CLI_FLAG, .short_name = (S), .name = (L), .help = (H), SR_CLI_AT(T, f, bool)                        \
    }
#define SR_OPT_STRING(S, L, A, T, f, H)                                                                                \
    {                                                                                                                  \
        .kind = SR_CLI_STRING, .short_name = (S), .name = (L), .arg = (A), .help = (H), SR_CLI_AT(T, f, const char *)  \
    }
#define SR_OPT_WHOLE(S, L, A, T, f, lo, hi, H)                                                                         \
    {                                                                                                                  \
        .kind = SR_CLI_WHOLE, .short_name = (S), .name = (L), .arg = (A), .help = (H), SR_CLI_AT(T, f, long),          \
        .min = (lo), .max = (hi)                                                                                       \
    }
#define SR_OPT_NUMBER(S, L, A, T, f, lo, hi, ends, H)                                                                  \
    {                                                                                                                  \
        .kind = SR_CLI_NUMBER, .short_name = (S), .name = (L), .arg = (A), .help = (H), SR_CLI_AT(T, f, double),       \
        .min = (lo), .max = (hi), .open_ends = (ends)                                                                  \
    }
#define SR_OPT_CHOICE(S, L, T, f, list, H)                                                                             \
    {                                                                                                                  \
        .kind = SR_CLI_CHOICE, .short_name = (S), .name = (L), .help = (H), SR_CLI_AT(T, f, int), .choices = (list)    \
    }
#define SR_OPT_NAME(S, L, T, f, list, H)                                                                               \
    {                                                                                                                  \
        .kind = SR_CLI_NAME, .short_name = (S), .name = (L), .help = (H), SR_CLI_AT(T, f, const char *),               \
        .choices = (list)                                                                                              \
    }
#define SR_OPT_LIST(S, L, A, T, f, list, H)                                                                            \
    {                                                                                                                  \
        .kind = SR_CLI_LIST, .short_name = (S), .name = (L), .arg = (A), .help = (H), SR_CLI_AT(T, f, unsigned),       \
        .choices = (list)                                                                                              \
    }
#define SR_OPT_CALL(S, L, A, fn, H)                                                                                    \
    {                                                                                                                  \
        .kind = SR_CLI_CALL, .short_name = (S), .name = (L), .arg = (A), .help = (H), .call = (fn)                     \
    }
#define SR_OPT_ALIAS(L, target, H)                                                                                     \
    {                                                                                                                  \
        .kind = SR_CLI_ALIAS, .name = (L), .alias_of = (target), .help = (H)                                           \
    }
#define SR_OPT_END                                                                                                     \
    {                                                                                                                  \
        .kind = SR_CLI_END                                                                                             \
    }

/* A macro's value as a string literal, for help texts that name a default
 * constant: "(default " SR_STR(SR_DEFAULT_RESAMPLES) ")" shows 10000, so
 * --help, the man page and the behaviour cannot disagree. */
#define SR_STR_(x) #x
#define SR_STR(x) SR_STR_(x)

#define SR_CLI_MAX_TABLES 4

/* An example of a subcommand: the command line, and what it does (one
 * sentence). A list ends with {NULL, NULL}. */
typedef struct sr_cli_example {
    const char *command; /* "sweep-report report EXPORT -o OUT" */
    const char *what;
} sr_cli_example;

/* A subcommand: one entry of main.c's table. */
typedef struct sr_cli_command sr_cli_command;
struct sr_cli_command {
    const char *name;        /* "report" */
    const char *summary;     /* one line for `sweep-report --help` */
    const char *usage;       /* after "sweep-report NAME ": operands and required options */
    const char *description; /* the paragraph of NAME --help; NULL: the summary */
    /* The operands left after the options: their names, space separated, for
     * "missing EXPORT_DIR" ("FILE..." when repeatable), and how many. */
    const char *operands;
    int min_operands, max_operands; /* max -1: no limit */
    /* Option tables, read one after another (a subcommand may reuse another's
     * table when its opts struct begins with that one's); unused: NULL. */
    const sr_cli_option *options[SR_CLI_MAX_TABLES];
    const sr_cli_example *examples; /* in --help and the man page; NULL: none */
    /* Runs the subcommand: argv[0] is its name. Starts with sr_cli_parse.
     * Results go to out (stdout), progress to info (stderr). */
    sr_error *(*run)(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info);
};

/* What sr_cli_parse leaves after the options. */
typedef struct sr_cli_parsed {
    bool help;      /* -h/--help was given: its text went to out; do nothing else */
    int n_operands; /* the operands, in order (within argv) */
    char **operands;
} sr_cli_parsed;

/* Parse argv (argv[0] is the subcommand's name) by cmd's option tables into
 * opts, which the caller has set to its defaults. With -h or --help, prints
 * cmd's help to out and sets parsed->help. Errors are usage errors (exit 2)
 * with the wording every subcommand shares; argv's order may change. */
sr_error *sr_cli_parse(const sr_cli_command *cmd, int argc, char **argv, void *opts, FILE *out, sr_cli_parsed *parsed);

/* NAME --help: usage, description, options, exit codes. */
void sr_cli_print_help(const sr_cli_command *cmd, FILE *out);
/* sweep-report --help: the usage of every subcommand and their summaries,
 * the top level's options (top, may be NULL), the exit codes. */
void sr_cli_print_overview(const sr_cli_command *cmds, size_t n, const sr_cli_option *top, FILE *out);
/* The subcommand called name, or NULL. */
const sr_cli_command *sr_cli_find(const sr_cli_command *cmds, size_t n, const char *name);

/* ---- the man page and the shell completion (cli_doc.c) ------------------
 * Made from the same tables as --help (make install runs `sweep-report
 * --generate man|complete-bash`), so they cannot drift from the parser. */

/* What the tables do not hold: the program as a whole. */
typedef struct sr_cli_program {
    const char *version;             /* "0.1.0" */
    const char *summary;             /* the NAME line: "turn the raw output of ..." */
    const char *description;         /* the DESCRIPTION paragraph */
    const sr_cli_option *top_options; /* what the top level takes besides --help (main.c parses them) */
    const char *const *files;        /* FILES: path, meaning, path, meaning, ..., NULL */
    const char *see_also;            /* SEE ALSO paragraph */
} sr_cli_program;

/* sweep-report(1) in man(7) roff: NAME, SYNOPSIS, DESCRIPTION, a section
 * per subcommand (usage, description, options with their groups, examples),
 * EXIT STATUS, FILES, SEE ALSO. Every text is escaped for roff. */
void sr_cli_print_man(const sr_cli_program *prog, const sr_cli_command *cmds, size_t n, FILE *out);
/* A bash completion script (complete -F) for the subcommands, their
 * options, option values (choices; directories for DIR, files for FILE)
 * and operands (directories for *_DIR and *_EXPORT, files otherwise). */
void sr_cli_print_bash_completion(const sr_cli_program *prog, const sr_cli_command *cmds, size_t n, FILE *out);

/* For cli_doc.c: the exit codes' meanings (index = code), the option an
 * alias stands for (o itself otherwise; NULL for a bad alias, or any alias
 * when cmd is NULL: the top level's table), and an
 * option's argument as --help shows it ("DIR", "percentile|exact"; NULL
 * for a flag). */
extern const char *const sr_cli_exit_codes[];
extern const size_t sr_cli_n_exit_codes;
const sr_cli_option *sr_cli_option_target(const sr_cli_command *cmd, const sr_cli_option *o);
void sr_cli_option_arg(const sr_cli_command *cmd, const sr_cli_option *o, sr_strbuf *sb);

/* The usage error for a word the top level does not know, with the names
 * nearest to it: "unknown subcommand 'reprot'; did you mean 'report'?"
 * among cmds and "help", or, for a word beginning with '-', "unknown
 * option '--verison'; did you mean '--version'?" among --help and the
 * top level's options (top, a table; may be NULL). Options of a subcommand
 * get the same suggestion from sr_cli_parse. */
sr_error *sr_cli_unknown_command(const sr_cli_command *cmds, size_t n, const sr_cli_option *top, const char *word);

/* The one wording of a bad value, for checks a table cannot express:
 * "--NAME takes WHAT, not 'ARG'". */
sr_error *sr_cli_bad_value(const char *name, const char *what, const char *arg);

#endif
