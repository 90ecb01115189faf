"""Per-request serving benchmark results in the real formats, for tests.

Written as the clients write them (shared/research/formats.md 1b; vLLM
vllm/benchmarks/serve.py and benchmarks/benchmark_serving.py; SGLang
python/sglang/bench_serving.py):

- vLLM `vllm bench serve --save-result --save-detailed`: one JSON object on
  one line (json.dump), in the current key set (endpoint_type, label, failed,
  latencies, start_times, max_output_tokens_per_s, ...) or the v0.10-era one
  (no failed, "request_goodput:" with its colon); an unlimited rate is the
  string "inf".
- SGLang `bench_serving --output-file F --output-details`: one object per line,
  appended (json.dumps + newline); an unlimited rate is the bare word Infinity
  (Python's json.dumps of float("inf")); no model_id; *_e2e_latency_ms keys.

Timings are simulated on a clock the way the clients take them: st is the
request's start, each chunk's arrival a timestamp, ttft = first - st, each ITL
the gap between two chunks, latency = last - st (so ttft + sum(itls) equals
latency only up to rounding, as in a real file). Failed requests: one that
fails before its first token (ttft 0.0, no ITLs, output 0, an error text) and
one that fails mid-stream (a TTFT and some ITLs, output 0, an error text). A
completed request can have one output token (no TPOT).

The summary keys are computed from the simulated requests with the clients'
own formulas (vllm_metrics, sglang_metrics: calculate_metrics of each), from
the measured latency, not from the arrays: tests/latency_reference.py checks
that the arrays reproduce them.
"""
import json
import math

import numpy as np


