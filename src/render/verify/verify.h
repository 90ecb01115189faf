/* `verify`'s output: a line per file that is not verified, in the manner of
 * `sha256sum -c` (its state, its path and why), then the summary line; or
 * with --json report.json's provenance object alone. */
#ifndef SR_RENDER_VERIFY_VERIFY_H
#define SR_RENDER_VERIFY_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "model/provenance.h"
#include "util/error.h"

/* quiet: the summary line alone. Every path and reason is made visible
 * (util/escape.h: a control character cannot reach the terminal). */
sr_error *sr_render_verify_text(const sr_provenance *p, bool quiet, char **out, size_t *len);
sr_error *sr_render_verify_json(const sr_provenance *p, char **out, size_t *len);

#endif
