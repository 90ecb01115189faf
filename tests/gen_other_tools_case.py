#!/usr/bin/env python3
"""Write the small exports of the golden cases report/other-tools and
report/inspect-pairing (issue 41): one model measured by vLLM bench serve, AIPerf
(schema 1.x, with its per-request records), GuideLLM (metadata.version 2, as YAML)
and MLPerf LoadGen (an INVALID Server run), and Inspect AI logs of two models on one
task (an .eval with reductions, an .eval without them, epochs 2). The files follow the
tools' real layouts key for key (../shared/realdata/other-tools holds the originals);
their figures are synthetic and fixed (a seeded generator), so the case is the same
on every machine. Run once; the outputs are committed.

    gen_other_tools_case.py tests/cases/report
"""
import json
import os
import random
import sys
import zipfile

import yaml

MODEL = "org/m"
IN, OUT, CONC, N = 128, 64, 4, 40


def write(path, text, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(text)


def requests(rng, n, ttft_scale):
    """n requests: TTFT (s), per-token gaps (s), output lengths."""
    out = []
    for _ in range(n):
        ttft = rng.uniform(0.02, 0.2) * ttft_scale
        gaps = [rng.uniform(0.008, 0.02) for _ in range(OUT - 1)]
        out.append((ttft, gaps))
    return out


def vllm(root, rng):
    reqs = requests(rng, N, 1.0)
    duration = 6.0
    result = {
        "date": "20260301-100000", "endpoint_type": "openai", "backend": "vllm", "label": None,
        "model_id": MODEL, "tokenizer_id": MODEL, "num_prompts": N, "input_len": str(IN), "output_len": str(OUT),
        "request_rate": "inf", "burstiness": 1.0, "max_concurrency": CONC, "duration": duration,
        "completed": N, "failed": 0, "total_input_tokens": IN * N, "total_output_tokens": OUT * N,
        "request_throughput": N / duration, "output_throughput": OUT * N / duration,
        "total_token_throughput": (IN + OUT) * N / duration,
        "input_lens": [IN] * N, "output_lens": [OUT] * N,
        "ttfts": [r[0] for r in reqs], "itls": [r[1] for r in reqs], "errors": [""] * N,
    }
    write(os.path.join(root, "vllm", "bench-c4.json"), json.dumps(result) + "\n")


def pct(values, p):
    """numpy.percentile's linear rule."""
    v = sorted(values)
    k = (len(v) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def metric(unit, values):
    return {"unit": unit, "avg": sum(values) / len(values), "p1": pct(values, 1), "p5": pct(values, 5),
            "p10": pct(values, 10), "p25": pct(values, 25), "p50": pct(values, 50), "p75": pct(values, 75),
            "p90": pct(values, 90), "p95": pct(values, 95), "p99": pct(values, 99), "min": min(values),
            "max": max(values), "std": 0.0, "count": len(values), "sum": sum(values)}


def aiperf(root, rng):
    reqs = requests(rng, N, 1.3)
    ok = reqs[:-2]  # two requests end in an error
    lines, t0 = [], 1_780_000_000_000_000_000
    for i, (ttft, gaps) in enumerate(reqs):
        meta = {"x_request_id": f"r{i}", "conversation_id": f"c{i}", "turn_index": 0,
                "timestamp_ns": t0 + i * 1000, "worker_id": "worker_1", "record_processor_id": "rp_1",
                "credit_phase": "profiling"}
        if i >= N - 2:
            lines.append({"metadata": meta, "metrics": {"error_request_count": {"value": 1, "unit": "requests"}},
                          "error": {"code": 500, "type": "ServerError", "message": "overloaded"}})
            continue
        lat = ttft + sum(gaps)
        lines.append({"metadata": meta, "metrics": {
            "input_sequence_length": {"value": IN, "unit": "tokens"},
            "time_to_first_token": {"value": ttft * 1000, "unit": "ms"},
            "request_latency": {"value": lat * 1000, "unit": "ms"},
            "output_sequence_length": {"value": OUT, "unit": "tokens"},
            "inter_chunk_latency": {"value": [g * 1000 for g in gaps], "unit": "ms"},
            "inter_token_latency": {"value": (lat - ttft) / (OUT - 1) * 1000, "unit": "ms"}}})
    # a warm-up record AIPerf leaves out of its figures
    lines.insert(0, {"metadata": {"x_request_id": "w0", "credit_phase": "warmup", "timestamp_ns": t0 - 10},
                     "metrics": {"time_to_first_token": {"value": 9999.0, "unit": "ms"},
                                 "request_latency": {"value": 99999.0, "unit": "ms"},
                                 "output_sequence_length": {"value": OUT, "unit": "tokens"}}})
    write(os.path.join(root, "aiperf", "c4", "profile_export.jsonl"),
          "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines))
    duration = 7.5
    ttfts = [r[0] * 1000 for r in ok]
    lats = [(r[0] + sum(r[1])) * 1000 for r in ok]
    itls = [(l - t) / (OUT - 1) for t, l in zip(ttfts, lats)]
    export = {
        "schema_version": "1.3", "aiperf_version": "0.10.0", "benchmark_id": "0123456789ab",
        "request_throughput": {"unit": "requests/sec", "avg": len(ok) / duration},
        "request_latency": metric("ms", lats),
        "request_count": {"unit": "requests", "avg": float(len(ok))},
        "time_to_first_token": metric("ms", ttfts),
        "inter_token_latency": metric("ms", itls),
        "output_token_throughput": {"unit": "tokens/sec", "avg": OUT * len(ok) / duration},
        "output_sequence_length": metric("tokens", [float(OUT)] * len(ok)),
        "input_sequence_length": metric("tokens", [float(IN)] * len(ok)),
        "benchmark_duration": {"unit": "sec", "avg": duration},
        "total_isl": {"unit": "tokens", "avg": float(IN * len(ok))},
        "total_osl": {"unit": "tokens", "avg": float(OUT * len(ok))},
        "error_request_count": {"unit": "requests", "avg": 2.0},
        "total_token_throughput": {"unit": "tokens/sec", "avg": (IN + OUT) * len(ok) / duration},
        "input_config": {
            "models": {"items": [{"name": MODEL}]},
            "endpoint": {"urls": ["http://localhost:8000"], "type": "chat", "streaming": True},
            "datasets": [{"name": "main", "type": "synthetic", "entries": N, "prompts": {"isl": IN, "osl": OUT}}],
            "phases": [{"name": "warmup", "type": "concurrency", "exclude_from_results": True, "requests": 1,
                        "concurrency": CONC},
                       {"name": "profiling", "type": "concurrency", "requests": N, "concurrency": CONC}]},
        "run_info": {"benchmark_id": "0123456789ab", "random_seed": 1, "trial": 0,
                     "cli_command": "aiperf profile --model org/m --concurrency 4 --isl 128 --osl 64"},
        "was_cancelled": False,
        "error_summary": [{"error_details": {"code": 500, "type": "ServerError", "message": "overloaded"},
                           "count": 2}],
        "start_time": "2026-03-01T10:00:00.000000", "end_time": "2026-03-01T10:00:07.500000",
    }
    write(os.path.join(root, "aiperf", "c4", "profile_export_aiperf.json"), json.dumps(export, indent=2))


def dist(values):
    """GuideLLM's StatusDistributionSummary of the successful requests."""
    summary = {"mean": sum(values) / len(values), "median": pct(values, 50), "mode": values[0], "variance": 0.0,
               "std_dev": 0.0, "min": min(values), "max": max(values), "count": len(values),
               "total_sum": sum(values),
               "percentiles": {p: pct(values, q) for p, q in
                               (("p001", 0.1), ("p01", 1), ("p05", 5), ("p10", 10), ("p25", 25), ("p50", 50),
                                ("p75", 75), ("p90", 90), ("p95", 95), ("p99", 99), ("p999", 99.9))}}
    return {"successful": summary, "errored": None, "incomplete": None, "total": summary}


def guidellm(root, rng):
    reqs = requests(rng, N, 0.8)
    records, t = [], 1_780_000_000.0
    for ttft, gaps in reqs:
        lat = ttft + sum(gaps)
        records.append({
            "type_": "generative_request_stats", "request_id": f"{t}",
            "request_latency": lat, "prompt_tokens": IN, "output_tokens": OUT, "total_tokens": IN + OUT,
            "time_to_first_token_ms": ttft * 1000,
            "time_per_output_token_ms": lat * 1000 / OUT,
            "inter_token_latency_ms": (lat - ttft) * 1000 / (OUT - 1),
            "tokens_per_second": (IN + OUT) / lat, "output_tokens_per_second": OUT / lat})
    ms = lambda key: [r[key] for r in records]  # noqa: E731
    span = 8.0
    bench = {
        "type_": "generative_benchmark",
        "config": {"id_": "b0", "run_id": "r0", "run_index": 0,
                   "strategy": {"type_": "concurrent", "worker_count": CONC, "max_concurrency": CONC,
                                "streams": CONC, "rampup_duration": 0.0},
                   "constraints": {"max_requests": {"type_": "max_number", "max_num": N}},
                   "requests": {"data": "[]"},
                   "backend": {"target": "http://localhost:8000", "model": MODEL}},
        "scheduler_metrics": {"requests_made": {"successful": N, "errored": 0, "incomplete": 1, "total": N + 1}},
        "metrics": {
            "request_totals": {"successful": N, "errored": 0, "incomplete": 1, "total": N + 1},
            "requests_per_second": dist([N / span]),
            "request_latency": dist(ms("request_latency")),
            "prompt_token_count": dist([float(IN)] * N),
            "output_token_count": dist([float(OUT)] * N),
            "time_to_first_token_ms": dist(ms("time_to_first_token_ms")),
            "time_per_output_token_ms": dist(ms("time_per_output_token_ms")),
            "inter_token_latency_ms": dist(ms("inter_token_latency_ms")),
            "output_tokens_per_second": dist([OUT * N / span]),
            "tokens_per_second": dist([(IN + OUT) * N / span])},
        "requests": {"successful": records, "errored": [], "incomplete": [], "total": None},
        "start_time": t, "end_time": t + span + 0.5, "duration": span + 0.5,
        "warmup_duration": 0.0, "cooldown_duration": 0.0,
    }
    report = {
        "metadata": {"version": 2, "guidellm_version": "0.7.0", "python_version": "3.12.3", "platform": "Linux"},
        "config": {"metadata": {"labels": {}},
                   "spec": {"backend": {"kind": "openai_http", "target": "http://localhost:8000", "model": MODEL},
                            "data": [{"kind": "synthetic_text", "prompt_tokens": IN, "output_tokens": OUT}]}},
        "benchmarks": [bench],
    }
    write(os.path.join(root, "guidellm", "benchmarks.yaml"), yaml.safe_dump(report, sort_keys=False))


MLPERF_INVALID = """================================================
MLPerf Results Summary
================================================
SUT name : PySUT
Scenario : Server
Mode     : PerformanceOnly
Completed samples per second    : 20.50
Completed tokens per second: 6150.00
Result is : INVALID
  Performance constraints satisfied : Yes
  Min duration satisfied : NO
  Min queries satisfied : Yes
  Early stopping satisfied: Yes
Recommendations:
 * Increase the target QPS so the loadgen pre-generates more queries.
TTFT Early Stopping Result:
 * Run successful.
TPOT Early Stopping Result:
 * Run successful.

================================================
Additional Stats
================================================
Scheduled samples per second : 21.00
Min latency (ns)                : 980187992
Max latency (ns)                : 16505712734
Mean latency (ns)               : 4357960229
50.00 percentile latency (ns)   : 3840177552
90.00 percentile latency (ns)   : 7799640584
95.00 percentile latency (ns)   : 9515556822
97.00 percentile latency (ns)   : 10751692639
99.00 percentile latency (ns)   : 13606923283
99.90 percentile latency (ns)   : 15970540267

Completed tokens per second                 : 6150.00
Min First Token latency (ns)                : 37578735
Max First Token latency (ns)                : 3267024914
Mean First Token latency (ns)               : 918456323
50.00 percentile first token latency (ns)   : 875073063
90.00 percentile first token latency (ns)   : 1449459253
95.00 percentile first token latency (ns)   : 1588066947
97.00 percentile first token latency (ns)   : 1683899620
99.00 percentile first token latency (ns)   : 1914647645
99.90 percentile first token latency (ns)   : 2562462764

Min Time to Output Token (ns)                : 30262518
Max Time to Output Token (ns)                : 3298049084
Mean Time to Output Token (ns)               : 144594078
50.00 percentile time to output token (ns)   : 151044504
90.00 percentile time to output token (ns)   : 163835875
95.00 percentile time to output token (ns)   : 169650352
97.00 percentile time to output token (ns)   : 175094669
99.00 percentile time to output token (ns)   : 193380124
99.90 percentile time to output token (ns)   : 283861040

================================================
Test Parameters Used
================================================
samples_per_query : 1
target_qps : 21
ttft_latency (ns): 2000000000
tpot_latency (ns): 200000000
max_async_queries : 0
min_duration (ms): 600000
max_duration (ms): 0
min_query_count : 100
max_query_count : 0

No warnings encountered during test.

No errors encountered during test.
"""


def mlperf(root):
    write(os.path.join(root, "mlperf-m", "Server", "performance", "run_1", "mlperf_log_summary.txt"), MLPERF_INVALID)


def eval_zip(path, model, task, values, epochs, reductions):
    """An Inspect .eval log (format version 2): header, per-sample summaries and
    samples, and reductions.json when asked."""
    ids = sorted(values)
    header = {"version": 2, "status": "success",
              "eval": {"eval_id": "e", "run_id": "r", "created": "2026-03-01T10:00:00+00:00", "task": task,
                       "task_id": "t", "task_version": 0, "dataset": {"samples": len(ids), "sample_ids": ids},
                       "model": model, "config": {"epochs": epochs, "epochs_reducer": ["mean"]},
                       "packages": {"inspect_ai": "0.3.140"},
                       "scorers": [{"name": "match", "options": {}, "metrics": [{"name": "inspect_ai/accuracy"}]}]},
              "plan": {"name": "plan", "steps": []},
              "results": {"total_samples": len(ids), "completed_samples": len(ids),
                          "scores": [{"name": "match", "scorer": "match", "params": {},
                                      "metrics": {"accuracy": {"name": "accuracy", "params": {},
                                                               "value": sum(sum(1.0 if x == "C" else 0.0
                                                                                for x in values[i]) / epochs
                                                                            for i in ids) / len(ids)}}}]},
              "stats": {"started_at": "", "completed_at": ""}}
    summaries, samples = [], {}
    for i in ids:
        for e in range(1, epochs + 1):
            s = {"id": i, "epoch": e, "input": f"question {i}", "target": "C",
                 "scores": {"match": {"value": values[i][e - 1], "answer": "x"}}, "completed": True}
            summaries.append(s)
            samples[f"samples/{i}_epoch_{e}.json"] = dict(s, messages=[{"role": "user", "content": f"q{i}"}])
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("_journal/start.json", json.dumps({"version": 2, "eval": header["eval"], "plan": header["plan"]}))
        for name, s in samples.items():
            z.writestr(name, json.dumps(s))
        z.writestr("summaries.json", json.dumps(summaries))
        if reductions:
            red = [{"scorer": "match", "reducer": "mean",
                    "samples": [{"value": sum(1.0 if x == "C" else 0.0 for x in values[i]) / epochs,
                                 "sample_id": i} for i in ids]}]
            z.writestr("reductions.json", json.dumps(red))
        z.writestr("header.json", json.dumps(header))


def inspect(root, rng):
    ids = list(range(1, 61))
    base = {i: ["C" if rng.random() < 0.55 else "I" for _ in range(2)] for i in ids}
    # the other model: mostly the same answers, some flipped each way
    other = {}
    for i in ids:
        other[i] = [("I" if x == "C" else "C") if rng.random() < 0.25 else x for x in base[i]]
    os.makedirs(os.path.join(root, "base-model"), exist_ok=True)
    os.makedirs(os.path.join(root, "other-model"), exist_ok=True)
    eval_zip(os.path.join(root, "base-model", "2026-03-01T10-00-00_toy_AAA.eval"), "openai/base-m", "toy", base, 2,
             True)
    eval_zip(os.path.join(root, "other-model", "2026-03-01T10-00-00_toy_BBB.eval"), "openai/other-m", "toy", other,
             2, False)
    write(os.path.join(root, "sweep.json"),
          json.dumps({"name": "Inspect logs of two models on one task", "baseline": "openai/base-m"}) + "\n")


def main():
    cases = sys.argv[1]
    rng = random.Random(41)
    root = os.path.join(cases, "other-tools", "export")
    vllm(root, rng)
    aiperf(root, rng)
    guidellm(root, rng)
    mlperf(root)
    write(os.path.join(root, "sweep.json"),
          json.dumps({"name": "one model measured by four tools", "baseline": "org/m (vllm bench serve)"}) + "\n")
    inspect(os.path.join(cases, "inspect-pairing", "export"), rng)


if __name__ == "__main__":
    main()
