/* `sweep-report verify EXPORT_DIR LISTING...`: the copy checked against its
 * bucket listings alone, as `sha256sum -c` checks a sum file: a line per
 * file that is not verified and a summary (docs/provenance.md). Exit 4
 * when a file is missing or changed (with --strict also when one is only
 * size-checked, not verifiable or extra), 3 for a listing that cannot be
 * read or matches nothing. */
#include "cmd/cmd.h"

#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "render/outputs/outputs.h"
#include "util/alloc.h"

typedef struct verify_opts {
    const char *prefix;
    bool json, quiet, strict;
    long threads;
} verify_opts;

const sr_cli_option sr_verify_options[] = {
    SR_OPT_STRING(0, "listing-prefix", "PREFIX", verify_opts, prefix,
                  "what the listings' object names start with above EXPORT_DIR (gs://bucket/runs/x/ or runs/x/); "
                  "default: the prefix under which the most names are files of EXPORT_DIR"),
    SR_OPT_FLAG(0, "json", verify_opts, json,
                "print report.json's provenance object (every file, verified ones too) instead of the lines"),
    SR_OPT_FLAG('q', "quiet", verify_opts, quiet, "print the summary line alone"),
    SR_OPT_FLAG(0, "strict", verify_opts, strict,
                "exit 4 also when a file is checked by its size only, cannot be verified, or is extra"),
    SR_OPT_WHOLE(0, "threads", "N", verify_opts, threads, 0, 1024,
                 "files hashed at once (default: one per core, at most 8)"),
    SR_OPT_END,
};

/* Exit 4 with what failed, counted. */
static sr_error *verdict(const sr_provenance *p, bool strict)
{
    const size_t *c = p->counts;
    size_t bad = c[SR_CUSTODY_MISSING] + c[SR_CUSTODY_CHANGED];
    size_t soft = c[SR_CUSTODY_SIZE_ONLY] + c[SR_CUSTODY_UNVERIFIABLE] + c[SR_CUSTODY_EXTRA];
    if (bad == 0 && !(strict && soft > 0))
        return NULL;
    if (bad)
        return sr_error_new(SR_EXIT_CHECK, NULL, 0, "the copy is not the bucket's: %zu missing, %zu changed",
                            c[SR_CUSTODY_MISSING], c[SR_CUSTODY_CHANGED]);
    return sr_error_new(SR_EXIT_CHECK, NULL, 0, "--strict: %zu checked by size only, %zu not verifiable, %zu extra",
                        c[SR_CUSTODY_SIZE_ONLY], c[SR_CUSTODY_UNVERIFIABLE], c[SR_CUSTODY_EXTRA]);
}

sr_error *sr_cmd_verify(const sr_cli_command *cmd, int argc, char **argv, FILE *out, FILE *info)
{
    (void)info;
    verify_opts o = {0};
    sr_cli_parsed args;
    sr_error *err = sr_cli_parse(cmd, argc, argv, &o, out, &args);
    if (err || args.help)
        return err;
    if (o.json && o.quiet)
        return sr_usage_error("--json and --quiet do not go together: --json prints the whole object");
    sr_provenance p;
    sr_provenance_init(&p);
    err = sr_build_custody(&p, args.operands[0], (const char *const *)args.operands + 1, (size_t)args.n_operands - 1,
                           o.prefix, (int)o.threads);
    char *text = NULL;
    size_t len = 0;
    if (!err)
        err = sr_render_custody_answer(&p, o.json, o.quiet, &text, &len);
    /* flushed before the verdict's error line, so a terminal shows the lines, then why it failed */
    if (!err && (fwrite(text, 1, len, out) != len || fflush(out) != 0))
        err = sr_error_new(SR_EXIT_FAILURE, NULL, 0, "cannot write to standard output");
    free(text);
    if (!err)
        err = verdict(&p, o.strict);
    sr_provenance_release(&p);
    return err;
}
