/* A hand-built analysed sweep for the chart, HTML and PDF tests: a
 * baseline, ok, partial and failed models, a zero-width interval, a missing
 * speed scenario, a KV disagreement, a very long id and hostile names. */
#ifndef SR_RENDER_FIXTURE_H
#define SR_RENDER_FIXTURE_H

#include <stddef.h>

#include "model/sweep.h"

#define FIXTURE_BASELINE "google/gemma-4-E2B-it"
#define FIXTURE_HOSTILE_NAME "v5e sweep <script>alert(1)</script>"
#define FIXTURE_HOSTILE_MODEL "evil/<img src=x onerror=alert(1)>"
#define FIXTURE_LONG_MODEL                                                                                             \
    "some-organisation/an-extremely-long-model-name-that-goes-on-and-on-instruct-preview-2026-gguf-q8"

void fixture_sweep(sr_sweep *sw);
/* Runs in the fixture's five scenarios (128-token prompts at c=1, 4, 16;
 * 1,024 and 3,072 at c=16) at tput[c] tokens/s (NAN: none), their ratio
 * to base[c] (NULL: 1.0), as the analysis would leave them. */
void fixture_add_speed(sr_model *m, const double *tput, const double *base);
/* A sweep with only a baseline (no comparisons, no speed). */
void fixture_sweep_minimal(sr_sweep *sw);
/* Write bytes to path (for looking at outputs); returns 0 on success. */
int fixture_write(const char *path, const char *data, size_t len);
/* Run a shell command; its standard output in a fresh string (NULL if it
 * could not run). *status gets the exit status. */
char *fixture_run(const char *cmd, int *status);
/* True if the program is on PATH. */
int fixture_have(const char *program);

#endif
