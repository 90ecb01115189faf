#!/usr/bin/env python3
"""Write a large synthetic sweep export in the real formats sweep-report reads.

Python 3 standard library only; deterministic for a given --seed. The layout
and every line follow tests/bad/base and fixtures/ (the real formats, see
shared/research/formats.md):

  OUT/sweep.json                      manifest naming the baseline (model 0)
  OUT/sweep.arms                      the run plan, one model a line
  OUT/ckpt-NNNNN/config.json          a Qwen3-1.7B-shaped HF config
  OUT/ckpt-NNNNN/server/vllm-server.log
        startup with TPU memory lines, `GPU KV cache size`, the engine line
        `model='org/name'`, then periodic loggers.py throughput lines
  OUT/ckpt-NNNNN/lm_eval/<org>__<name>/samples_gsm8k_<date>.jsonl
        two lines per doc, filter-major (all strict-match, then all
        flexible-extract), plus results_<date>.json with the claimed means
  OUT/ckpt-NNNNN/bfcl/{result,score}/<Org>_<Name>-FC/[non_live/]BFCL_v3_simple_*
        (v4 simple_python for every third model): result lines for every
        item, score file with the header and the failures only
  OUT/ckpt-NNNNN/bench/<scenario>/vllm-infqps-concurrencyC-<name>-<date>.json
        `vllm bench serve --save-result --append-result` files, several
        objects per file (one per run), --metadata input_len/output_len strings

Per-item outcomes are correlated with the baseline: about 90 % accuracy, about
6 % of items discordant with the baseline, each model's accuracy drawn in
[0.86, 0.94]. The flexible-extract filter also accepts ~30 % of the answers
strict-match rejects (a right number without the `####` format).

--log-mb X pads the server log of one model (the first non-baseline one) with
realistic repeated loggers.py lines to X MB, and writes that model's speed
runs as one captured `vllm bench serve` stdout log of --bench-log-mb MB
(default X) instead of --save-result files (so no run is counted twice).

--side FILE writes the 0/1 score matrices the report compares, for
bench/numpy_bootstrap.py: one JSON header line, then for each benchmark a
models x items uint8 matrix (row = model in header order, column = item in
item-id order). gsm8k uses the strict-match filter (the tool's default).
"""

import argparse
import hashlib
import json
import math
import os
import random
import shutil
import sys
import time

ORG = "sweeporg"
DATE = "2026-11-02"
SCENARIOS = [(128, 256, 1), (128, 256, 16), (1024, 256, 16)]  # input, output, concurrency
BASE_THROUGHPUT = {1: 110.0, 16: 900.0}  # tok/s of the baseline at each concurrency
ACC_LO, ACC_HI, DISCORDANT, FMT_RESCUE = 0.86, 0.94, 0.06, 0.30
BASE_ACC = 0.90

CONFIG_JSON = """{
  "architectures": [
    "Qwen3ForCausalLM"
  ],
  "attention_bias": false,
  "attention_dropout": 0.0,
  "bos_token_id": 151643,
  "eos_token_id": 151645,
  "head_dim": 128,
  "hidden_act": "silu",
  "hidden_size": 2048,
  "initializer_range": 0.02,
  "intermediate_size": 6144,
  "max_position_embeddings": 40960,
  "max_window_layers": 28,
  "model_type": "qwen3",
  "num_attention_heads": 16,
  "num_hidden_layers": 28,
  "num_key_value_heads": 8,
  "rms_norm_eps": 1e-06,
  "rope_scaling": null,
  "rope_theta": 1000000,
  "sliding_window": null,
  "tie_word_embeddings": true,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.51.0",
  "use_cache": true,
  "use_sliding_window": false,
  "vocab_size": 151936
}
"""

