#include "util/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/text.h"

sr_error *sr_error_newv(int code, const char *path, long line, const char *fmt, va_list ap)
{
    sr_error *err = sr_xcalloc(1, sizeof *err);
    err->code = code;
    err->line = line;
    err->path = path ? sr_xstrdup(path) : NULL;
    err->message = sr_vasprintf(fmt, ap);
    /* A message quotes the inputs, which may cut or hold bytes that are not
     * UTF-8: it reaches report.json and the terminal, so those bytes are
     * written as \xHH (the rest as it was). */
    if (!sr_utf8_valid(err->message, strlen(err->message))) {
        char *visible = sr_visible_text_dup(err->message, SR_KEEP_TAB | SR_KEEP_NEWLINE | SR_KEEP_NONCHARACTERS |
                                                               SR_KEEP_CONTROLS);
        free(err->message);
        err->message = visible;
    }
    return err;
}

sr_error *sr_error_new(int code, const char *path, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sr_error *err = sr_error_newv(code, path, line, fmt, ap);
    va_end(ap);
    return err;
}

sr_error *sr_error_locate(sr_error *err, const char *dir)
{
    if (!err || !err->path || !dir || err->code != SR_EXIT_INPUT)
        return err;
    char *full = sr_asprintf("%s/%s", dir, err->path);
    free(err->path);
    err->path = full;
    return err;
}

char *sr_error_describe(const sr_error *err)
{
    if (err->path && err->line > 0)
        return sr_asprintf("'%s':%ld: %s", err->path, err->line, err->message);
    if (err->path)
        return sr_asprintf("'%s': %s", err->path, err->message);
    return sr_asprintf("%s", err->message);
}

sr_error *sr_soften(sr_error *err, bool keep_going, const char *dir, const char *context, const char *consequence,
                    sr_warn_fn warn, void *sink)
{
    if (!err)
        return NULL;
    if (err->code != SR_EXIT_INPUT || !keep_going)
        return sr_error_locate(err, dir);
    char *what = sr_error_describe(err);
    char *sentence = sr_asprintf("%s%s%s%s%s", context ? context : "", context ? ": " : "", what,
                                 consequence ? "; " : "", consequence ? consequence : "");
    warn(sink, sentence);
    free(sentence);
    free(what);
    sr_error_free(err);
    return NULL;
}

char *sr_error_format(const sr_error *err)
{
    char *what = sr_error_describe(err);
    char *text = sr_asprintf("error: %s", what);
    free(what);
    return text;
}

void sr_error_free(sr_error *err)
{
    if (!err)
        return;
    free(err->path);
    free(err->message);
    free(err);
}
