#!/usr/bin/env python3
"""The latency unit tests' data and the figures they are held to.

Usage: latency_reference.py OUT_DIR

Writes into OUT_DIR serving benchmark results with per-request arrays in the
real formats (tests/requests_gen.py: vLLM --save-detailed in the current and
the v0.10-era key sets, SGLang --output-details JSONL with two runs appended
and an unlimited rate written as Infinity), then reads them back with Python's
json module and writes OUT_DIR/expected.json: what tests/unit/test_latency.c
must find, computed here with numpy and scipy, not by the tool:

- per scenario (one file, its runs pooled): every successful request's TTFT,
  E2EL = TTFT + sum(ITLs) and TPOT = (E2EL - TTFT) / (output_len - 1) for
  output_len > 1, sorted; p50/p90/p99 of TTFT, TPOT, ITL (pooled) and E2EL
  with numpy.percentile's default linear method, in ms; the failed requests
  (non-empty errors[i]); goodput under an SLO (vLLM's --goodput rule, a
  one-token request's TPOT counted as 0) over the runs' total duration; the
  median over runs of the files' own percentile keys;
- Welch's t interval on log throughputs (scipy.stats.t; the degrees of
  freedom checked against scipy.stats.ttest_ind(equal_var=False)'s p-value);
- latency ratios with numpy's index bootstrap (10,000 resamples), for the
  C sampler's interval to fall near.

It first checks the generator: the clients' own formulas applied to the
arrays in each file (E2EL rebuilt from them) must give the file's summary
keys, which the generator computed from the measured latencies. Exit 1 when
one does not.
"""
import json
import math
import os
import random
import sys

import numpy as np
import scipy.stats as st

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import requests_gen as gen  # noqa: E402

PCTS = (50, 90, 99)
SLO = {"ttft": 150.0, "tpot": 22.0, "e2el": 1500.0}
problems = []


def write(out, name, text):
    with open(os.path.join(out, name), "w") as fh:
        fh.write(text)


def scenarios(out):
    """The files: (name, lines of JSON objects as written)."""
    rng = random.Random(20261206)
    files = []
    # vLLM, current keys, --append-result: three runs at c=4, failures, a one-token request.
    runs = []
    for k in range(3):
        reqs = gen.simulate(rng, 60, 256, 48, 0.09 + 0.01 * k, 0.018, start=1000.0 + 100 * k,
                            fail_before=(7,) if k == 0 else (), fail_during=(19,) if k < 2 else (),
                            one_token=(3,) if k == 1 else ())
        runs.append(gen.vllm_result(reqs, "org/model-a", 60, float("inf"), 4, keyset="new",
                                    metadata={"input_len": 256, "output_len": 48}, percentiles=(50, 90, 99),
                                    metrics=("ttft", "tpot", "itl", "e2el"), goodput=SLO))
    files.append(("vllm-new-c4.json", [gen.vllm_line(r) for r in runs], "\n"))
    # vLLM, v0.10-era keys, one run at a finite rate.
    reqs = gen.simulate(rng, 40, 128, 32, 0.05, 0.015, fail_before=(0, 5))
    files.append(("vllm-v010-r2.json", [gen.vllm_line(gen.vllm_result(reqs, "org/model-b", 40, 2.0, None,
                                                                      keyset="v010"))], "\n"))
    # SGLang: two runs appended, unlimited rate (Infinity), max_concurrency 8.
    runs = []
    for k in range(2):
        reqs = gen.simulate(rng, 50, 512, 40, 0.12, 0.02, start=2000.0 + 100 * k, fail_during=(11,) if k else (),
                            one_token=(4,))
        runs.append(gen.sglang_result(reqs, float("inf"), 8, 512, 40))
    files.append(("sglang-c8.jsonl", [gen.sglang_line(r).rstrip("\n") for r in runs], "\n"))
    for name, lines, sep in files:
        write(out, name, sep.join(lines) + ("\n" if name.endswith(".jsonl") else ""))
    return [name for name, _, _ in files]