# Server log startup, abridged from a real TPU vLLM log (fixtures/). {M} is
# the model id; the memory and KV lines match CONFIG_JSON on a 15.75 GiB v5e.
API = "(APIServer pid=1) INFO 11-02 {t} "
ENG = "(EngineCore_DP0 pid=305) INFO 11-02 {t} "
STARTUP = [
    API + "[api_server.py:1881] vLLM API server version 0.29.1.dev47+g3f2a9c1d8",
    API + "[utils.py:253] non-default args: {{'model_tag': '{M}', 'host': '0.0.0.0', 'model': '{M}', "
    "'max_model_len': 4096, 'enable_prefix_caching': True, 'max_num_seqs': 16, 'enable_auto_tool_choice': True, "
    "'tool_call_parser': 'hermes', 'disable_uvicorn_access_log': True}}",
    API + "[model.py:657] Resolved architecture: Qwen3ForCausalLM",
    API + "[model.py:1799] Using max model len 4096",
    API + "[scheduler.py:242] Chunked prefill is enabled with max_num_batched_tokens=8192.",
    API + "[tpu_platform.py:342] Force using UniProcExecutor for JAX on single host without pipeline parallelism.",
    ENG + "[core.py:116] Initializing a V1 LLM engine (v0.29.1.dev47+g3f2a9c1d8) with config: model='{M}', "
    "speculative_config=None, tokenizer='{M}', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, "
    "tokenizer_revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=4096, download_dir=None, "
    "load_format=auto, tensor_parallel_size=1, pipeline_parallel_size=1, data_parallel_size=1, "
    "disable_custom_all_reduce=True, quantization=None, enforce_eager=False, kv_cache_dtype=auto, "
    "device_config=None, seed=0, served_model_name={M}, enable_prefix_caching=True, enable_chunked_prefill=True",
    ENG + "[parallel_state.py:1612] world_size=1 rank=0 local_rank=0 "
    "distributed_init_method=file:///tmp/tmpc7b98aa9 backend=gloo",
    ENG + "[tpu_runner.py:885] Init mesh | mesh=Mesh('data': 1, 'model': 1, axis_types=(Auto, Auto))",
    ENG + "[utils.py:211] Prepared token paddings: [16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]",
    ENG + "[compilation_manager.py:66] Enabling JAX compile cache.",
    ENG + "[tpu_worker.py:471] Init worker | rank=0 | is_first_rank=True | is_last_rank=True | topology_order_id=0 "
    "| is_driver_worker=True | hbm=[(0.0, 15.75)]GiB",
    ENG + "[model_loader.py:656] Loading model with MODEL_IMPL_TYPE=auto",
    ENG + "[tpu_runner.py:1262] Cleared JIT caches after weight loading",
    ENG + "[tpu_runner.py:1264] Init model | hbm=[(3.78, 15.75)]GiB",
    ENG + "[tpu_worker.py:557] Memory statistics | total_hbm_limit_gb=15.75GiB | total_hbm_limit_cap_gb=14.49GiB "
    "| total_hbm_used_gb=3.78GiB | total_hbm_avail_gb=10.71GiB",
    ENG + "[kv_cache_utils.py:2214] GPU KV cache size: 100,096 tokens",
    ENG + "[kv_cache_utils.py:2215] Maximum concurrency for 4,096 tokens per request: 24.44x",
    ENG + "[kv_cache_manager.py:958] Hybrid KV cache layout: num_kv_cache_groups=1, num_kv_cache_tensors=28, "
    "kv_cache_config.num_blocks=391, duplicate_shared_layers=False",
    ENG + "[compilation_manager.py:236] Precompile all the subgraphs with possible input shapes.",
    ENG + "[compilation_manager.py:228] Warm-up call pass finished in 0.17 [secs] over 24 tasks.",
    ENG + "[core.py:275] init engine (profile, create kv cache, warmup model) took 119.80 seconds",
    API + "[loggers.py:245] Engine 000: vllm cache_config_info with initialization after num_gpu_blocks is: 391",
    API + "[api_server.py:1634] Supported_tasks: ['generate']",
    API + "[api_server.py:1912] Starting vLLM API server 0 on http://0.0.0.0:8000",
    "(APIServer pid=1) INFO:     Started server process [1]",
    "(APIServer pid=1) INFO:     Waiting for application startup.",
    "(APIServer pid=1) INFO:     Application startup complete.",
]
SHUTDOWN = [
    "(APIServer pid=1) INFO:     Shutting down",
    "(APIServer pid=1) INFO:     Waiting for application shutdown.",
    "(APIServer pid=1) INFO:     Application shutdown complete.",
    "(APIServer pid=1) INFO:     Finished server process [1]",
]
LOGGERS = ("(APIServer pid=1) INFO 11-02 %02d:%02d:%02d [loggers.py:127] Engine 000: Avg prompt throughput: "
           "%.1f tokens/s, Avg generation throughput: %.1f tokens/s, Running: %d reqs, Waiting: 0 reqs, "
           "GPU KV cache usage: %.1f%%, Prefix cache hit rate: %.1f%%\n")


