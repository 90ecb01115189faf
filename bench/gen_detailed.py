#!/usr/bin/env python3
"""Write an export whose one model ran one `vllm bench serve --save-result
--save-detailed` run of about --mb megabytes (issue 42's "a 1 GB per-request
file"), one JSON object on one line as vLLM's json.dump writes it, with the
per-request arrays (input_lens, output_lens, ttfts, itls, generated_texts,
errors); a second, small run of another scenario beside it. Written as it
is generated (never held whole), seeded and deterministic.

  python3 bench/gen_detailed.py --out DIR --mb 1000 [--seed N] [--check FILE]

--check FILE writes what the report must say of the big run's scenario, from
the generated numbers themselves (numpy's linear percentiles of the TTFTs,
TPOTs, E2ELs and every ITL of the successful requests, in ms), for
bench/check_detailed.py.
"""
import argparse
import array
import json
import os
import random
import sys

OUT_LEN = 256       # output tokens a request: 255 inter-token latencies
PROMPT = 1024
CONC = 64


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--mb", type=float, default=1000.0)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--check", help="write the expected percentiles here (needs numpy)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    model = os.path.join(args.out, "big-model", "bench")
    os.makedirs(model, exist_ok=True)
    with open(os.path.join(args.out, "sweep.json"), "w") as f:
        json.dump({"name": "one run of %g MB" % args.mb, "hardware": "synthetic"}, f)
    # about 5.6 kB a request: 255 inter-token latencies of ~21 characters
    per_request = OUT_LEN * 21.6 + 80
    n = max(8, int(args.mb * 1e6 / per_request))
    pool = [repr(0.02 * rng.gammavariate(8.0, 0.125) + 1e-7 * k) for k in range(65536)]
    ttfts, itl_sums, tpots = [], [], []
    itls_all = array.array("d")  # 8 bytes a latency: 400 MB for a gigabyte's 50 million
    keep_itls = args.check is not None
    path = os.path.join(model, "vllm-in%d-out%d-c%d.json" % (PROMPT, OUT_LEN, CONC))
    with open(path, "w") as f:
        head = ('{"date": "20261207-120000", "endpoint_type": "vllm", "backend": "vllm", "label": null, '
                '"model_id": "synthetic/big-model", "tokenizer_id": "synthetic/big-model", "num_prompts": %d, '
                '"input_len": "%d", "output_len": "%d", "request_rate": "inf", "burstiness": 1.0, '
                '"max_concurrency": %d, "duration": %r, "completed": %d, "failed": %d, '
                '"total_input_tokens": %d, "total_output_tokens": %d, "request_throughput": %r, '
                '"output_throughput": %r, "total_token_throughput": %r, "median_ttft_ms": 120.0, '
                '"median_tpot_ms": 20.0, "median_itl_ms": 20.0, ')
        failed = {i for i in range(n) if i % 997 == 13}
        dur = n * OUT_LEN * 0.02 / CONC
        out_tokens = (n - len(failed)) * OUT_LEN
        f.write(head % (n, PROMPT, OUT_LEN, CONC, dur, n - len(failed), len(failed), n * PROMPT, out_tokens,
                        (n - len(failed)) / dur, out_tokens / dur, (out_tokens + n * PROMPT) / dur))
        f.write('"input_lens": [%s], ' % ", ".join([str(PROMPT)] * n))
        f.write('"output_lens": [%s], ' % ", ".join("0" if i in failed else str(OUT_LEN) for i in range(n)))
        t = [0.12 * rng.lognormvariate(0.0, 0.3) for _ in range(n)]
        f.write('"ttfts": [%s], ' % ", ".join(repr(x) for x in t))
        f.write('"itls": [')
        for i in range(n):
            if i in failed:
                row = []
            else:
                row = rng.choices(pool, k=OUT_LEN - 1)
            f.write(("[" if i == 0 else ", [") + ", ".join(row) + "]")
            if not (i in failed):
                vals = [float(x) for x in row]
                s = 0.0
                for x in vals:
                    s += x
                ttfts.append(t[i])
                itl_sums.append(s)
                tpots.append(((t[i] + s) - t[i]) / (OUT_LEN - 1))  # (E2EL - TTFT) / (out - 1), as computed
                if keep_itls:
                    itls_all.extend(vals)
        f.write('], "generated_texts": [%s], ' % ", ".join(['""' if i in failed else '"tok"' for i in range(n)]))
        f.write('"errors": [%s]}\n' % ", ".join(
            '"Traceback (most recent call last):\\nTimeoutError"' if i in failed else '""' for i in range(n)))
    small = os.path.join(model, "vllm-in128-out%d-c4.json" % OUT_LEN)
    with open(small, "w") as f:
        f.write('{"model_id": "synthetic/big-model", "input_len": "128", "output_len": "%d", "max_concurrency": 4, '
                '"request_rate": "inf", "num_prompts": 8, "completed": 8, "duration": 10.0, '
                '"output_throughput": 204.8, "median_ttft_ms": 30.0}\n' % OUT_LEN)
    size = os.path.getsize(path)
    print("gen_detailed: %d requests (%d failed), %.1f MB in %s" % (n, len(failed), size / 1e6, path),
          file=sys.stderr)
    if keep_itls:
        import numpy as np
        flat = np.frombuffer(itls_all, dtype=np.float64)
        want = {"scenario": "in%d-out%d-c%d" % (PROMPT, OUT_LEN, CONC), "requests": n, "failed": len(failed)}
        for name, v in (("ttft_ms", np.array(ttfts)), ("tpot_ms", np.array(tpots)),
                        ("e2el_ms", np.array(ttfts) + np.array(itl_sums)), ("itl_ms", flat)):
            want[name] = {p: float(np.percentile(v, int(p[1:]))) * 1000 for p in ("p50", "p90", "p99")}
        with open(args.check, "w") as f:
            json.dump(want, f)


if __name__ == "__main__":
    main()
