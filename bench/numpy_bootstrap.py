#!/usr/bin/env python3
"""The numpy reference for `make bench`: the paired bootstraps alone.

For every non-baseline model and every benchmark in the side file written by
bench/gen_export.py --side, a B-resample (default 10,000) paired bootstrap of
the mean difference model - baseline, the way scipy.stats.bootstrap
(paired=True) and sacrebleu do it: one index matrix applied to both models,

    idx = rng.integers(0, n, size=(rows, n))
    boot[rows] = (a[idx] - b[idx]).mean(axis=1)

then the percentile interval of boot. It is numpy's ordinary vectorised way,
written as a competent user would: the paired difference d = a - b is formed
once, so each chunk gathers once, d[idx].mean(axis=1), which is the same
number as (a[idx] - b[idx]).mean(axis=1) with one gather instead of two
(--literal runs the two-gather form); the index matrix is drawn in chunks of
about 2**20 indices (8 MiB) to bound memory. Only the bootstraps are timed:
reading the side file and setting up the arrays are not.

With --report OUT/report.json the deltas and intervals are compared with the
ones sweep-report wrote: the deltas must agree exactly (same items, same
means); the interval endpoints come from different random streams, so they
agree only to Monte Carlo error (a few tenths of a point at B=10,000).

Prints a human summary and, last, a line `numpy_seconds=<wall s> numpy_cpu_seconds=<s>`
for bench/run.sh.
"""

import argparse
import json
import sys
import time

try:
    import numpy as np
except ImportError:
    print("numpy_bootstrap: numpy is not installed (Debian: apt-get install python3-numpy)", file=sys.stderr)
    sys.exit(3)


def load_side(path):
    with open(path, "rb") as fh:
        data = fh.read()
    nl = data.index(b"\n")
    header = json.loads(data[:nl])
    m = len(header["models"])
    off = nl + 1
    mats = []
    for b in header["benchmarks"]:
        n = b["n"]
        mat = np.frombuffer(data, dtype=np.uint8, count=m * n, offset=off).reshape(m, n)
        off += m * n
        mats.append(mat)
    if off != len(data):
        raise ValueError("%s: %d trailing bytes" % (path, len(data) - off))
    return header, mats


def paired_bootstrap(a, b, resamples, rng, chunk_indices, literal):
    """Percentile bootstrap of mean(a - b) over items, one index draw for both."""
    n = a.shape[0]
    rows = max(1, chunk_indices // n)
    boot = np.empty(resamples)
    if literal:
        for s in range(0, resamples, rows):
            r = min(rows, resamples - s)
            idx = rng.integers(0, n, size=(r, n))
            boot[s:s + r] = (a[idx] - b[idx]).mean(axis=1)
    else:
        d = a - b
        for s in range(0, resamples, rows):
            r = min(rows, resamples - s)
            idx = rng.integers(0, n, size=(r, n))
            boot[s:s + r] = d[idx].mean(axis=1)
    return boot


def main():
    ap = argparse.ArgumentParser(description="numpy paired-bootstrap reference timing")
    ap.add_argument("side", help="side file from gen_export.py --side")
    ap.add_argument("--resamples", type=int, default=10000)
    ap.add_argument("--confidence", type=float, default=0.95)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--chunk-indices", type=int, default=1 << 20, help="indices drawn per chunk (memory bound)")
    ap.add_argument("--literal", action="store_true", help="time (a[idx] - b[idx]).mean(axis=1), two gathers")
    ap.add_argument("--report", help="sweep-report's report.json to cross-check deltas and intervals")
    args = ap.parse_args()

    header, mats = load_side(args.side)
    base = header["baseline_index"]
    names = header["models"]
    benches = [b["name"] for b in header["benchmarks"]]
    # Scores as float64 (what scipy would see); setup is not timed.
    fmats = [m.astype(np.float64) for m in mats]
    rng = np.random.default_rng(args.seed)
    alpha = (1.0 - args.confidence) / 2.0
    q = [100.0 * alpha, 100.0 * (1.0 - alpha)]

    results = {}
    comparisons = 0
    elapsed = cpu = 0.0
    for bi, bench in enumerate(benches):
        mat = fmats[bi]
        b = mat[base]
        for mi in range(mat.shape[0]):
            if mi == base:
                continue
            a = mat[mi]
            t0, c0 = time.perf_counter(), time.process_time()
            boot = paired_bootstrap(a, b, args.resamples, rng, args.chunk_indices, args.literal)
            lo, hi = np.percentile(boot, q)
            elapsed += time.perf_counter() - t0
            cpu += time.process_time() - c0
            results[(names[mi], bench)] = (a.mean() - b.mean(), lo, hi)
            comparisons += 1

    items = sum(m.shape[1] for m in mats) * (len(names) - 1)
    print("numpy %s: %d comparisons (%d models x %d benchmarks), %d resamples each, %s" % (
        np.__version__, comparisons, len(names) - 1, len(benches), args.resamples,
        "two gathers (a[idx] - b[idx])" if args.literal else "one gather d[idx], d = a - b"))
    print("numpy: bootstraps alone %.3f s wall, %.3f s CPU; %.0f resamples/s; %.3g resampled items/s" % (
        elapsed, cpu, comparisons * args.resamples / elapsed if elapsed else 0.0,
        items * args.resamples / elapsed if elapsed else 0.0))

    if args.report:
        with open(args.report) as fh:
            rep = json.load(fh)
        dmax = ci_max = 0.0
        seen = missing = 0
        for m in rep.get("models", []):
            for bench, acc in (m.get("accuracy") or {}).items():
                key = (m["id"], bench)
                if key not in results:
                    continue
                if acc.get("delta") is None or acc.get("ci_low") is None:
                    missing += 1
                    continue
                d, lo, hi = results[key]
                dmax = max(dmax, abs(acc["delta"] - d))
                ci_max = max(ci_max, abs(acc["ci_low"] - lo), abs(acc["ci_high"] - hi))
                seen += 1
        print("check against %s: %d of %d comparisons found (%d without an interval); max |delta diff| %.3g; "
              "max |interval endpoint diff| %.4f" % (args.report, seen, comparisons, missing, dmax, ci_max))
        if seen != comparisons or dmax > 1e-12 or ci_max > 0.01:
            print("check: MISMATCH (deltas must agree exactly, endpoints within 0.01)")
        else:
            print("check: ok (deltas exact, endpoints within Monte Carlo error)")
    print("numpy_seconds=%.6f numpy_cpu_seconds=%.6f" % (elapsed, cpu))


if __name__ == "__main__":
    main()