def sha(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def clock(sec):
    sec = int(sec) % 86400
    return "%02d:%02d:%02d" % (sec // 3600, sec // 60 % 60, sec % 60)


# ---- per-item text, shared by all models (as in real exports) -------------

def gsm8k_lines(n, seed):
    """For each doc: three strict-match lines and three flexible-extract lines,
    one per response kind: 0 = right with ####, 1 = right number without
    #### (strict rejects it), 2 = wrong number. Returns (strict, flex) lists
    of [line0, line1, line2] per doc."""
    rng = random.Random(seed ^ 0x65A8)
    strict, flex = [], []
    for d in range(n):
        x, y = rng.randint(2, 60), rng.randint(2, 40)
        p = x * y
        q = p + rng.choice((-x, -y, x, y, 10))
        question = "What is %d times %d? (problem %d)" % (x, y, d)
        answer = "%d * %d = <<%d*%d=%d>>%d\n#### %d" % (x, y, x, y, p, p, p)
        doc = {"question": question, "answer": answer}
        prompt = "Question: " + question + "\nAnswer:"
        gen = {"until": ["Question:", "</s>", "<|im_end|>"], "do_sample": False, "temperature": 0.0}
        doc_hash = sha(json.dumps(doc, indent=2, ensure_ascii=False))
        prompt_hash, target_hash = sha(prompt), sha(answer)
        resps = ["%d * %d = %d\n#### %d" % (x, y, p, p), "%d * %d is %d." % (x, y, p),
                 "%d * %d = %d\n#### %d" % (x, y, q, q)]
        per_filter = []
        for filt, filtered in (("strict-match", (str(p), "[invalid]", str(q))),
                               ("flexible-extract", (str(p), str(p), str(q)))):
            lines = []
            for k in range(3):
                obj = {"doc_id": d, "doc": doc, "target": answer,
                       "arguments": {"gen_args_0": {"arg_0": prompt, "arg_1": gen}},
                       "resps": [[resps[k]]], "filtered_resps": [filtered[k]], "filter": filt,
                       "metrics": ["exact_match"], "doc_hash": doc_hash, "prompt_hash": prompt_hash,
                       "target_hash": target_hash, "exact_match": 1.0 if filtered[k] == str(p) else 0.0}
                lines.append(json.dumps(obj, ensure_ascii=False) + "\n")
            per_filter.append(lines)
        strict.append(per_filter[0])
        flex.append(per_filter[1])
    return strict, flex


FUNCS = ["calculate_triangle_area", "geometry.circumference", "math.factorial", "get_current_weather",
         "find_restaurants", "convert_currency", "book_flight", "get_stock_price"]


def bfcl_items(n, seed, prefix):
    """Per item: (result line for a right call, for a wrong call, the middle
    of a failure entry in the score file with {MODEL} left open)."""
    rng = random.Random(seed ^ 0xBFC1)
    items = []
    for j in range(n):
        f = FUNCS[j % len(FUNCS)]
        a, b = rng.randint(1, 99), rng.randint(1, 99)
        iid = "%s_%d" % (prefix, j)
        good = json.dumps({f: json.dumps({"a": a, "b": b})})
        bad_args = {"a": a, "b": b, "verbose": True}
        bad = json.dumps({f: json.dumps(bad_args)})
        tail = ', "input_token_count": %d, "output_token_count": %d, "latency": %r}\n' % (
            rng.randint(250, 400), rng.randint(20, 45), rng.uniform(0.3, 0.7))
        res_good = '{"id": "%s", "result": [%s]%s' % (iid, good, tail)
        res_bad = '{"id": "%s", "result": [%s]%s' % (iid, bad, tail)
        prompt = {"id": iid,
                  "question": [[{"role": "user", "content": "Call %s with a=%d and b=%d." % (f, a, b)}]],
                  "function": [{"name": f, "description": "Synthetic function.",
                                "parameters": {"type": "dict", "properties": {
                                    "a": {"type": "integer", "description": "first"},
                                    "b": {"type": "integer", "description": "second"}},
                                    "required": ["a", "b"]}}]}
        fail_head = '{"id": "%s", "model_name": "' % iid
        fail_tail = ('", "test_category": "%s", "valid": false, "error": ["Unexpected parameter: \'verbose\'."], '
                     '"error_type": "simple_function_checker:unexpected_param", "prompt": %s, '
                     '"model_result_raw": [%s], "model_result_decoded": [%s], "possible_answer": [%s]}\n') % (
            prefix, json.dumps(prompt), bad, json.dumps({f: bad_args}), json.dumps({f: {"a": [a], "b": [b]}}))
        items.append((res_good, res_bad, fail_head, fail_tail))
    return items


BENCH_TMPL = (
    '{"date": "%s", "endpoint_type": "vllm", "backend": "vllm", "label": null, "model_id": "%s", '
    '"tokenizer_id": "%s", "num_prompts": %d, "input_len": "%d", "output_len": "%d", "request_rate": "inf", '
    '"burstiness": 1.0, "max_concurrency": %d, "duration": %r, "completed": %d, "failed": 0, '
    '"total_input_tokens": %d, "total_output_tokens": %d, "request_throughput": %r, "request_goodput": null, '
    '"output_throughput": %r, "total_token_throughput": %r, "max_output_tokens_per_s": %.1f, '
    '"max_concurrent_requests": %d, "rtfx": 0.0, "mean_ttft_ms": %r, "median_ttft_ms": %r, "std_ttft_ms": %r, '
    '"p99_ttft_ms": %r, "mean_tpot_ms": %r, "median_tpot_ms": %r, "std_tpot_ms": %r, "p99_tpot_ms": %r, '
    '"mean_itl_ms": %r, "median_itl_ms": %r, "std_itl_ms": %r, "p99_itl_ms": %r}')

BLOCK_TMPL = """============ Serving Benchmark Result ============
Successful requests:                     %-10d
Failed requests:                         0         
Maximum request concurrency:             %-10d
Benchmark duration (s):                  %-10.2f
Total input tokens:                      %-10d
Total generated tokens:                  %-10d
Request throughput (req/s):              %-10.2f
Output token throughput (tok/s):         %-10.2f
Peak output token throughput (tok/s):    %-10.2f
Peak concurrent requests:                %-10.2f
Total token throughput (tok/s):          %-10.2f
---------------Time to First Token----------------
Mean TTFT (ms):                          %-10.2f
Median TTFT (ms):                        %-10.2f
P99 TTFT (ms):                           %-10.2f
-----Time per Output Token (excl. 1st token)------
Mean TPOT (ms):                          %-10.2f
Median TPOT (ms):                        %-10.2f
P99 TPOT (ms):                           %-10.2f
---------------Inter-token Latency----------------
Mean ITL (ms):                           %-10.2f
Median ITL (ms):                         %-10.2f
P99 ITL (ms):                            %-10.2f
==================================================
"""

NAMESPACE = ("Namespace(subparser='bench', bench_type='serve', seed=0, num_prompts=%d, dataset_name='random', "
             "no_stream=False, dataset_path=None, random_input_len=%d, random_output_len=%d, random_range_ratio=0.0, "
             "random_prefix_len=0, input_len=None, output_len=None, label=None, backend='vllm', endpoint_type=None, "
             "base_url=None, host='127.0.0.1', port=8000, endpoint='/v1/completions', max_concurrency=%d, "
             "model='%s', tokenizer=None, request_rate=inf, burstiness=1.0, save_result=False, metadata=None, "
             "ignore_eos=True, percentile_metrics='ttft,tpot,itl', metric_percentiles='99')\n")


def run_figures(rng, factor, inp, out, conc):
    """One run's numbers: throughput from the model's speed factor, +-2 % noise."""
    prompts = 64 if conc == 1 else 256
    tp = BASE_THROUGHPUT[conc] * factor * (1.0 + rng.uniform(-0.02, 0.02))
    if inp > 512:
        tp *= 0.7
    total_out = prompts * out
    total_in = prompts * inp
    duration = total_out / tp
    ttft = rng.uniform(15.0, 25.0) * (1 + inp / 1024.0)
    tpot = 1000.0 * conc / tp
    return dict(prompts=prompts, tp=tp, total_in=total_in, total_out=total_out, duration=duration,
                req_tp=prompts / duration, tot_tp=(total_in + total_out) / duration, peak=tp * 1.1,
                ttft=(ttft, ttft * 0.93, ttft * 0.3, ttft * 2.1), tpot=(tpot, tpot * 0.99, tpot * 0.05, tpot * 1.2),
                itl=(tpot * 0.99, tpot * 0.97, tpot * 0.6, tpot * 2.6))


def bench_json(model_id, stamp, inp, out, conc, f):
    return BENCH_TMPL % (stamp, model_id, model_id, f["prompts"], inp, out, conc, f["duration"], f["prompts"],
                         f["total_in"], f["total_out"], f["req_tp"], f["tp"], f["tot_tp"], f["peak"], conc,
                         *f["ttft"], *f["tpot"], *f["itl"])


def detail_arrays(rng, inp, out, f):
    """--per-request: the arrays `vllm bench serve --save-detailed` adds to a
    result (input_lens, output_lens, ttfts [s], itls [[s]], generated_texts,
    errors), one entry per prompt, out - 1 inter-token latencies each, drawn
    around the run's TTFT and TPOT; numbers as Python writes them (repr)."""
    ttft_s, tpot_s = f["ttft"][1] / 1000.0, f["tpot"][1] / 1000.0
    ttfts = [repr(ttft_s * rng.lognormvariate(0.0, 0.3)) for _ in range(f["prompts"])]
    pool = [repr(tpot_s * rng.gammavariate(8.0, 0.125)) for _ in range(4096)]
    itls = ", ".join("[" + ", ".join(rng.choices(pool, k=out - 1)) + "]" for _ in range(f["prompts"]))
    text = json.dumps(" ".join(["token"] * out))
    return ('"input_lens": [%s], "output_lens": [%s], "ttfts": [%s], "itls": [%s], "generated_texts": [%s], '
            '"errors": [%s], ' % (", ".join([str(inp)] * f["prompts"]), ", ".join([str(out)] * f["prompts"]),
                                  ", ".join(ttfts), itls, ", ".join([text] * f["prompts"]),
                                  ", ".join(['""'] * f["prompts"])))


def bench_block(inp, out, conc, f):
    return BLOCK_TMPL % (f["prompts"], conc, f["duration"], f["total_in"], f["total_out"], f["req_tp"], f["tp"],
                         f["peak"], float(conc), f["tot_tp"], f["ttft"][0], f["ttft"][1], f["ttft"][3],
                         f["tpot"][0], f["tpot"][1], f["tpot"][3], f["itl"][0], f["itl"][1], f["itl"][3])


# ---- outcomes --------------------------------------------------------------

def draw_base(rng, n):
    """Baseline kinds per item: 0 right, 1 right number without ####, 2 wrong."""
    kinds = bytearray(n)
    for i in range(n):
        if rng.random() >= BASE_ACC:
            kinds[i] = 1 if rng.random() < FMT_RESCUE else 2
    return kinds


def draw_model(rng, base, acc):
    """A model's kinds, correlated with the baseline's: flip right->wrong with
    p10 and wrong->right with p01 so that accuracy ~ acc and ~6 % discordant."""
    p01 = min(1.0, max(0.0, (DISCORDANT + acc - BASE_ACC) / (2 * (1 - BASE_ACC))))
    p10 = max(0.0, (DISCORDANT - (1 - BASE_ACC) * p01) / BASE_ACC)
    kinds = bytearray(len(base))
    rand = rng.random
    for i, b in enumerate(base):
        if b == 0:
            if rand() < p10:
                kinds[i] = 1 if rand() < FMT_RESCUE else 2
        elif rand() >= p01:
            kinds[i] = 1 if rand() < FMT_RESCUE else 2
    return kinds


# ---- writing ---------------------------------------------------------------

def write(path, text):
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)


def pad_server_log(fh, target_bytes, rng, start_sec):
    """Append loggers.py lines until the file holds target_bytes."""
    written = fh.tell()
    sec = start_sec
    chunk = []
    size = 0
    while written + size < target_bytes:
        sec += rng.randint(1, 30)
        s = sec % 86400
        busy = rng.random() < 0.8
        line = LOGGERS % (s // 3600, s // 60 % 60, s % 60,
                          rng.uniform(50, 8000) if busy else 0.0, rng.uniform(100, 1000) if busy else 0.0,
                          16 if busy else 0, rng.uniform(0, 60) if busy else 0.0, rng.uniform(0, 95))
        chunk.append(line)
        size += len(line)
        if len(chunk) >= 4096:
            fh.write("".join(chunk))
            written += size
            chunk, size = [], 0
    fh.write("".join(chunk))


def tqdm_line(done, total, elapsed):
    frac = done / total
    bar = "\u2588" * int(frac * 10)
    bar += " " * (10 - len(bar))
    rate = done / elapsed if elapsed else 0.0
    return "%3d%%|%s| %d/%d [%02d:%02d<00:00, %5.2fit/s]\n" % (
        int(frac * 100), bar, done, total, int(elapsed) // 60, int(elapsed) % 60, rate)


def write_bench_stdout(path, model_id, runs, target_bytes, rng):
    """A captured stdout of all of one model's `vllm bench serve` runs, with
    progress and warning lines between the runs up to target_bytes."""
    per_run = max(0, target_bytes // max(1, len(runs)))
    with open(path, "w", encoding="utf-8", newline="") as fh:
        for (inp, out, conc, f) in runs:
            fh.write("INFO 11-02 12:15:38 [__init__.py:243] Automatically detected platform tpu.\n")
            fh.write(NAMESPACE % (f["prompts"], inp, out, conc, model_id))
            fh.write("Starting initial single prompt test run...\nWaiting for endpoint to become up in 600 seconds\n"
                     "Initial test run completed.\nTraffic request rate: inf\nBurstiness factor: 1.0 (Poisson process)\n"
                     "Maximum request concurrency: %d\n" % conc)
            total = f["prompts"]
            chunk, k = [], 0
            body = per_run - 2600  # leave room for the block
            size = 0
            while size < body:
                k += 1
                if k % 50 == 0:
                    line = ("WARNING 11-02 12:%02d:%02d [serving.py:412] Request benchmark-serving-%d: slow "
                            "first token, %.1f ms\n" % (k // 60 % 60, k % 60, k, rng.uniform(100, 900)))
                else:
                    done = k % (total + 1)
                    line = tqdm_line(done, total, 0.5 * done + 1)
                chunk.append(line)
                size += len(line.encode("utf-8"))
                if len(chunk) >= 4096:
                    fh.write("".join(chunk))
                    chunk = []
            fh.write("".join(chunk))
            fh.write(tqdm_line(total, total, f["duration"]))
            fh.write("tip: install termplotlib and gnuplot to plot the metrics\n")
            fh.write(bench_block(inp, out, conc, f))


def model_names(i):
    name = "ckpt-%05d" % i
    return name, "%s/%s" % (ORG, name)


def write_model(args, i, base_g, base_b, gsm_strict, gsm_flex, bfcl3, bfcl4, big_index, side_rows):
    name, mid = model_names(i)
    rng = random.Random(args.seed * 1000003 + i)
    mdir = os.path.join(args.out, name)
    is_base = i == 0
    acc_g = BASE_ACC if is_base else rng.uniform(ACC_LO, ACC_HI)
    acc_b = BASE_ACC if is_base else rng.uniform(ACC_LO, ACC_HI)
    speed = 1.0 if is_base else rng.uniform(0.6, 1.6)
    kinds_g = base_g if is_base else draw_model(rng, base_g, acc_g)
    kinds_b = base_b if is_base else draw_model(rng, base_b, acc_b)

    os.makedirs(os.path.join(mdir, "server"), exist_ok=True)
    write(os.path.join(mdir, "config.json"), CONFIG_JSON)

    # Server log.
    start = 12 * 3600 + 13 * 60 + 13
    lines = [(l.format(t=clock(start + k), M=mid) + "\n") for k, l in enumerate(STARTUP)]
    t = start + len(STARTUP) + 100
    for k in range(args.log_lines):
        t += rng.randint(20, 140)
        busy = k % 2 == 0
        lines.append(LOGGERS % (t // 3600 % 24, t // 60 % 60, t % 60, rng.uniform(50, 8000) if busy else 0.0,
                                rng.uniform(100, 1000) if busy else 0.0, 16 if busy else 0,
                                rng.uniform(0, 60) if busy else 0.0, rng.uniform(0, 95)))
    log_path = os.path.join(mdir, "server", "vllm-server.log")
    with open(log_path, "w", encoding="utf-8", newline="") as fh:
        fh.write("".join(lines))
        if i == big_index:
            pad_server_log(fh, int(args.log_mb * 1e6) - 300, rng, t)
        fh.write("\n".join(SHUTDOWN) + "\n")

    # lm-eval samples (filter-major) and results.
    date_id = "%sT%02d-%02d-%02d.%06d" % (DATE, 12 + i // 3600 % 12, i // 60 % 60, i % 60, (i * 7919) % 1000000)
    ldir = os.path.join(mdir, "lm_eval", "%s__%s" % (ORG, name))
    os.makedirs(ldir, exist_ok=True)
    ng = len(kinds_g)
    strict_lines = [gsm_strict[d][k] for d, k in enumerate(kinds_g)]
    flex_lines = [gsm_flex[d][k] for d, k in enumerate(kinds_g)]
    write(os.path.join(ldir, "samples_gsm8k_%s.jsonl" % date_id), "".join(strict_lines) + "".join(flex_lines))
    strict_ok = kinds_g.count(0)
    flex_ok = strict_ok + kinds_g.count(1)
    ms, mf = strict_ok / ng, flex_ok / ng

    def se(p):
        return math.sqrt(p * (1 - p) / (ng - 1)) if ng > 1 else 0.0
    write(os.path.join(ldir, "results_%s.json" % date_id), json.dumps({
        "results": {"gsm8k": {"alias": "gsm8k", "exact_match,strict-match": ms, "exact_match_stderr,strict-match": se(ms),
                              "exact_match,flexible-extract": mf, "exact_match_stderr,flexible-extract": se(mf)}},
        "group_subtasks": {"gsm8k": []},
        "n-samples": {"gsm8k": {"original": ng, "effective": ng}},
        "config": {"model": "local-completions", "model_args": "model=%s,base_url=http://127.0.0.1:8000/v1/completions" % mid},
        "date": 1793620000.0 + i}, indent=2) + "\n")

    # BFCL: v3 simple for most models, v4 simple_python under non_live/ for every third.
    nb = len(kinds_b)
    if nb:
        v4 = i % 3 == 2
        items, ver, cat = (bfcl4, "v4", "simple_python") if v4 else (bfcl3, "v3", "simple")
        fc = "%s_%s-FC" % (ORG, name)
        sub = "non_live" if v4 else ""
        rdir = os.path.join(mdir, "bfcl", "result", fc, sub)
        sdir = os.path.join(mdir, "bfcl", "score", fc, sub)
        os.makedirs(rdir, exist_ok=True)
        os.makedirs(sdir, exist_ok=True)
        res, fails = [], []
        for j, k in enumerate(kinds_b):
            it = items[j]
            if k == 0:
                res.append(it[0])
            else:
                res.append(it[1])
                fails.append(it[2] + fc + it[3])
        correct = nb - len(fails)
        write(os.path.join(rdir, "BFCL_%s_%s_result.json" % (ver, cat)), "".join(res))
        write(os.path.join(sdir, "BFCL_%s_%s_score.json" % (ver, cat)),
              '{"accuracy": %r, "correct_count": %d, "total_count": %d}\n' % (correct / nb, correct, nb) + "".join(fails))

    # Speed runs: spread --runs over the scenarios, three files' worth.
    runs = []
    for r in range(args.runs):
        inp, out, conc = SCENARIOS[r % len(SCENARIOS)]
        runs.append((inp, out, conc, run_figures(rng, speed, inp, out, conc)))
    if i == big_index:
        bdir = os.path.join(mdir, "bench")
        os.makedirs(bdir, exist_ok=True)
        write_bench_stdout(os.path.join(bdir, "bench-all-scenarios.log"), mid, runs,
                           int(args.bench_log_mb * 1e6), rng)
    else:
        # Model ids: some as a filesystem path (last two components count).
        model_id = ("/models/%s" % mid) if i % 2 else mid
        by_key = {}
        for r, (inp, out, conc, f) in enumerate(runs):
            by_key.setdefault((inp, out, conc), []).append((r, f))
        for (inp, out, conc), rs in by_key.items():
            sdir = os.path.join(mdir, "bench", "in%d-out%d-c%d" % (inp, out, conc))
            os.makedirs(sdir, exist_ok=True)
            stamp0 = "20261102-%02d%02d%02d" % (8 + rs[0][0] // 10, rs[0][0] % 10 * 5, i % 60)
            objs = [bench_json(model_id, "20261102-%02d%02d%02d" % (8 + r // 10, r % 10 * 5, i % 60), inp, out, conc, f)
                    for r, f in rs]
            if args.per_request:  # a stream of its own: the export is otherwise the same
                drng = random.Random(args.seed * 7919 + i * 101 + conc + inp)
                objs = [o.replace('"max_output_tokens_per_s"', detail_arrays(drng, inp, out, f) +
                                  '"max_output_tokens_per_s"', 1) for o, (_, f) in zip(objs, rs)]
            write(os.path.join(sdir, "vllm-infqps-concurrency%d-%s-%s.json" % (conc, name, stamp0)), "\n".join(objs))

    side_rows[0].append(bytes(1 if k == 0 else 0 for k in kinds_g))
    side_rows[1].append(bytes(1 if k == 0 else 0 for k in kinds_b))


# What one model writes, measured with the defaults (2026-12, gen_export on 1 to 8 models):
# the estimate below is within a few percent for any sizes.
BYTES_PER_MODEL = 75_000        # config.json, the server log's fixed lines, results and score headers
BYTES_PER_GSM8K_ITEM = 1_510    # two samples lines per item (strict-match and flexible-extract)
BYTES_PER_BFCL_ITEM = 257       # a result line, and a score line for a failure
BYTES_PER_RUN = 1_068           # one --save-result object
BYTES_PER_LOG_LINE = 237        # one loggers.py throughput line
BYTES_PER_DETAILED_RUN = 1_370_000  # --per-request: a run's arrays (mean over the runs of the defaults)


def estimate_bytes(args):
    """The bytes the export (and --side) will take."""
    per_model = (BYTES_PER_MODEL + BYTES_PER_GSM8K_ITEM * args.gsm8k_items + BYTES_PER_BFCL_ITEM * args.bfcl_items
                 + (BYTES_PER_RUN + (BYTES_PER_DETAILED_RUN if args.per_request else 0)) * args.runs
                 + BYTES_PER_LOG_LINE * args.log_lines)
    total = per_model * args.models + (args.log_mb + args.bench_log_mb) * 1e6
    if args.side:
        total += args.models * (args.gsm8k_items + args.bfcl_items)
    return total


def size_text(n):
    return "%.1f GB" % (n / 1e9) if n >= 1e9 else "%.0f MB" % (n / 1e6)


EPILOG = """disk: with the default sizes each model takes about 2.2 MB (mostly GSM8K's
samples lines, about 1.5 KB per item), so --models 60 (the default) writes about
130 MB, --models 1000 about 2.2 GB (some 40 s), --models 3000 about 6.5 GB.
The estimate for the options given is printed before anything is written, with a
warning above 1 GB; the run stops at once when the disk under --out has less room
than that. --estimate prints it and exits.

example: bench/gen_export.py --out /tmp/big --models 1000"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, metavar="DIR",
                    help="the export to write: a new or empty directory (required)")
    ap.add_argument("--models", type=int, default=60, metavar="N",
                    help="model directories, ckpt-00000 ... (model 0 is the baseline; default %(default)s)")
    ap.add_argument("--gsm8k-items", type=int, default=1319, metavar="N",
                    help="GSM8K items per model, as lm-eval samples (default %(default)s, the full test set)")
    ap.add_argument("--bfcl-items", type=int, default=400, metavar="N",
                    help="BFCL simple items per model, 0 for none (default %(default)s, the full category)")
    ap.add_argument("--runs", type=int, default=9, metavar="N",
                    help="vllm bench serve runs per model, spread over 3 scenarios (default %(default)s)")
    ap.add_argument("--log-lines", type=int, default=30, metavar="N",
                    help="loggers.py throughput lines in every server log (default %(default)s)")
    ap.add_argument("--log-mb", type=float, default=0.0, metavar="MB",
                    help="pad one model's server log (the first after the baseline) to this many MB "
                         "(default %(default)s: not padded)")
    ap.add_argument("--bench-log-mb", type=float, default=None, metavar="MB",
                    help="that model's speed runs as one captured vllm bench serve stdout of this many MB "
                         "instead of --save-result files (default: --log-mb)")
    ap.add_argument("--seed", type=int, default=20261130, metavar="N",
                    help="the random seed: the same seed and sizes give the same files (default %(default)s)")
    ap.add_argument("--side", metavar="FILE",
                    help="also write the 0/1 score matrices the report compares, for bench/numpy_bootstrap.py")
    ap.add_argument("--per-request", action="store_true",
                    help="give every --save-result file the per-request arrays of --save-detailed (ttfts, itls, "
                         "output_lens, errors ...: about 1.4 MB a run); the export is otherwise the same")
    ap.add_argument("--estimate", action="store_true",
                    help="print the disk the export would take, and exit without writing")
    args = ap.parse_args()
    if args.models < 1 or args.gsm8k_items < 1 or args.bfcl_items < 0 or args.runs < 0 or args.log_lines < 0:
        ap.error("--models and --gsm8k-items must be >= 1, --bfcl-items, --runs and --log-lines >= 0")
    if args.bench_log_mb is None:
        args.bench_log_mb = args.log_mb
    need = estimate_bytes(args)
    print("gen_export: %d models will take about %s" % (args.models, size_text(need)), file=sys.stderr)
    if args.estimate:
        return
    if need >= 1e9:
        print("gen_export: warning: about %s of disk under %s" % (size_text(need), args.out), file=sys.stderr)
    t0 = time.time()
    os.makedirs(args.out, exist_ok=True)
    if any(e for e in os.listdir(args.out)):
        sys.exit("gen_export: %s is not empty" % args.out)
    free = shutil.disk_usage(args.out).free
    if need > free:
        os.rmdir(args.out)  # made empty just above
        sys.exit("gen_export: %s has %s free, the export needs about %s" % (args.out, size_text(free), size_text(need)))

    gsm_strict, gsm_flex = gsm8k_lines(args.gsm8k_items, args.seed)
    bfcl3 = bfcl_items(args.bfcl_items, args.seed, "simple")
    bfcl4 = bfcl_items(args.bfcl_items, args.seed, "simple_python")
    brng = random.Random(args.seed)
    base_g = draw_base(brng, args.gsm8k_items)
    base_b = draw_base(brng, args.bfcl_items)
    big_index = -1
    if args.log_mb > 0 or args.bench_log_mb > 0:
        big_index = 1 if args.models > 1 else 0

    _, base_id = model_names(0)
    write(os.path.join(args.out, "sweep.json"), json.dumps({
        "name": "synthetic benchmark sweep (%d models)" % args.models, "baseline": base_id,
        "hardware": "TPU v5e-1", "hbm_gib": 15.75, "gpu_memory_utilization": 0.92, "max_model_len": 4096,
        "max_num_seqs": 16, "date": DATE, "generator": "bench/gen_export.py", "seed": args.seed}, indent=2) + "\n")
    with open(os.path.join(args.out, "sweep.arms"), "w") as fh:
        fh.write("# checkpoint hardware benchmarks flags\n")
        for i in range(args.models):
            fh.write("%s v5e-1 load+long+gen parser=hermes\n" % model_names(i)[1])

    side_rows = ([], [])
    for i in range(args.models):
        write_model(args, i, base_g, base_b, gsm_strict, gsm_flex, bfcl3, bfcl4, big_index, side_rows)

    if args.side:
        benches = [{"name": "gsm8k", "n": args.gsm8k_items, "filter": "strict-match"}]
        if args.bfcl_items:
            benches.append({"name": "bfcl_simple", "n": args.bfcl_items})
        header = {"format": "sweep-report bench scores v1", "models": [model_names(i)[1] for i in range(args.models)],
                  "baseline_index": 0, "benchmarks": benches, "dtype": "uint8", "order": "model-major"}
        with open(args.side, "wb") as fh:
            fh.write(json.dumps(header).encode() + b"\n")
            for b in range(len(benches)):
                fh.write(b"".join(side_rows[b]))

    total = 0
    for root, _, files in os.walk(args.out):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
    print("gen_export: %d models, %d gsm8k + %d bfcl items, %d runs, %.1f MB in %s, %.1f s" % (
        args.models, args.gsm8k_items, args.bfcl_items, args.runs, total / 1e6, args.out, time.time() - t0),
        file=sys.stderr)


if __name__ == "__main__":
    main()
