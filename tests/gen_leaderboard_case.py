#!/usr/bin/env python3
"""Writes the export of the golden cases report/leaderboard-stats and
report/leaderboard-cluster-key (issue 43; run once, the files are committed
as the cases' input, this script says how they were made).

Usage: python3 tests/gen_leaderboard_case.py tests/cases/report/leaderboard-stats/export

Six entries, one directory each:

- lm-eval samples of a task "mmlu_mix" (a known task by its prefix: the
  reader groups its items by the doc's "subject"), v0.4.7+ lines with the
  filter "none" and the metric "acc": 240 items, 8 subjects of 30, and a
  second doc field "passage" that groups the items in threes (80 clusters,
  for --cluster-key passage). Each item's chance of being right is a
  logistic of the entry's ability plus its subject's difficulty (subjects
  from very easy to very hard), so the items of a subject go together;
- a plain arith.scores.csv of 100 0/1 items (no clusters);
- one `vllm bench serve --save-result --append-result` file of 3 runs at
  one scenario (128-token prompts, 64-token outputs, concurrency 8).

org/m1 and org/m2 scored every item alike and ran alike (ties: they share
ranks); org/m3 is close to the baseline, org/m4 and org/m5 lower.
"""
import json
import math
import os
import random
import sys

SUBJECTS = ["anatomy", "astronomy", "college_physics", "econometrics", "global_facts", "nutrition", "philosophy",
            "virology"]
EFFECT = [2.5, 1.6, -1.8, -1.2, 0.4, 1.0, -0.4, -2.4]
ABILITY = {"base": 0.6, "m1": 0.9, "m3": 0.55, "m4": -0.2, "m5": -0.9}
ARITH = {"base": 0.80, "m1": 0.86, "m3": 0.78, "m4": 0.70, "m5": 0.62}
RUNS = {"base": [410.0, 418.5, 405.2], "m1": [520.0, 533.0, 515.5], "m3": [402.0, 420.0, 399.0],
        "m4": [610.0, 590.5, 640.0], "m5": [300.0, 305.0, 296.0]}


def sample_line(doc_id, subject, passage, acc):
    doc = {"question": "Question %d on %s?" % (doc_id, subject), "subject": subject, "passage": "p%03d" % passage,
           "choices": ["A", "B", "C", "D"], "answer": doc_id % 4}
    return {"doc_id": doc_id, "doc": doc, "target": str(doc_id % 4), "arguments": {},
            "resps": [[["-0.5", "False"]]], "filtered_resps": [["-0.5", "False"]], "filter": "none",
            "metrics": ["acc"], "doc_hash": "%x" % doc_id, "prompt_hash": "0", "target_hash": "0",
            "acc": float(acc)}


def bench_run(model, tput, k):
    return {"date": "20260101-00000%d" % k, "backend": "vllm", "model_id": "org/" + model, "tokenizer_id": "org/" + model,
            "num_prompts": 64, "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 8, "duration": 30.0,
            "completed": 64, "total_input_tokens": 8192, "total_output_tokens": 4096, "request_throughput": 2.1,
            "output_throughput": tput, "total_token_throughput": tput * 3, "mean_ttft_ms": 50.0,
            "median_ttft_ms": 48.0, "p99_ttft_ms": 90.0, "mean_tpot_ms": 12.0, "median_tpot_ms": 11.5,
            "p99_tpot_ms": 20.0, "input_len": "128", "output_len": "64"}


def main():
    out = sys.argv[1]
    rng = random.Random(43)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "sweep.json"), "w") as fh:
        fh.write('{"name": "leaderboard statistics: clusters, ranks, ties", "baseline": "org/base",\n'
                 ' "hardware": "GPU (synthetic)"}\n')
    with open(os.path.join(out, "README.md"), "w") as fh:
        fh.write("Written by tests/gen_leaderboard_case.py (run it to see how): lm-eval samples whose docs group the\n"
                 "items by subject and by passage, a plain scores file, and vllm bench serve results. Notes only.\n")
    samples, arith = {}, {}
    for model, ability in ABILITY.items():
        rows = []
        for i in range(240):
            s = i // 30
            p = 1 / (1 + math.exp(-(ability + EFFECT[s])))
            rows.append((i, SUBJECTS[s], i // 3, 1 if rng.random() < p else 0))
        samples[model] = rows
        arith[model] = [1 if rng.random() < ARITH[model] else 0 for _ in range(100)]
    samples["m2"], arith["m2"], RUNS["m2"] = samples["m1"], arith["m1"], RUNS["m1"]
    for model in ["base", "m1", "m2", "m3", "m4", "m5"]:
        d = os.path.join(out, model)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "samples_mmlu_mix_2026-01-01T00-00-00.000000.jsonl"), "w") as fh:
            for doc_id, subject, passage, acc in samples[model]:
                fh.write(json.dumps(sample_line(doc_id, subject, passage, acc)) + "\n")
        with open(os.path.join(d, "arith.scores.csv"), "w") as fh:
            fh.write("item_id,score\n")
            for i, v in enumerate(arith[model]):
                fh.write("%d,%d\n" % (i, v))
        with open(os.path.join(d, "vllm-infqps-concurrency8-%s.json" % model), "w") as fh:
            for k, t in enumerate(RUNS[model]):
                fh.write(json.dumps(bench_run(model, t, k)) + "\n")


if __name__ == "__main__":
    main()
