#!/usr/bin/env python3
"""Writes the export of the golden case report/per-request (run once; the
files are committed as the case's input, this script says how they were made).

Usage: /usr/bin/python3 tests/gen_per_request_case.py tests/cases/report/per-request/export

Three entries, every run with per-request arrays (tests/requests_gen.py, the
clients' real formats), 256-token prompts and 24-token outputs, 24 requests a
run:

- org/base (the baseline), vLLM --save-detailed, current keys, one file a run:
  a concurrency sweep c=1, 4, 16 and a rate sweep 2, 8 and inf ("inf", so
  24 prompts at once), 2 runs each; a failed request in some runs;
- org/fast, SGLang --output-details, one JSONL a sweep with the runs appended:
  the same loads, 2 runs each (max_concurrency with an Infinity rate; the rate
  sweep's unlimited point written as Infinity), faster; a request cut
  mid-stream;
- org/slow, vLLM v0.10-era keys, the concurrency sweep only, 1 run each.

With --slo ttft=300,tpot=40 the SLO capacity is inside the sweep for the
baseline (c=4 ok, c=16 not; rate 8 ok, inf not), at its top for org/fast and
below it for org/slow; the script checks that before writing.
"""
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import requests_gen as gen  # noqa: E402

IN, OUT, N = 256, 24, 24
SLO = {"ttft": 300.0, "tpot": 40.0}
# (ttft s, tpot s) per load and model
LOADS = {
    "base": {("c", 1): (0.07, 0.020), ("c", 4): (0.10, 0.025), ("c", 16): (0.50, 0.050),
             ("r", 2.0): (0.07, 0.020), ("r", 8.0): (0.08, 0.026), ("r", float("inf")): (0.55, 0.050)},
    "fast": {("c", 1): (0.05, 0.012), ("c", 4): (0.06, 0.015), ("c", 16): (0.08, 0.021),
             ("r", 2.0): (0.05, 0.012), ("r", 8.0): (0.07, 0.016), ("r", float("inf")): (0.10, 0.022)},
    "slow": {("c", 1): (0.42, 0.055), ("c", 4): (0.60, 0.070), ("c", 16): (1.20, 0.120)},
}


def p99_info(reqs_list):
    ttft = [r["ttft"] for reqs in reqs_list for r in reqs if r["success"]]
    tpot = [sum(r["itl"]) / (r["output_len"] - 1) for reqs in reqs_list for r in reqs
            if r["success"] and r["output_len"] > 1]
    return round(np.percentile(ttft, 99) * 1000, 1), round(np.percentile(tpot, 99) * 1000, 1)


def p99_ok(reqs_list):
    ttft, tpot = [], []
    for reqs in reqs_list:
        for r in reqs:
            if not r["success"]:
                continue
            s = 0.0
            for x in r["itl"]:
                s += x
            ttft.append(r["ttft"])
            if r["output_len"] > 1:
                tpot.append(s / (r["output_len"] - 1))
    return np.percentile(ttft, 99) * 1000 <= SLO["ttft"] and np.percentile(tpot, 99) * 1000 <= SLO["tpot"]


def main():
    out = sys.argv[1]
    rng = random.Random(32)
    ok = {}
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "README.md"), "w") as fh:
        fh.write("Written by tests/gen_per_request_case.py (run it to see how): per-request benchmark results in\n"
                 "vLLM's (--save-detailed, current and v0.10-era keys) and SGLang's (--output-details JSONL, runs\n"
                 "appended, an unlimited rate as Infinity) real formats. Not an input of the report: notes only.\n")
    with open(os.path.join(out, "sweep.json"), "w") as fh:
        fh.write('{"name": "per-request latency: a concurrency and a rate sweep", "baseline": "org/base",\n'
                 ' "hardware": "GPU (synthetic)"}\n')
    for model, loads in LOADS.items():
        mdir = os.path.join(out, model)
        os.makedirs(mdir, exist_ok=True)
        sglang_lines = {"c": [], "r": []}
        for (axis, load), (ttft, tpot) in loads.items():
            runs = 1 if model == "slow" else 2
            reqs_list = []
            for k in range(runs):
                fail_before = (5,) if model == "base" and k == 0 and axis == "c" else ()
                fail_during = (9,) if model == "fast" and k == 1 and load in (4, 8.0) else ()
                reqs = gen.simulate(rng, N, IN, OUT, ttft, tpot, start=100.0 * (k + 1), gap_s=0.02,
                                    fail_before=fail_before, fail_during=fail_during,
                                    one_token=(2,) if model == "slow" and load == 4 else ())
                reqs_list.append(reqs)
                conc = load if axis == "c" else None
                rate = load if axis == "r" else float("inf")
                if model == "fast":
                    sglang_lines[axis].append(gen.sglang_line(gen.sglang_result(reqs, rate, conc, IN, OUT)))
                else:
                    res = gen.vllm_result(reqs, "org/" + model, N, rate, conc,
                                          keyset="new" if model == "base" else "v010",
                                          metadata={"input_len": IN, "output_len": OUT},
                                          percentiles=(50, 90, 99) if model == "base" else (99,),
                                          date="20260301-%02d%02d00" % (10 + k, int(load) % 60 if load < 1e9 else 59))
                    name = "vllm-%s%s-run%d.json" % (axis, "inf" if load == float("inf") else "%g" % load, k + 1)
                    with open(os.path.join(mdir, name), "w") as fh:
                        fh.write(gen.vllm_line(res))
            ok[(model, axis, load)] = p99_ok(reqs_list)
            print("%s %s %g: p99 TTFT, TPOT (ms) %s" % (model, axis, load, p99_info(reqs_list)), file=sys.stderr)
        for axis, lines in sglang_lines.items():
            if lines:
                with open(os.path.join(mdir, "sglang-%s-sweep.jsonl" % ("concurrency" if axis == "c" else "rate")),
                          "w") as fh:
                    fh.write("".join(lines))
    want = {
        ("base", "c"): {1: True, 4: True, 16: False}, ("base", "r"): {2.0: True, 8.0: True, float("inf"): False},
        ("fast", "c"): {1: True, 4: True, 16: True}, ("fast", "r"): {2.0: True, 8.0: True, float("inf"): True},
        ("slow", "c"): {1: False, 4: False, 16: False},
    }
    for (model, axis), loads in want.items():
        for load, good in loads.items():
            if ok[(model, axis, load)] != good:
                sys.exit("gen_per_request_case: %s %s %s: p99 %s the SLO, expected %s" % (
                    model, axis, load, "meets" if ok[(model, axis, load)] else "misses", good))


if __name__ == "__main__":
    main()
