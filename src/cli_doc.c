/* The man page and the bash completion, made from the option tables that
 * the parser and --help read (cli.h), so none of the three can say what
 * another does not. `make install` writes them with `sweep-report
 * --generate man` and `--generate complete-bash`. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util/escape.h"
#include "util/strbuf.h"

/* ---- roff ------------------------------------------------------------------ */

/* Append s escaped for roff text: a backslash as \e, every '-' as \- (so
 * options and commands copy as typed), quotes and backquotes by name, a
 * character beyond ASCII as \[uXXXX] (bytes that are not UTF-8 as '?'),
 * a control character as a space; a '.' or '\'' that would begin a line
 * gets \& before it. A newline ends the line and breaks it (.br). */
static void roff_text(sr_strbuf *sb, const char *s)
{
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        bool line_start = sb->len == 0 || sb->data[sb->len - 1] == '\n';
        if (c >= 0x80) {
            unsigned cp;
            size_t n = sr_utf8_decode(s + i, len - i, &cp);
            if (n == 0) {
                sr_strbuf_putc(sb, '?');
                i++;
            } else {
                sr_strbuf_printf(sb, "\\[u%04X]", cp);
                i += n;
            }
            continue;
        }
        i++;
        if (c == '\n') {
            sr_strbuf_puts(sb, "\n.br\n");
            while (i < len && s[i] == ' ')
                i++;
            continue;
        }
        if ((c == '.' || c == '\'') && line_start)
            sr_strbuf_puts(sb, "\\&");
        switch (c) {
        case '\\': sr_strbuf_puts(sb, "\\e"); break;
        case '-': sr_strbuf_puts(sb, "\\-"); break;
        case '\'': sr_strbuf_puts(sb, "\\(aq"); break;
        case '"': sr_strbuf_puts(sb, "\\(dq"); break;
        case '`': sr_strbuf_puts(sb, "\\(ga"); break;
        default: sr_strbuf_putc(sb, c < 0x20 || c == 0x7f ? ' ' : (char)c); break;
        }
    }
}

static void roff_n(sr_strbuf *sb, const char *s, size_t n)
{
    char *part = sr_strndup(s, n);
    roff_text(sb, part);
    free(part);
}

/* A word of a synopsis or an option's argument: placeholders in capitals
 * (EXPORT_DIR, N) and "options" in italics, options and literal words
 * (tpu, fp8) in bold, the punctuation between them ([ ] | ...) plain. */
static void roff_synopsis(sr_strbuf *sb, const char *s)
{
    const char *p = s;
    while (*p) {
        size_t n = strcspn(p, " []|.");
        if (n == 0) {
            roff_n(sb, p, 1);
            p++;
            continue;
        }
        bool placeholder = true;
        for (size_t i = 0; i < n; i++)
            placeholder &= (p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= '0' && p[i] <= '9') || p[i] == '_';
        placeholder |= n == 7 && strncmp(p, "options", 7) == 0;
        sr_strbuf_puts(sb, placeholder ? "\\fI" : "\\fB");
        roff_n(sb, p, n);
        sr_strbuf_puts(sb, "\\fR");
        p += n;
    }
}

/* An option's .TP label: "\fB\-o\fR, \fB\-\-output\fR \fIDIR\fR". */
static void roff_option_label(sr_strbuf *sb, const sr_cli_command *cmd, const sr_cli_option *o)
{
    if (o->short_name)
        sr_strbuf_printf(sb, "\\fB\\-%c\\fR, ", o->short_name);
    sr_strbuf_puts(sb, "\\fB\\-\\-");
    roff_text(sb, o->name);
    sr_strbuf_puts(sb, "\\fR");
    sr_strbuf arg;
    sr_strbuf_init(&arg);
    sr_cli_option_arg(cmd, o, &arg);
    if (arg.len) {
        sr_strbuf_putc(sb, ' ');
        roff_synopsis(sb, sr_strbuf_cstr(&arg));
    }
    sr_strbuf_release(&arg);
}

