#!/usr/bin/env python3
"""Write the three exports of issue 41's speed target (bench/other_tools.sh), each about
--mb MB: a vLLM `--save-detailed` result (per-request ttfts, itls, output_lens, errors),
an AIPerf run (profile_export_aiperf.json and its per-request profile_export.jsonl, one
record a request with its inter_chunk_latency list, as AIPerf writes them), and an Inspect
AI .eval log (a zip of deflate members: header.json, one samples/<id>_epoch_1.json per
sample with its messages, summaries.json, reductions.json). Seeded: the same bytes on
every run. Python 3's standard library only.

    gen_other_tools.py --out DIR [--mb 100]
"""
import argparse
import base64
import json
import os
import random
import zipfile

OUT_LEN = 256


def vllm(path, target, rng):
    """One result object of n requests, OUT_LEN - 1 ITLs each, grown to ~target bytes."""
    per = 20 * OUT_LEN + 80  # bytes a request, about (a float and its separator: 20)
    n = max(1, target // per)
    ttfts = [rng.uniform(0.02, 0.5) for _ in range(n)]
    itls = [[rng.uniform(0.005, 0.05) for _ in range(OUT_LEN - 1)] for _ in range(n)]
    result = {"date": "20260301-100000", "backend": "vllm", "model_id": "org/bench", "num_prompts": n,
              "input_len": "512", "output_len": str(OUT_LEN), "request_rate": "inf", "max_concurrency": 64,
              "duration": n / 50.0, "completed": n, "failed": 0, "total_input_tokens": 512 * n,
              "total_output_tokens": OUT_LEN * n, "request_throughput": 50.0,
              "output_throughput": OUT_LEN * 50.0, "total_token_throughput": (512 + OUT_LEN) * 50.0,
              "input_lens": [512] * n, "output_lens": [OUT_LEN] * n, "ttfts": ttfts, "itls": itls,
              "errors": [""] * n}
    with open(path, "w") as f:
        json.dump(result, f)
    return n


def aiperf(folder, target, rng):
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "profile_export.jsonl")
    size, n, ttfts, lats = 0, 0, [], []
    t0 = 1_780_000_000_000_000_000
    with open(path, "w") as f:
        while size < target:
            ttft = rng.uniform(20, 500)
            gaps = [rng.uniform(5, 50) for _ in range(OUT_LEN - 1)]
            lat = ttft + sum(gaps)
            rec = {"metadata": {"x_request_id": f"{n:08x}-0000-0000-0000-000000000000", "x_correlation_id": "c",
                                "conversation_id": "v", "turn_index": 0, "timestamp_ns": t0 + n,
                                "worker_id": "worker_1", "record_processor_id": "rp_1", "credit_phase": "profiling"},
                   "metrics": {"input_sequence_length": {"value": 512, "unit": "tokens"},
                               "time_to_first_token": {"value": ttft, "unit": "ms"},
                               "request_count": {"value": 1, "unit": "requests"},
                               "request_latency": {"value": lat, "unit": "ms"},
                               "output_sequence_length": {"value": OUT_LEN, "unit": "tokens"},
                               "inter_chunk_latency": {"value": gaps, "unit": "ms"},
                               "inter_token_latency": {"value": (lat - ttft) / (OUT_LEN - 1), "unit": "ms"}}}
            line = json.dumps(rec, separators=(",", ":")) + "\n"
            f.write(line)
            size += len(line)
            ttfts.append(ttft)
            lats.append(lat)
            n += 1
    duration = n / 50.0
    export = {"schema_version": "1.3", "aiperf_version": "0.10.0", "benchmark_id": "bench",
              "request_throughput": {"unit": "requests/sec", "avg": 50.0},
              "request_count": {"unit": "requests", "avg": float(n)},
              "time_to_first_token": {"unit": "ms", "avg": sum(ttfts) / n},
              "request_latency": {"unit": "ms", "avg": sum(lats) / n},
              "output_token_throughput": {"unit": "tokens/sec", "avg": OUT_LEN * 50.0},
              "input_sequence_length": {"unit": "tokens", "avg": 512.0},
              "output_sequence_length": {"unit": "tokens", "avg": float(OUT_LEN)},
              "benchmark_duration": {"unit": "sec", "avg": duration},
              "input_config": {"models": {"items": [{"name": "org/bench"}]},
                               "endpoint": {"urls": ["http://localhost:8000"], "type": "chat"},
                               "datasets": [{"name": "main", "type": "synthetic",
                                             "prompts": {"isl": 512, "osl": OUT_LEN}}],
                               "phases": [{"name": "profiling", "type": "concurrency", "concurrency": 64}]},
              "was_cancelled": False, "error_summary": []}
    with open(os.path.join(folder, "profile_export_aiperf.json"), "w") as f:
        json.dump(export, f, indent=2)
    return n


