#!/usr/bin/env python3
"""The bucket-layout sample (fixtures/v5e-gemma4-sweep) against the author's real files.

Same keys in the speed JSONs, gen summaries and per-item rows, same line shapes in run.log and
the boot logs, as ../shared/realdata/author-pipeline holds them. Skips (exit 0, with a message)
where the real files are absent. Usage: python3 tests/check_bucket_fixture.py [FIXTURE]
"""
import glob
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REAL = os.path.join(ROOT, "..", "shared", "realdata", "author-pipeline")
REAL_RUN = os.path.join(REAL, "exports", "v5e1-longb-2026-09-30-bucket-layout")
REAL_INDEX = os.path.join(REAL, "gemma4-dev-index")
FAILS = []


def check(ok, what):
    if not ok:
        FAILS.append(what)


def keys(obj):
    return list(obj.keys())


def real(path):
    p = os.path.join(REAL_RUN, path) if not path.startswith("/") else path
    return p if os.path.exists(p) else None


LINE_SHAPES = {  # run.log
    "serving": r"^\[jev-quant \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\] serving \S+ as \S+ \([a-z+]+, [^)]*\)$",
    "ready": r"^(\[jev-quant \S+\] )?READY \S+ after \d+s$",
    "gen": r"^\[jev-quant \S+\] \S+ (gsm8k|bfcl_simple): \{.*\}$",
    "long": r"^\[jev-quant \S+\] \S+ long \d+ at concurrency \d+: \d+ prompt tokens, [\d.]+ out tok/s, "
            r"[\d.]+ total tok/s, ttft [\d.]+ s$",
}
BOOT_SHAPES = {
    "banner": r"^\(APIServer pid=1\) INFO \d\d-\d\d \d\d:\d\d:\d\d \[api_utils\.py:\d+\] .*version \d+\.\d+\.\d+(rc\d+)?\.dev\d+\+g[0-9a-f]+\r$",
    "engine": r"^\(EngineCore pid=\d+\) INFO \S+ \S+ \[core\.py:\d+\] Initializing a V1 LLM engine \(v\d+\.\d+\.\d+[^)]*\) with config: ",
    "memory": r"^\(EngineCore pid=\d+\) INFO \S+ \S+ \[tpu_worker\.py:\d+\] Memory statistics \| total_hbm_limit_gb=15\.75GiB \| "
              r"total_hbm_limit_cap_gb=[\d.]+GiB \| total_hbm_used_gb=[\d.]+GiB \| total_hbm_avail_gb=[\d.]+GiB$",
    "kv": r"^\(EngineCore pid=\d+\) INFO \S+ \S+ \[kv_cache_utils\.py:2404\] TPU KV cache size: [\d,]+ tokens, "
          r"Maximum concurrency for [\d,]+ tokens per request: [\d.]+x$",
    "blocks": r"^\(EngineCore pid=\d+\) INFO \S+ \S+ \[kv_cache_manager\.py:\d+\] Hybrid KV cache layout: .*kv_cache_config\.num_blocks=\d+,",
    "nondefault": r"^\(APIServer pid=1\) INFO \S+ \S+ \[api_utils\.py:\d+\] non-default args: \{.*'max_num_seqs': 16",
    "tpu_info": r"^INFO \S+ \S+ \[__init__\.py:75\] TPU info: node_name=\S+ \| tpu_type=v5litepod-1 \|",
}


def has_shape(lines, rx):
    return any(re.search(rx, ln) for ln in lines)