static void roff_options(sr_strbuf *sb, const sr_cli_command *cmd)
{
    sr_strbuf_puts(sb, ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nshow this help and exit\n");
    for (size_t t = 0; t < SR_CLI_MAX_TABLES && cmd->options[t]; t++)
        for (const sr_cli_option *o = cmd->options[t]; o->kind != SR_CLI_END; o++) {
            if (o->kind == SR_CLI_GROUP) {
                sr_strbuf_puts(sb, ".PP\n\\fI");
                roff_text(sb, o->help);
                sr_strbuf_puts(sb, ":\\fR\n");
                continue;
            }
            sr_strbuf_puts(sb, ".TP\n");
            roff_option_label(sb, cmd, o);
            sr_strbuf_putc(sb, '\n');
            if (o->help) {
                roff_text(sb, o->help);
            } else if (o->kind == SR_CLI_ALIAS) {
                sr_strbuf_puts(sb, "the same as \\fB\\-\\-");
                roff_text(sb, o->alias_of);
                sr_strbuf_puts(sb, "\\fR");
            }
            sr_strbuf_putc(sb, '\n');
        }
}

static void roff_examples(sr_strbuf *sb, const sr_cli_example *examples)
{
    if (!examples || !examples[0].command)
        return;
    sr_strbuf_puts(sb, ".PP\nExamples:\n");
    for (const sr_cli_example *e = examples; e->command; e++) {
        sr_strbuf_puts(sb, ".PP\n.RS\n.EX\n");
        roff_text(sb, e->command);
        sr_strbuf_puts(sb, "\n.EE\n");
        roff_text(sb, e->what);
        sr_strbuf_puts(sb, "\n.RE\n");
    }
}

void sr_cli_print_man(const sr_cli_program *prog, const sr_cli_command *cmds, size_t n, FILE *out)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    sr_strbuf_puts(&sb, ".\\\" sweep-report(1), made by `sweep-report --generate man` from the option tables\n"
                        ".\\\" that --help prints: edit src/main.c and src/cmd/, not this file.\n");
    /* no hyphenation (file names, options and values stay whole): the man macros take it from HY at
     * every paragraph, so it is set before .TH as well as turned off after it */
    sr_strbuf_puts(&sb, ".nr HY 0\n");
    sr_strbuf_puts(&sb, ".TH SWEEP\\-REPORT 1 \"\" \"sweep\\-report ");
    roff_text(&sb, prog->version);
    sr_strbuf_puts(&sb, "\" \"User Commands\"\n");
    sr_strbuf_puts(&sb, ".nh\n.ad l\n");
    sr_strbuf_puts(&sb, ".SH NAME\nsweep\\-report \\- ");
    roff_text(&sb, prog->summary);
    sr_strbuf_puts(&sb, "\n.SH SYNOPSIS\n.nf\n");
    for (size_t i = 0; i < n; i++) {
        sr_strbuf_puts(&sb, "\\fBsweep\\-report ");
        roff_text(&sb, cmds[i].name);
        sr_strbuf_puts(&sb, "\\fR ");
        roff_synopsis(&sb, cmds[i].usage ? cmds[i].usage : "");
        sr_strbuf_putc(&sb, '\n');
    }
    sr_strbuf_puts(&sb, "\\fBsweep\\-report help\\fR [\\fICOMMAND\\fR]\n\\fBsweep\\-report\\fR \\fB\\-\\-help\\fR");
    for (const sr_cli_option *o = prog->top_options; o && o->kind != SR_CLI_END; o++) {
        if (o->kind == SR_CLI_GROUP)
            continue;
        sr_strbuf_puts(&sb, " | ");
        roff_option_label(&sb, NULL, o);
    }
    sr_strbuf_puts(&sb, "\n.fi\n.SH DESCRIPTION\n");
    roff_text(&sb, prog->description);
    sr_strbuf_puts(&sb, "\n.PP\nThe commands:\n");
    for (size_t i = 0; i < n; i++) {
        sr_strbuf_puts(&sb, ".TP\n.B ");
        roff_text(&sb, cmds[i].name);
        sr_strbuf_putc(&sb, '\n');
        roff_text(&sb, cmds[i].summary);
        sr_strbuf_putc(&sb, '\n');
    }
    sr_strbuf_puts(&sb, ".TP\n.B help\na command\\(aqs options: \\fBsweep\\-report help\\fR \\fICOMMAND\\fR, or "
                        "\\fBsweep\\-report\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR\n");
    sr_strbuf_puts(&sb, ".PP\nWithout a command:\n.TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nlist the commands and exit\n");
    for (const sr_cli_option *o = prog->top_options; o && o->kind != SR_CLI_END; o++) {
        if (o->kind == SR_CLI_GROUP)
            continue;
        sr_strbuf_puts(&sb, ".TP\n");
        roff_option_label(&sb, NULL, o);
        sr_strbuf_putc(&sb, '\n');
        roff_text(&sb, o->help);
        sr_strbuf_putc(&sb, '\n');
    }
    sr_strbuf_puts(&sb, ".PP\nA mistyped command or option is named with the nearest ones (\\(dqdid you mean\\(dq).\n");
    for (size_t i = 0; i < n; i++) {
        const sr_cli_command *cmd = &cmds[i];
        sr_strbuf_puts(&sb, ".SH \"");
        for (const char *c = cmd->name; *c; c++)
            sr_strbuf_putc(&sb, (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c));
        sr_strbuf_puts(&sb, "\"\n.nf\n\\fBsweep\\-report ");
        roff_text(&sb, cmd->name);
        sr_strbuf_puts(&sb, "\\fR ");
        roff_synopsis(&sb, cmd->usage ? cmd->usage : "");
        sr_strbuf_puts(&sb, "\n.fi\n.PP\n");
        roff_text(&sb, cmd->description ? cmd->description : cmd->summary);
        sr_strbuf_puts(&sb, "\n.PP\nOptions:\n");
        roff_options(&sb, cmd);
        roff_examples(&sb, cmd->examples);
    }
    sr_strbuf_puts(&sb, ".SH \"EXIT STATUS\"\n");
    for (size_t i = 0; i < sr_cli_n_exit_codes; i++) {
        sr_strbuf_printf(&sb, ".TP\n.B %zu\n", i);
        roff_text(&sb, sr_cli_exit_codes[i]);
        sr_strbuf_putc(&sb, '\n');
    }
    if (prog->files && prog->files[0]) {
        sr_strbuf_puts(&sb, ".SH FILES\n");
        for (size_t i = 0; prog->files[i] && prog->files[i + 1]; i += 2) {
            sr_strbuf_puts(&sb, ".TP\n.I ");
            roff_text(&sb, prog->files[i]);
            sr_strbuf_putc(&sb, '\n');
            roff_text(&sb, prog->files[i + 1]);
            sr_strbuf_putc(&sb, '\n');
        }
    }
    if (prog->see_also) {
        sr_strbuf_puts(&sb, ".SH \"SEE ALSO\"\n");
        roff_text(&sb, prog->see_also);
        sr_strbuf_putc(&sb, '\n');
    }
    fputs(sr_strbuf_cstr(&sb), out);
    sr_strbuf_release(&sb);
}

