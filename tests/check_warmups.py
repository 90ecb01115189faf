#!/usr/bin/env python3
"""Warm-ups of `vllm bench serve` stdout (golden case report/bench-warmup), derived from the
inputs: each run's num_prompts from its Namespace line and its output throughput from its
result block; a run with under a quarter of its scenario's largest num_prompts, or in a file
named warmup, is a warm-up. Checks that report.json leaves exactly those out of each median,
lists them with the reason, and forms the ratio from the medians of the rest.

usage: check_warmups.py REPORT_JSON EXPORT_DIR
"""
import glob
import json
import os
import re
import statistics
import sys


def runs_of(model_dir):
    out = []
    for path in sorted(glob.glob(os.path.join(model_dir, "*.log"))):
        text = open(path).read()
        prompts = int(re.search(r"num_prompts=(\d+)", text).group(1))
        tput = float(re.search(r"Output token throughput \(tok/s\):\s+([\d.]+)", text).group(1))
        out.append((os.path.basename(path), prompts, tput))
    return out


def main(argv):
    report = json.load(open(argv[1]))
    export = argv[2]
    base_id = json.load(open(os.path.join(export, "sweep.json")))["baseline"]
    fails, medians = [], {}
    for m in report["models"]:
        runs = runs_of(os.path.join(export, m["directory"]))
        most = max(p for _, p, _ in runs)
        warm = [r for r in runs if 4 * r[1] < most or "warmup" in r[0].lower()]
        kept = [r for r in runs if r not in warm]
        (key, sc), = m["speed"].items()
        medians[m["id"]] = statistics.median(t for _, _, t in kept)
        if sorted(sc["runs"]) != sorted(t for _, _, t in kept):
            fails.append("%s: runs %s, want %s" % (m["id"], sc["runs"], [t for _, _, t in kept]))
        if abs(sc["median"] - medians[m["id"]]) > 1e-9:
            fails.append("%s: median %s, want %s" % (m["id"], sc["median"], medians[m["id"]]))
        got = sorted(os.path.basename(w["source"]).split(":")[0] for w in sc.get("warmups", []))
        if got != sorted(n for n, _, _ in warm):
            fails.append("%s: warm-ups %s, want %s" % (m["id"], got, [n for n, _, _ in warm]))
        for w in sc.get("warmups", []):
            if not w.get("reason"):
                fails.append("%s: warm-up %s without a reason" % (m["id"], w["source"]))
    for m in report["models"]:
        if m["id"] == base_id:
            continue
        (key, sc), = m["speed"].items()
        want = medians[m["id"]] / medians[base_id]
        if abs(sc["ratio"] - want) > 1e-9:
            fails.append("%s: ratio %s, want %s" % (m["id"], sc["ratio"], want))
    if sum("warm-up run" in w for w in report["warnings"]) != 1:
        fails.append("want one warning line about the warm-ups")
    for f in fails:
        print("FAIL", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