def load(path):
    """Every object of a file (one a line), Python's json reading Infinity."""
    with open(path) as fh:
        return [json.loads(line) for line in fh if line.strip()]


def requests_of(obj):
    """The successful requests: ttft, e2el, tpot (None for one token), itls."""
    reqs = []
    for i, err in enumerate(obj["errors"]):
        if err:
            continue
        ttft, itls, n = obj["ttfts"][i], obj["itls"][i], obj["output_lens"][i]
        s = 0.0
        for x in itls:  # left to right, as the tool sums
            s += x
        e2el = ttft + s
        tpot = (e2el - ttft) / (n - 1) if n > 1 else None
        reqs.append({"ttft": ttft, "e2el": e2el, "tpot": tpot, "itls": itls, "n": n})
    return reqs


def close(what, got, want, rel=1e-9):
    if want is None or got is None:
        if got != want:
            problems.append("%s: %r, expected %r" % (what, got, want))
    elif abs(got - want) > rel * max(1e-12, abs(want)):
        problems.append("%s: %r, expected %r" % (what, got, want))


def check_summary_keys(name, obj):
    """The clients' formulas on the arrays give the file's own keys."""
    reqs = requests_of(obj)
    ttfts = [r["ttft"] for r in reqs]
    tpots = [r["tpot"] for r in reqs if r["tpot"] is not None]
    itls = [x for r in reqs for x in r["itls"]]
    e2els = [r["e2el"] for r in reqs]
    values = {"ttft": ttfts, "tpot": tpots, "itl": itls, "e2el": e2els, "e2e_latency": e2els}
    for key, v in obj.items():
        for stat in ("mean", "median", "std") + tuple("p%d" % p for p in range(1, 100)):
            prefix = stat + "_"
            if key.startswith(prefix) and key.endswith("_ms") and key[len(prefix):-3] in values:
                data = values[key[len(prefix):-3]] or 0
                want = {"mean": np.mean, "median": np.median, "std": np.std}.get(stat)
                got = float(want(data) if want else np.percentile(data, float(stat[1:]))) * 1000
                close("%s: %s from the arrays" % (name, key), got, obj[key], 1e-9)
    completed = len(reqs)
    close("%s: completed" % name, completed, obj["completed"], 0)
    if "failed" in obj:
        close("%s: failed" % name, sum(1 for e in obj["errors"] if e), obj["failed"], 0)
    close("%s: total_output_tokens" % name, sum(obj["output_lens"]), obj["total_output_tokens"], 0)
    close("%s: output_throughput" % name, sum(obj["output_lens"]) / obj["duration"], obj["output_throughput"])
    if obj.get("request_goodput") is not None:
        close("%s: request_goodput" % name, good(reqs) / obj["duration"], obj["request_goodput"])


def good(reqs):
    n = 0
    for r in reqs:
        tpot = r["tpot"] if r["tpot"] is not None else 0.0
        if r["ttft"] <= SLO["ttft"] / 1000 and tpot <= SLO["tpot"] / 1000 and r["e2el"] <= SLO["e2el"] / 1000:
            n += 1
    return n


def pct(values, p):
    return float(np.percentile(np.array(values, dtype=np.float64), p)) * 1000 if values else None