def main(argv):
    fixture = argv[1] if len(argv) > 1 else os.path.join(ROOT, "fixtures", "v5e-gemma4-sweep")
    if not os.path.isdir(REAL_RUN):
        print("check_bucket_fixture: skipped, %s is absent" % REAL_RUN)
        return 0
    runs = [d for d in glob.glob(os.path.join(fixture, "*", "logs")) if os.path.isdir(d)]
    if len(runs) != 1:
        print("FAIL %s: want one run folder with logs/, found %d" % (fixture, len(runs)))
        return 1
    logs = runs[0]
    results = os.path.join(os.path.dirname(logs), "results")

    real_long = json.load(open(real("logs/e2b-bf16.long1024.c16.json")))
    for f in sorted(glob.glob(os.path.join(logs, "*.long*.c*.json"))):
        d = json.load(open(f))
        check(keys(d) == keys(real_long), "%s: top-level keys %s" % (f, keys(d)))
        check(keys(d["passes"][0]) == keys(real_long["passes"][0]), "%s: pass keys" % f)
        check(len(d["passes"]) == 3, "%s: three passes" % f)
    load_path = os.path.join(REAL_INDEX, "jev-tpu-v5e1/results/2026-09-28-12b3-v5e1-logs/12b-repack.load.c16.json")
    if os.path.exists(load_path):
        real_load = json.load(open(load_path))
        # Token counts are totals over the batch of `concurrency` requests, as in the real file
        # (completion_tokens 4096 = 16 x 256, prompt_tokens 508 = 16 x 31.75).
        for d in [real_load]:
            check(d["passes"][0]["completion_tokens"] == d["concurrency"] * d["max_tokens"],
                  "real load file: completion_tokens is no batch total (shape out of date)")
        per_request = {}
        for f in sorted(glob.glob(os.path.join(logs, "*.load.c*.json"))):
            d = json.load(open(f))
            check(keys(d) == keys(real_load), "%s: top-level keys" % f)
            check(keys(d["passes"][0]) == keys(real_load["passes"][0]), "%s: pass keys" % f)
            check(all(p["completion_tokens"] == d["concurrency"] * d["max_tokens"] for p in d["passes"]),
                  "%s: completion_tokens is not the batch's total" % f)
            check(d["prompt_tokens"] >= d["concurrency"] * 8,
                  "%s: prompt_tokens %d is no total over %d requests" % (f, d["prompt_tokens"], d["concurrency"]))
            per_request.setdefault(os.path.basename(f).split(".load.")[0], set()).add(d["prompt_tokens"] / d["concurrency"])
        # one batch of the client's prompts a concurrency: the per-request mean moves a little with it
        # (26, 26.75, 27.75 in the author's files), never by the concurrency's factor
        for tag, v in sorted(per_request.items()):
            check(max(v) <= 1.25 * min(v), "%s: prompt tokens per request %s differ by the concurrency's factor "
                  "(prompt_tokens is not the batch's total)" % (tag, sorted(v)))
        check(any(len(v) > 1 for v in per_request.values()) or not per_request,
              "every load file has the same prompt length per request at every concurrency (no real file does)")
    real_sum = json.loads(open(real("logs/e2b-bf16.gen-gsm8k.json")).read())
    for f in sorted(glob.glob(os.path.join(logs, "*.gen-*.json"))):
        d = json.loads(open(f).read())
        # the newer gen_eval.py adds max_tokens after task
        check([k for k in keys(d) if k != "max_tokens"] == keys(real_sum), "%s: summary keys" % f)
    heads = {"bfcl_simple": real("results/2026-09-30-longb-v5e1-e2b-bf16-gen/bfcl_simple.head.jsonl"),
             "gsm8k": os.path.join(REAL_INDEX, "tpu-vllm-v5e1-4b-w8a8emb4/benchmarks/runs/2026-09-30-longb-e4b-w8a8-emb4-v5e1/"
                                   "2026-09-30-longb-v5e1-e4b-w8a8-emb4-gen/gsm8k.head.jsonl")}
    for task, head in heads.items():
        if not head or not os.path.exists(head):
            print("check_bucket_fixture: no real %s rows, not compared" % task)
            continue
        want = keys(json.loads(open(head).readline()))
        for f in sorted(glob.glob(os.path.join(results, "*-gen", task + ".jsonl"))):
            for ln in open(f):
                row = json.loads(ln)
                check([k for k in keys(row) if k != "max_tokens"] == want, "%s: row keys %s" % (f, keys(row)))
                break
    ours = open(os.path.join(logs, "run.log")).read().split("\n")
    theirs = open(real("logs/run.log")).read().split("\n")
    for name, rx in LINE_SHAPES.items():
        check(has_shape(theirs, rx), "real run.log has no %s line (shape out of date)" % name)
        check(has_shape(ours, rx), "run.log has no %s line" % name)
    real_boot = open(real("logs/google_gemma-4-E2B-it.boot.log"), newline="").read().split("\n")
    for f in sorted(glob.glob(os.path.join(logs, "*.boot.log"))):
        lines = open(f, newline="").read().split("\n")
        for name, rx in BOOT_SHAPES.items():
            if name in ("memory", "kv", "blocks") and "Loading weights" not in "".join(lines):
                continue   # failed at load: no memory lines
            check(has_shape(real_boot, rx), "real boot log has no %s line" % name)
            check(has_shape(lines, rx), "%s: no %s line" % (os.path.basename(f), name))
    for f in FAILS:
        print("FAIL", f)
    print("check_bucket_fixture: %d problem(s)" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