/* ---- bash ------------------------------------------------------------------ */

/* What an argument or operand named name completes to: 'd' directories
 * (DIR, *_DIR, *_EXPORT), 'f' files (FILE, *_FILE, *_JSON), 0 nothing
 * (numbers, names). */
static char path_kind(const char *name, size_t len)
{
    static const char *const dirs[] = {"DIR", "EXPORT"}, *const files[] = {"FILE", "JSON"};
    for (size_t k = 0; k < 2; k++) {
        size_t dl = strlen(dirs[k]), fl = strlen(files[k]);
        if (len >= dl && memcmp(name + len - dl, dirs[k], dl) == 0)
            return 'd';
        if (len >= fl && memcmp(name + len - fl, files[k], fl) == 0)
            return 'f';
    }
    return 0;
}

/* text as one shell word in single quotes (a ' as '\\''), into sb: the
 * tables' words reach the script as data, whatever they hold. */
static void shell_quote(sr_strbuf *sb, const char *text)
{
    sr_strbuf_putc(sb, '\'');
    for (const char *p = text; *p; p++)
        if (*p == '\'')
            sr_strbuf_puts(sb, "'\\''");
        else
            sr_strbuf_putc(sb, *p);
    sr_strbuf_putc(sb, '\'');
}

/* The words a value may be, space separated, into sb: a choice's words,
 * or those of an argument written "a|b". False when the value is free. */
