/* `verify`'s lines and summary (verify.h). */
#include "render/verify/verify.h"

#include <stdlib.h>
#include <string.h>

#include "render/shared/json_parts.h"
#include "render/shared/words.h"
#include "util/alloc.h"
#include "util/escape.h"
#include "util/strbuf.h"

/* The word a line starts with, as sha256sum -c says FAILED. */
static const char *line_word(sr_custody_status s)
{
    switch (s) {
    case SR_CUSTODY_SIZE_ONLY: return "SIZE ONLY";
    case SR_CUSTODY_CHANGED: return "CHANGED";
    case SR_CUSTODY_MISSING: return "MISSING";
    case SR_CUSTODY_EXTRA: return "EXTRA";
    case SR_CUSTODY_UNVERIFIABLE: return "UNVERIFIABLE";
    default: return "VERIFIED";
    }
}

static void put_visible(sr_strbuf *sb, const char *s)
{
    char *v = sr_terminal_text_dup(s);
    sr_strbuf_puts(sb, v);
    free(v);
}

sr_error *sr_render_verify_text(const sr_provenance *p, bool quiet, char **out, size_t *len)
{
    sr_strbuf sb;
    sr_strbuf_init(&sb);
    for (size_t i = 0; i < p->n_files && !quiet; i++) {
        const sr_custody_file *f = &p->files[i];
        if (f->status == SR_CUSTODY_VERIFIED)
            continue;
        sr_strbuf_printf(&sb, "%-13s", line_word(f->status));
        put_visible(&sb, f->path);
        if (f->reason) {
            sr_strbuf_puts(&sb, ": ");
            put_visible(&sb, f->reason);
        }
        if (f->status == SR_CUSTODY_CHANGED && f->expected && f->actual && f->check && f->check != SR_CHECK_SIZE) {
            char *what =
                sr_asprintf(" (%s: listed %s, copy %s)", sr_custody_check_name(f->check), f->expected, f->actual);
            put_visible(&sb, what);
            free(what);
        }
        sr_strbuf_putc(&sb, '\n');
    }
    char *summary = sr_text_custody_summary(p);
    sr_strbuf_printf(&sb, "sweep-report: %s\n", summary);
    free(summary);
    *len = sb.len;
    *out = sr_strbuf_detach(&sb);
    return NULL;
}

sr_error *sr_render_verify_json(const sr_provenance *p, char **out, size_t *len)
{
    return sr_json_print(sr_json_provenance(p), out, len);
}