def samples_only(src, dst):
    """The same log without reductions.json and summaries.json (a log still
    being written, an old writer): its scores are only in the samples."""
    with zipfile.ZipFile(src) as z, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as o:
        for info in z.infolist():
            if info.filename not in ("summaries.json", "reductions.json"):
                o.writestr(info, z.read(info.filename))


def inspect(path, target, rng):
    """Samples of ~5 kB of message text that deflate cannot shrink much (base64 of
    seeded random bytes), until the archive is ~target bytes."""
    n = 0
    values = {}
    header_eval = {"task": "bench_task", "model": "org/bench", "config": {"epochs": 1, "epochs_reducer": ["mean"]},
                   "packages": {"inspect_ai": "0.3.140"}, "scorers": [{"name": "match"}]}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        z.writestr("_journal/start.json", json.dumps({"version": 2, "eval": header_eval, "plan": {}}))
        while os.path.getsize(path) < target:
            for _ in range(500):
                n += 1
                v = "C" if rng.random() < 0.6 else "I"
                values[n] = v
                text = base64.b64encode(rng.randbytes(3600)).decode()
                sample = {"id": n, "epoch": 1, "input": f"question {n}", "target": "C",
                          "messages": [{"role": "user", "content": f"question {n}"},
                                       {"role": "assistant", "content": text}],
                          "scores": {"match": {"value": v, "answer": v}}}
                z.writestr(f"samples/{n}_epoch_1.json", json.dumps(sample))
            z.fp.flush()
        summaries = [{"id": i, "epoch": 1, "scores": {"match": {"value": v}}} for i, v in values.items()]
        z.writestr("summaries.json", json.dumps(summaries))
        red = [{"scorer": "match", "reducer": "mean",
                "samples": [{"value": 1.0 if v == "C" else 0.0, "sample_id": i} for i, v in values.items()]}]
        z.writestr("reductions.json", json.dumps(red))
        acc = sum(1 for v in values.values() if v == "C") / len(values)
        header = {"version": 2, "status": "success", "eval": header_eval,
                  "results": {"scores": [{"name": "match", "scorer": "match",
                                          "metrics": {"accuracy": {"value": acc}}}]}}
        z.writestr("header.json", json.dumps(header))
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--mb", type=float, default=100)
    a = ap.parse_args()
    target = int(a.mb * 1e6)
    rng = random.Random(41)
    os.makedirs(os.path.join(a.out, "vllm", "org-bench"), exist_ok=True)
    os.makedirs(os.path.join(a.out, "inspect", "org-bench"), exist_ok=True)
    nv = vllm(os.path.join(a.out, "vllm", "org-bench", "detailed.json"), target, rng)
    na = aiperf(os.path.join(a.out, "aiperf", "org-bench"), target, rng)
    ni = inspect(os.path.join(a.out, "inspect", "org-bench", "2026-03-01T10-00-00_bench_X.eval"), target, rng)
    os.makedirs(os.path.join(a.out, "inspect-samples", "org-bench"), exist_ok=True)
    samples_only(os.path.join(a.out, "inspect", "org-bench", "2026-03-01T10-00-00_bench_X.eval"),
                 os.path.join(a.out, "inspect-samples", "org-bench", "2026-03-01T10-00-00_bench_X.eval"))
    print(f"vllm {nv} requests, aiperf {na} records, inspect {ni} samples")


if __name__ == "__main__":
    main()