static bool value_words(const sr_cli_command *cmd, const sr_cli_option *o, sr_strbuf *sb)
{
    const sr_cli_option *target = sr_cli_option_target(cmd, o);
    if (!target)
        return false;
    if (target->choices) {
        for (const sr_cli_choice *c = target->choices; c->name; c++)
            sr_strbuf_printf(sb, "%s%s", sb->len ? " " : "", c->name);
        return true;
    }
    if (target->arg && strchr(target->arg, '|')) {
        for (const char *p = target->arg; *p; p++)
            sr_strbuf_putc(sb, *p == '|' ? ' ' : *p);
        return true;
    }
    return false;
}

/* Every option of a table as bash case patterns, by what its value
 * completes to. */
static void bash_value_cases(sr_strbuf *sb, const sr_cli_command *cmd, const sr_cli_option *table)
{
    for (const sr_cli_option *o = table; o && o->kind != SR_CLI_END; o++) {
        if (o->kind == SR_CLI_GROUP)
            continue;
        const sr_cli_option *target = sr_cli_option_target(cmd, o);
        if (!target || target->kind == SR_CLI_FLAG)
            continue;
        sr_strbuf words;
        sr_strbuf_init(&words);
        char kind = target->arg ? path_kind(target->arg, strlen(target->arg)) : 0;
        if (o->short_name)
            sr_strbuf_printf(sb, "    -%c | ", o->short_name);
        else
            sr_strbuf_puts(sb, "    ");
        sr_strbuf_printf(sb, "--%s) ", o->name);
        if (value_words(cmd, o, &words)) {
            sr_strbuf_puts(sb, target->kind == SR_CLI_LIST ? "_sweep_report_list " : "_sweep_report_words ");
            shell_quote(sb, sr_strbuf_cstr(&words));
            sr_strbuf_puts(sb, " \"$2\" ;;\n");
        } else if (kind)
            sr_strbuf_printf(sb, "_sweep_report_paths -%c \"$2\" ;;\n", kind);
        else
            sr_strbuf_puts(sb, ";; # free text or a number: nothing to offer\n");
        sr_strbuf_release(&words);
    }
}

/* The options of a command (or the top level), space separated; with
 * values: only those that take one. */
static void option_words(sr_strbuf *sb, const sr_cli_command *cmd, const sr_cli_option *const *tables, size_t n_tables,
                         bool with_values)
{
    if (!with_values)
        sr_strbuf_puts(sb, "--help -h");
    for (size_t t = 0; t < n_tables && tables[t]; t++)
        for (const sr_cli_option *o = tables[t]; o->kind != SR_CLI_END; o++) {
            if (o->kind == SR_CLI_GROUP)
                continue;
            const sr_cli_option *target = sr_cli_option_target(cmd, o);
            if (with_values && (!target || target->kind == SR_CLI_FLAG))
                continue;
            sr_strbuf_printf(sb, "%s--%s", sb->len ? " " : "", o->name);
            if (o->short_name)
                sr_strbuf_printf(sb, " -%c", o->short_name);
        }
}

/* The generic part: which command, which operand or option value the
 * cursor is on. Bash splits --name=value at '=' (COMP_WORDBREAKS), so
 * "=" may be a word of its own. */