def simulate(rng, n, input_len, output_len, ttft_s, tpot_s, start=1000.0, gap_s=0.05,
             fail_before=(), fail_during=(), one_token=()):
    """n requests; rng a random.Random. Returns a list of dicts with the
    fields of the clients' RequestFuncOutput."""
    out = []
    for i in range(n):
        st = start + i * gap_s
        req = {"prompt_len": input_len, "success": True, "error": "", "ttft": 0.0, "itl": [],
               "latency": 0.0, "output_len": 0, "start_time": st, "text": ""}
        if i in fail_before:
            req.update(success=False,
                       error="Traceback (most recent call last):\naiohttp.client_exceptions."
                             "ServerDisconnectedError: Server disconnected\n")
            out.append(req)
            continue
        first = st + ttft_s * math.exp(rng.gauss(0.0, 0.35))
        req["ttft"] = first - st
        t = first
        tokens = 1 if i in one_token else output_len
        if i in fail_during:
            tokens = max(2, output_len // 3)
        for _ in range(tokens - 1):
            nxt = t + tpot_s * rng.gammavariate(8.0, 1.0 / 8.0)
            req["itl"].append(nxt - t)
            t = nxt
        req["latency"] = t - st
        req["text"] = "x" * tokens
        if i in fail_during:
            req.update(success=False, latency=0.0,
                       error="Traceback (most recent call last):\nasyncio.exceptions.TimeoutError\n")
        else:
            req["output_len"] = tokens
        out.append(req)
    return out


def duration_of(reqs):
    ends = [r["start_time"] + (r["latency"] if r["success"] else r["ttft"]) for r in reqs]
    return max(ends) - min(r["start_time"] for r in reqs) + 0.01


def _pct(values, p):
    return float(np.percentile(values or 0, p)) * 1000


def vllm_metrics(reqs, duration, percentiles=(99,), metrics=("ttft", "tpot", "itl"), goodput=None):
    """vllm/benchmarks/serve.py calculate_metrics and the result keys it
    writes, from the requests as measured."""
    lens, ttfts, tpots, all_tpots, itls, e2els = [], [], [], [], [], []
    total_input = completed = good = 0
    for r in reqs:
        if not r["success"]:
            lens.append(0)
            continue
        lens.append(r["output_len"])
        total_input += r["prompt_len"]
        tpot = 0.0
        if r["output_len"] > 1:
            tpot = (r["latency"] - r["ttft"]) / (r["output_len"] - 1)
            tpots.append(tpot)
        all_tpots.append(tpot)
        itls += r["itl"]
        ttfts.append(r["ttft"])
        e2els.append(r["latency"])
        completed += 1
    if goodput:
        for i in range(len(ttfts)):
            values = {"ttft": ttfts[i], "tpot": all_tpots[i], "e2el": e2els[i]}
            if all(goodput[k] / 1000 >= values[k] for k in goodput):
                good += 1
    failed = sum(1 for r in reqs if not r["success"])
    keys = {
        "duration": duration, "completed": completed, "failed": failed, "total_input_tokens": total_input,
        "total_output_tokens": sum(lens), "request_throughput": completed / duration,
        "request_goodput": good / duration if goodput else None, "output_throughput": sum(lens) / duration,
        "total_token_throughput": (total_input + sum(lens)) / duration,
    }
    stats = {}
    values = {"ttft": ttfts, "tpot": tpots, "itl": itls, "e2el": e2els}
    for m in metrics:
        v = values[m]
        stats["mean_%s_ms" % m] = float(np.mean(v or 0)) * 1000
        stats["median_%s_ms" % m] = float(np.median(v or 0)) * 1000
        stats["std_%s_ms" % m] = float(np.std(v or 0)) * 1000
        for p in percentiles:
            word = str(int(p)) if int(p) == p else str(p)
            stats["p%s_%s_ms" % (word, m)] = _pct(v, p)
    return keys, lens, stats


def vllm_result(reqs, model_id, num_prompts, rate, concurrency, keyset="new", metadata=None, percentiles=(99,),
                metrics=("ttft", "tpot", "itl"), goodput=None, date="20260301-120000"):
    """The object --save-result --save-detailed writes, in its key order."""
    duration = duration_of(reqs)
    keys, lens, stats = vllm_metrics(reqs, duration, percentiles, metrics, goodput)
    res = {"date": date}
    if keyset == "new":
        res.update({"endpoint_type": "openai", "backend": "openai", "label": None})
    else:
        res["backend"] = "vllm"
    res.update({"model_id": model_id, "tokenizer_id": model_id, "num_prompts": num_prompts})
    for k, v in (metadata or {}).items():
        res[k] = str(v)
    res.update({"request_rate": rate if rate < float("inf") else "inf", "burstiness": 1.0,
                "max_concurrency": concurrency})
    res["duration"] = keys["duration"]
    res["completed"] = keys["completed"]
    if keyset == "new":
        res["failed"] = keys["failed"]
    res["total_input_tokens"] = keys["total_input_tokens"]
    res["total_output_tokens"] = keys["total_output_tokens"]
    res["request_throughput"] = keys["request_throughput"]
    res["request_goodput" if keyset == "new" else "request_goodput:"] = keys["request_goodput"]
    res["output_throughput"] = keys["output_throughput"]
    res["total_token_throughput"] = keys["total_token_throughput"]
    res["input_lens"] = [r["prompt_len"] for r in reqs]
    res["output_lens"] = lens
    res["ttfts"] = [r["ttft"] for r in reqs]
    res["itls"] = [r["itl"] for r in reqs]
    if keyset == "new":
        res["latencies"] = [r["latency"] for r in reqs]
        res["start_times"] = [r["start_time"] for r in reqs]
    res["generated_texts"] = [r["text"] for r in reqs]
    res["errors"] = [r["error"] for r in reqs]
    if keyset == "new":
        res.update({"max_output_tokens_per_s": 100.0, "max_concurrent_requests": concurrency or num_prompts,
                    "rtfx": 0.0})
    res.update(stats)
    return res


def sglang_metrics(reqs, duration):
    """python/sglang/bench_serving.py calculate_metrics and its result keys."""
    lens, ttfts, tpots, itls, e2els = [], [], [], [], []
    total_input = completed = 0
    for r in reqs:
        if not r["success"]:
            lens.append(0)
            continue
        lens.append(r["output_len"])
        total_input += r["prompt_len"]
        if r["output_len"] > 1:
            tpots.append((r["latency"] - r["ttft"]) / (r["output_len"] - 1))
        itls += r["itl"]
        ttfts.append(r["ttft"])
        e2els.append(r["latency"])
        completed += 1
    keys = {
        "duration": duration, "completed": completed, "total_input_tokens": total_input,
        "total_output_tokens": sum(lens), "total_output_tokens_retokenized": sum(lens),
        "request_throughput": completed / duration, "input_throughput": total_input / duration,
        "output_throughput": sum(lens) / duration,
        "mean_e2e_latency_ms": float(np.mean(e2els)) * 1000, "median_e2e_latency_ms": float(np.median(e2els)) * 1000,
        "std_e2e_latency_ms": float(np.std(e2els)) * 1000, "p99_e2e_latency_ms": _pct(e2els, 99),
        "mean_ttft_ms": float(np.mean(ttfts or 0)) * 1000, "median_ttft_ms": float(np.median(ttfts or 0)) * 1000,
        "std_ttft_ms": float(np.std(ttfts or 0)) * 1000, "p99_ttft_ms": _pct(ttfts, 99),
        "mean_tpot_ms": float(np.mean(tpots or 0)) * 1000, "median_tpot_ms": float(np.median(tpots or 0)) * 1000,
        "std_tpot_ms": float(np.std(tpots or 0)) * 1000, "p99_tpot_ms": _pct(tpots, 99),
        "mean_itl_ms": float(np.mean(itls or 0)) * 1000, "median_itl_ms": float(np.median(itls or 0)) * 1000,
        "std_itl_ms": float(np.std(itls or 0)) * 1000, "p95_itl_ms": _pct(itls, 95), "p99_itl_ms": _pct(itls, 99),
        "concurrency": float(np.sum(e2els)) / duration, "accept_length": None,
    }
    return keys, lens


def sglang_result(reqs, rate, concurrency, input_len, output_len, backend="sglang"):
    """The object --output-file --output-details appends, in its key order."""
    duration = duration_of(reqs)
    keys, lens = sglang_metrics(reqs, duration)
    res = {"backend": backend, "dataset_name": "random", "request_rate": rate, "max_concurrency": concurrency,
           "sharegpt_output_len": None, "random_input_len": input_len, "random_output_len": output_len,
           "random_range_ratio": 0.0}
    res.update(keys)
    res.update({"input_lens": [r["prompt_len"] for r in reqs], "output_lens": lens,
                "ttfts": [r["ttft"] for r in reqs], "itls": [r["itl"] for r in reqs],
                "generated_texts": [r["text"] for r in reqs], "errors": [r["error"] for r in reqs]})
    return res


def vllm_line(result):
    """json.dump(result_json, outfile): one line, no newline at the end."""
    return json.dumps(result)


def sglang_line(result):
    """file.write(json.dumps(result) + "\\n"), float("inf") as Infinity."""
    return json.dumps(result) + "\n"
