#!/usr/bin/env python3
"""Writes the export of the golden case report/validity (run once; the files
are committed as the case's input, this script says how they were made).

Usage: python3 tests/gen_validity_case.py tests/cases/report/validity/export

vLLM `--save-result` files (`--metadata input_len=128 output_len=16`, so the
requested output length is known), two entries, each validity check of
docs/validity.md planted where it shows:

- org/base, the baseline, sound: c=4 (300 requests a run, p90 and p99 from
  the file: enough to bound both), 10 req/s sustained, c=1 with per-request
  arrays whose every request has 15 ITLs for its 16 tokens;
- org/m: at c=4 half the requests failed and the completed ones produced 12
  tokens of the 16 asked for; at 10 req/s 7.4 were achieved and the p99 rests
  on 120 requests a run; at c=1 (per-request arrays) one completed request
  returned no token and one streamed 10 ITLs for 16 tokens; its only c=8 run
  is a file named as a warm-up;
- per-item scores (`gsm8k.scores.jsonl`): the baseline 40 items, org/m the
  first 30 of them, so the item sets differ (the case runs with
  --keep-going: compared on the 30 shared).
"""
import json
import os
import sys


def result(model, concurrency, rate, completed, failed, out_tokens, duration, p90=None, p99=None, arrays=None):
    r = {
        "date": "20261201-120000",
        "endpoint_type": "openai",
        "backend": "openai",
        "label": None,
        "model_id": model,
        "tokenizer_id": model,
        "num_prompts": completed + failed,
        "input_len": "128",
        "output_len": "16",
        "request_rate": rate if rate is not None else "inf",
        "burstiness": 1.0,
        "max_concurrency": concurrency,
        "duration": duration,
        "completed": completed,
        "failed": failed,
        "total_input_tokens": 128 * completed,
        "total_output_tokens": out_tokens,
        "request_throughput": completed / duration,
        "request_goodput": None,
        "output_throughput": out_tokens / duration,
        "total_token_throughput": (128 * completed + out_tokens) / duration,
        "mean_ttft_ms": 40.0,
        "median_ttft_ms": 38.0,
        "median_tpot_ms": 9.0,
    }
    if p90 is not None:
        r["p90_ttft_ms"] = p90
    if p99 is not None:
        r["p99_ttft_ms"] = p99
    if arrays is not None:
        r.update(arrays)
    return r


def arrays(outs, itl_counts, errors):
    """Per-request arrays as --save-detailed writes them."""
    return {
        "input_lens": [128] * len(outs),
        "output_lens": outs,
        "ttfts": [0.0 if (o == 0 or e) else 0.04 + 0.001 * i for i, (o, e) in enumerate(zip(outs, errors))],
        "itls": [[0.009 + 0.0001 * ((i + k) % 7) for k in range(n)] for i, n in enumerate(itl_counts)],
        "errors": errors,
    }


def write(root, rel, obj):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f)


def main(root):
    write(root, "sweep.json", {"name": "validity: every check planted", "baseline": "org/base",
                               "hardware": "GPU (synthetic)"})
    for run, d in ((1, 60.0), (2, 61.0)):
        write(root, f"base/vllm-c4-run{run}.json",
              result("org/base", 4, None, 300, 0, 300 * 16, d, p90=50.0 + run, p99=80.0 + run))
        write(root, f"base/vllm-r10-run{run}.json",
              result("org/base", None, 10.0, 300, 0, 300 * 16, 30.0 + run / 10, p99=70.0 + run))
        n = 24
        write(root, f"base/vllm-c1-run{run}.json",
              result("org/base", 1, None, n, 0, n * 16, 6.0 + run / 10,
                     arrays=arrays([16] * n, [15] * n, [""] * n)))
        # org/m: half failed, 12 tokens of 16
        write(root, f"m/vllm-c4-run{run}.json",
              result("org/m", 4, None, 150, 150, 150 * 12, d, p90=40.0 + run, p99=70.0 + run))
        # 7.4 req/s of 10, 120 requests a run behind the p99
        write(root, f"m/vllm-r10-run{run}.json",
              result("org/m", None, 10.0, 120, 0, 120 * 16, 120 / 7.4, p99=90.0 + run))
        outs, itls, errs = [16] * n, [15] * n, [""] * n
        if run == 1:
            outs[3], itls[3] = 0, 0  # completed, no token
            itls[5] = 10  # 16 tokens, 10 ITLs
        write(root, f"m/vllm-c1-run{run}.json",
              result("org/m", 1, None, n, 0, sum(outs), 5.0 + run / 10, arrays=arrays(outs, itls, errs)))
    write(root, "m/vllm-c8-warmup.json", result("org/m", 8, None, 64, 0, 64 * 16, 8.0))
    for model, n in (("base", 40), ("m", 30)):
        with open(os.path.join(root, model, "gsm8k.scores.jsonl"), "w") as f:
            for i in range(n):
                f.write(json.dumps({"item_id": str(i), "score": 1 if i % 4 else 0}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
