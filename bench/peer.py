#!/usr/bin/env python3
"""The Python peer for `make bench` (issue 23): what an ML engineer would write
for the same question, at numpy's best. It reads every model's lm-eval samples
with json.loads per line (exact_match of the strict-match lines, by doc_id)
and the BFCL result and score files (an entry listed in the score file scores
0, every other entry 1), pairs each model with the baseline named in
sweep.json over the shared item ids, and runs a 10,000-resample paired
percentile bootstrap of the mean difference with the multinomial draw over
the distinct paired differences (the method sweep-report uses, exact in
distribution for 0/1 scores):

    vals, counts = np.unique(d, return_counts=True)
    boot = rng.multinomial(n, counts / n, size=B) @ vals / n

then prints model, benchmark, n, accuracy, delta and the 95 % interval. The
whole process is what bench/run.sh times (CPU time, from the kernel), so
reading, parsing and the bootstraps all count, as they do for the report.

usage: peer.py EXPORT [--resamples B] [--seed S] [--json OUT] (OUT: the
intervals as JSON, for bench/check_intervals.py)"""

import argparse
import glob
import json
import os
import sys

import numpy as np

FILTER = "strict-match"


def read_samples(path):
    scores = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            if rec["filter"] == FILTER:
                scores[str(rec["doc_id"])] = float(rec["exact_match"])
    return scores


def bfcl_item(test_id):
    return test_id.rsplit("_", 1)[1]  # simple_12, simple_python_12 -> 12


def read_bfcl(result_path, score_path):
    with open(result_path, encoding="utf-8") as f:
        ids = [bfcl_item(json.loads(line)["id"]) for line in f if line.strip()]
    with open(score_path, encoding="utf-8") as f:
        next(f)  # header: accuracy, correct_count, total_count
        failed = {bfcl_item(json.loads(line)["id"]) for line in f if line.strip()}
    return {i: 0.0 if i in failed else 1.0 for i in ids}


def model_of_bfcl_dir(result_path):
    d = os.path.dirname(result_path)
    if os.path.basename(d) == "non_live":
        d = os.path.dirname(d)
    name = os.path.basename(d)  # Org_Name-FC
    name = name[:-3] if name.endswith("-FC") else name
    return name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("export")
    ap.add_argument("--resamples", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--json", help="write the intervals here")
    args = ap.parse_args()
    ex = args.export

    with open(os.path.join(ex, "sweep.json"), encoding="utf-8") as f:
        baseline = json.load(f)["baseline"]
    bench = {"gsm8k": {}, "bfcl_simple": {}}
    bfcl_names = {}
    for mdir in sorted(glob.glob(os.path.join(ex, "*", ""))):
        for path in glob.glob(os.path.join(mdir, "lm_eval", "*", "samples_gsm8k_*.jsonl")):
            model = os.path.basename(os.path.dirname(path)).replace("__", "/", 1)
            bench["gsm8k"][model] = read_samples(path)
            for rp in glob.glob(os.path.join(mdir, "bfcl", "result", "**", "BFCL_v*_simple*_result.json"), recursive=True):
                sp = rp.replace(os.sep + "result" + os.sep, os.sep + "score" + os.sep).replace("_result.json", "_score.json")
                bench["bfcl_simple"][model] = read_bfcl(rp, sp)
                bfcl_names[model] = model_of_bfcl_dir(rp)

    rng = np.random.default_rng(args.seed)
    rows = []
    for name, models in bench.items():
        base = models[baseline]
        for model in sorted(models):
            if model == baseline:
                continue
            s = models[model]
            ids = sorted(base.keys() & s.keys())
            a = np.fromiter((s[i] for i in ids), float, len(ids))
            b = np.fromiter((base[i] for i in ids), float, len(ids))
            d = a - b
            n = len(d)
            vals, counts = np.unique(d, return_counts=True)
            boot = rng.multinomial(n, counts / n, size=args.resamples) @ vals / n
            lo, hi = np.percentile(boot, [2.5, 97.5])
            rows.append((model, name, n, float(a.mean()), float(d.mean()), float(lo), float(hi)))

    print(f"{'model':<24} {'benchmark':<12} {'n':>5} {'acc':>6} {'delta':>7} {'95% CI':>17}")
    for model, name, n, acc, dm, lo, hi in rows:
        print(f"{model:<24} {name:<12} {n:>5} {acc:6.3f} {100 * dm:+7.2f} [{100 * lo:+6.2f}, {100 * hi:+6.2f}]")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([{"model": m, "benchmark": bn, "n": n, "delta": dm, "ci_low": lo, "ci_high": hi}
                       for m, bn, n, _, dm, lo, hi in rows], f)
    print(f"peer: {len(rows)} comparisons", file=sys.stderr)


if __name__ == "__main__":
    main()