def scenario_expected(out, name):
    objs = load(os.path.join(out, name))
    for k, obj in enumerate(objs):
        check_summary_keys("%s run %d" % (name, k + 1), obj)
    reqs = [r for obj in objs for r in requests_of(obj)]
    values = {
        "ttft": sorted(r["ttft"] for r in reqs),
        "tpot": sorted(r["tpot"] for r in reqs if r["tpot"] is not None),
        "itl": sorted(x for r in reqs for x in r["itls"]),
        "e2el": sorted(r["e2el"] for r in reqs),
    }
    latency = {}
    for m, v in values.items():
        latency[m] = {"p%d" % p: pct(v, p) for p in PCTS}
        latency[m]["n"] = len(values["tpot"]) if m == "tpot" else len(reqs)
    # The files' own keys, the median over runs of each (the tool's "file" source).
    file_keys = {}
    for m in ("ttft", "tpot", "itl", "e2el"):
        names = [m] + (["e2e_latency"] if m == "e2el" else [])
        file_keys[m] = {}
        for p in PCTS:
            runs = []
            for obj in objs:
                v = None
                for nm in names:
                    for key in (("p%d_%s_ms" % (p, nm)),) + ((("median_%s_ms" % nm),) if p == 50 else ()):
                        if v is None and obj.get(key) is not None:
                            v = obj[key]
                if v is not None:
                    runs.append(v)
            file_keys[m]["p%d" % p] = float(np.median(runs)) if runs else None
    duration = sum(obj["duration"] for obj in objs)
    return {
        "file": name, "runs": len(objs), "latency": latency, "file_keys": file_keys,
        "sorted": {m: values[m] for m in ("ttft", "tpot", "e2el")},
        "failed": sum(1 for obj in objs for e in obj["errors"] if e),
        "goodput": good(reqs) / duration, "slo": SLO,
    }


def welch(a, b, confidence):
    la, lb = np.log(a), np.log(b)
    va, vb = la.var(ddof=1) / len(a), lb.var(ddof=1) / len(b)
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    d = la.mean() - lb.mean()
    test = st.ttest_ind(la, lb, equal_var=False)
    close("welch t statistic", d / se, float(test.statistic), 1e-12)
    close("welch p-value at the Welch-Satterthwaite df", float(2 * st.t.sf(abs(d / se), df)), float(test.pvalue),
          1e-9)
    t = float(st.t.ppf((1 + confidence) / 2, df))
    return {"a": list(a), "b": list(b), "confidence": confidence, "gmean": math.exp(d),
            "low": math.exp(d - t * se), "high": math.exp(d + t * se), "df": df}


def bootstrap_ratio(a, b, p, resamples, seed):
    """numpy's index bootstrap of percentile(a*) / percentile(b*)."""
    rng = np.random.default_rng(seed)
    a, b = np.asarray(a), np.asarray(b)
    ra = np.percentile(a[rng.integers(0, len(a), size=(resamples, len(a)))], p, axis=1)
    rb = np.percentile(b[rng.integers(0, len(b), size=(resamples, len(b)))], p, axis=1)
    lo, hi = np.percentile(ra / rb, [2.5, 97.5])
    return float(np.percentile(a, p) / np.percentile(b, p)), float(lo), float(hi)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    names = scenarios(out)
    expected = {"scenarios": [scenario_expected(out, n) for n in names]}
    wrng = np.random.default_rng(7)
    cases = [
        ([812.5, 830.1, 799.0], [900.2, 905.7, 889.9, 910.3], 0.95),
        ([1000.0, 1100.0], [1000.0, 1010.0], 0.95),
        (list(950 + 40 * wrng.standard_normal(9)), list(1000 + 5 * wrng.standard_normal(3)), 0.90),
        ([50.0, 52.0, 49.0, 51.0, 55.0], [50.5, 49.5], 0.99),
    ]
    expected["welch"] = [welch(np.array(a), np.array(b), c) for a, b, c in cases]
    sc = expected["scenarios"]
    expected["ratios"] = []
    for i, j, m, p in ((0, 2, "ttft", 99), (2, 0, "tpot", 50), (0, 0, "ttft", 99)):
        a, b = sc[i]["sorted"][m], sc[j]["sorted"][m]
        ratio, lo, hi = bootstrap_ratio(a, b, p, 10000, 11 + i + j)
        expected["ratios"].append({"a": i, "b": j, "metric": m, "p": p, "ratio": ratio, "numpy_low": lo,
                                   "numpy_high": hi, "resamples": 10000})
    with open(os.path.join(out, "expected.json"), "w") as fh:
        json.dump(expected, fh, indent=1)
    for p in problems:
        print("latency_reference: " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