static const char bash_driver[] =
    "# Nothing offered is ever expanded: no word goes through a glob (set -f or not), compgen -W's\n"
    "# expansions or word splitting of a command's output.\n"
    "_sweep_report_words() { # the words of $1 (space separated) that begin with $2\n"
    "    local IFS=$' \\t\\n' word\n"
    "    local -a words\n"
    "    read -r -a words <<<\"$1\"\n"
    "    COMPREPLY=()\n"
    "    for word in \"${words[@]}\"; do\n"
    "        [[ $word == \"$2\"* ]] && COMPREPLY+=(\"$word\")\n"
    "    done\n"
    "    return 0\n"
    "}\n"
    "_sweep_report_list() { # $2, a comma-separated list of words of $1: its last item completed\n"
    "    local head= word\n"
    "    local -a found=()\n"
    "    [[ $2 == *,* ]] && head=${2%,*},\n"
    "    _sweep_report_words \"$1\" \"${2##*,}\"\n"
    "    for word in \"${COMPREPLY[@]}\"; do # a word given already is not offered again\n"
    "        [[ \",$head\" == *\",$word,\"* ]] || found+=(\"$head$word\")\n"
    "    done\n"
    "    COMPREPLY=(\"${found[@]}\")\n"
    "    compopt -o nospace 2>/dev/null # a comma may follow\n"
    "    return 0\n"
    "}\n"
    "_sweep_report_paths() { # -d directories or -f files beginning with $2\n"
    "    compopt -o filenames 2>/dev/null\n"
    "    mapfile -t COMPREPLY < <(compgen \"$1\" -- \"$2\")\n"
    "}\n"
    "_sweep_report() {\n"
    "    local cur=${COMP_WORDS[COMP_CWORD]} prev= option= cmd= word i n=0 skip= rest=\n"
    "    local opts values operands\n"
    "    COMPREPLY=()\n"
    "    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
    "    if [[ $cur == = ]]; then\n"
    "        option=$prev cur=\n"
    "    elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then\n"
    "        option=${COMP_WORDS[COMP_CWORD - 2]}\n"
    "    fi\n"
    "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
    "        word=${COMP_WORDS[i]}\n"
    "        [[ $word == -* ]] || { cmd=$word; break; }\n"
    "    done\n"
    "    if [[ -z $cmd ]]; then\n"
    "        [[ -n $option ]] || option=$prev\n"
    "        _sweep_report_top \"$option\" \"$cur\"\n"
    "        return 0\n"
    "    fi\n"
    "    if [[ $cmd == help ]]; then\n"
    "        ((COMP_CWORD == i + 1)) && _sweep_report_top help \"$cur\"\n"
    "        return 0\n"
    "    fi\n"
    "    _sweep_report_cmd \"$cmd\" || return 0\n"
    "    for ((i++; i < COMP_CWORD; i++)); do\n"
    "        word=${COMP_WORDS[i]}\n"
    "        if [[ -n $skip ]]; then skip=; continue; fi\n"
    "        if [[ -z $rest && $word == = ]]; then skip=1; continue; fi\n"
    "        if [[ -z $rest && $word == -- ]]; then rest=1; continue; fi\n"
    "        if [[ -z $rest && $word == -?* ]]; then\n"
    "            [[ \" $values \" == *\" $word \"* && ${COMP_WORDS[i + 1]} != = ]] && skip=1\n"
    "            continue\n"
    "        fi\n"
    "        ((n++))\n"
    "    done\n"
    "    [[ -z $option && -n $skip ]] && option=$prev\n"
    "    if [[ -n $option ]]; then\n"
    "        _sweep_report_value_\"$cmd\" \"$option\" \"$cur\"\n"
    "        return 0\n"
    "    fi\n"
    "    if [[ -z $rest && $cur == -* ]]; then\n"
    "        _sweep_report_words \"$opts\" \"$cur\"\n"
    "        return 0\n"
    "    fi\n"
    "    local -a kinds\n"
    "    read -r -a kinds <<<\"$operands\"\n"
    "    local kind=${kinds[n]}\n"
    "    if [[ -z $kind && ${kinds[${#kinds[@]} - 1]} == *+ ]]; then kind=${kinds[${#kinds[@]} - 1]}; fi\n"
    "    case ${kind%+} in\n"
    "    d) _sweep_report_paths -d \"$cur\" ;;\n"
    "    f) _sweep_report_paths -f \"$cur\" ;;\n"
    "    esac\n"
    "    return 0\n"
    "}\n";

