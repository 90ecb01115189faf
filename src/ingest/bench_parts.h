/* What the serving benchmark reader's files share (bench_json.c, the whole
 * file in memory; bench_stream.c, a file too big to hold): one run filled
 * from a result's top-level members and its per-request arrays. Internal
 * to those files. */
#ifndef SR_INGEST_BENCH_PARTS_H
#define SR_INGEST_BENCH_PARTS_H

#include "ingest/json.h"
#include "ingest/json_line_fast.h"
#include "model/sweep.h"
#include "util/error.h"

/* A run from one result: o its top-level members (the tree holds them,
 * arrays empty), req its per-request arrays (NULL: none read). On success
 * a spill file req names belongs to run->requests. */
sr_error *sr_bench_fill_run(const sr_json_obj *o, const sr_fast_requests *req, sr_bench_run *run);

#endif
