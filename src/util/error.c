#include "util/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "util/json_arena.h"
#include "util/strbuf.h"
#include "util/text.h"

static sr_error out_of_memory = {SR_EXIT_FAILURE, NULL, 0, "out of memory"};

sr_error *sr_error_newv(int code, const char *path, long line, const char *fmt, va_list ap)
{
    sr_error *err = calloc(1, sizeof *err);
    if (!err)
        return &out_of_memory;
    err->code = code;
    err->line = line;
    err->path = path ? strdup(path) : NULL;
    err->message = sr_vasprintf(fmt, ap);
    /* A message quotes the inputs, which may cut or hold bytes that are not
     * UTF-8: it reaches report.json and the terminal, so those bytes are
     * written as \xHH (the rest as it was). */
    if (err->message && !sr_utf8_valid(err->message, strlen(err->message))) {
        char *visible = sr_visible_text_dup(err->message, SR_KEEP_TAB | SR_KEEP_NEWLINE | SR_KEEP_NONCHARACTERS |
                                                               SR_KEEP_CONTROLS);
        free(err->message);
        err->message = visible;
    }
    if ((path && !err->path) || !err->message) {
        sr_error_free(err);
        return &out_of_memory;
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
    if (!err || err == &out_of_memory || !err->path || !dir || err->code != SR_EXIT_INPUT)
        return err;
    char *full = sr_asprintf("%s/%s", dir, err->path);
    if (full) {
        free(err->path);
        err->path = full;
    }
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
    if (err->code == SR_EXIT_INPUT && sr_json_out_of_memory()) {
        sr_error_free(err);
        return sr_oom();
    }
    if (err->code != SR_EXIT_INPUT || !keep_going)
        return sr_error_locate(err, dir);
    char *what = sr_error_describe(err);
    char *sentence = what ? sr_asprintf("%s%s%s%s%s", context ? context : "", context ? ": " : "", what,
                                        consequence ? "; " : "", consequence ? consequence : "")
                          : NULL;
    bool ok = sentence && warn(sink, sentence);
    free(sentence);
    free(what);
    sr_error_free(err);
    return ok ? NULL : sr_oom();
}

char *sr_error_format(const sr_error *err)
{
    char *what = sr_error_describe(err);
    char *text = what ? sr_asprintf("error: %s", what) : NULL;
    free(what);
    return text;
}

void sr_error_free(sr_error *err)
{
    if (!err || err == &out_of_memory)
        return;
    free(err->path);
    free(err->message);
    free(err);
}