void sr_cli_print_bash_completion(const sr_cli_program *prog, const sr_cli_command *cmds, size_t n, FILE *out)
{
    sr_strbuf sb, words;
    sr_strbuf_init(&sb);
    sr_strbuf_init(&words);
    sr_strbuf_puts(&sb, "# bash completion for sweep-report(1): its commands, their options, the options' values\n"
                        "# and the operands. Made by `sweep-report --generate complete-bash` from the option\n"
                        "# tables --help prints; edit src/main.c and src/cmd/, not this file.\n");
    sr_strbuf_puts(&sb, bash_driver);

    /* the top level: commands, help COMMAND, --help, --version, --generate KIND */
    for (size_t i = 0; i < n; i++)
        sr_strbuf_printf(&words, "%s%s", i ? " " : "", cmds[i].name);
    sr_strbuf_puts(&sb, "_sweep_report_top() { # $1: the word before, $2: the word at the cursor\n    case $1 in\n");
    sr_strbuf_puts(&sb, "    help) _sweep_report_words ");
    shell_quote(&sb, sr_strbuf_cstr(&words));
    sr_strbuf_puts(&sb, " \"$2\" ;;\n");
    bash_value_cases(&sb, NULL, prog->top_options);
    sr_strbuf_puts(&words, " help ");
    const sr_cli_option *top[1] = {prog->top_options};
    option_words(&words, NULL, top, 1, false);
    sr_strbuf_puts(&sb, "    *) _sweep_report_words ");
    shell_quote(&sb, sr_strbuf_cstr(&words));
    sr_strbuf_puts(&sb, " \"$2\" ;;\n    esac\n}\n");

    /* each command: its options, those taking a value, its operands */
    sr_strbuf_puts(&sb, "_sweep_report_cmd() { # sets opts, values and operands for the command $1\n    case $1 in\n");
    for (size_t i = 0; i < n; i++) {
        const sr_cli_command *cmd = &cmds[i];
        sr_strbuf_release(&words);
        option_words(&words, cmd, cmd->options, SR_CLI_MAX_TABLES, false);
        sr_strbuf_printf(&sb, "    %s)\n        opts=", cmd->name);
        shell_quote(&sb, sr_strbuf_cstr(&words));
        sr_strbuf_release(&words);
        option_words(&words, cmd, cmd->options, SR_CLI_MAX_TABLES, true);
        sr_strbuf_puts(&sb, "\n        values=");
        shell_quote(&sb, sr_strbuf_cstr(&words));
        sr_strbuf_puts(&sb, "\n        operands='");
        /* "EXPORT_DIR CLAIMS_FILE...": d f+ */
        for (const char *p = cmd->operands ? cmd->operands : ""; *p;) {
            size_t len = strcspn(p, " ");
            bool more = len > 3 && strncmp(p + len - 3, "...", 3) == 0;
            char kind = path_kind(p, more ? len - 3 : len);
            sr_strbuf_printf(&sb, "%s%c%s", p == cmd->operands ? "" : " ", kind ? kind : '-', more ? "+" : "");
            p += len;
            while (*p == ' ')
                p++;
        }
        sr_strbuf_puts(&sb, "'\n        ;;\n");
    }
    sr_strbuf_puts(&sb, "    *) return 1 ;;\n    esac\n}\n");
    for (size_t i = 0; i < n; i++) {
        const sr_cli_command *cmd = &cmds[i];
        sr_strbuf_printf(&sb, "_sweep_report_value_%s() { # $1: the option, $2: its value so far\n    case $1 in\n",
                         cmd->name);
        for (size_t t = 0; t < SR_CLI_MAX_TABLES && cmd->options[t]; t++)
            bash_value_cases(&sb, cmd, cmd->options[t]);
        sr_strbuf_puts(&sb, "    esac\n}\n");
    }
    sr_strbuf_puts(&sb, "complete -F _sweep_report sweep-report\n");
    fputs(sr_strbuf_cstr(&sb), out);
    sr_strbuf_release(&sb);
    sr_strbuf_release(&words);
}
