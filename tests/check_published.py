#!/usr/bin/env python3
"""The bundled sample must reproduce the published figures. These numbers come
from the write-up, not from the tool: if a change moves one, this fails even when
the golden files were regenerated."""
import json
import sys

report = json.load(open(sys.argv[1]))
models = {m["id"]: m for m in report["models"]}
failures = []


def check(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


def acc(mid, bench):
    return models[mid]["accuracy"].get(bench)


def r3(x):
    return None if x is None else f"{x:.3f}"


def ratio(mid, key):
    s = models[mid]["speed"].get(key)
    return None if s is None or s["ratio"] is None else f"{s['ratio']:.2f}"


B = "google/gemma-4-E2B-it"
check("baseline", report["baseline"], B)
check("resamples", report["settings"]["resamples"], 10000)
check("gemma gsm8k", r3(acc(B, "gsm8k")["score"]), "0.911")
check("gemma gsm8k n", acc(B, "gsm8k")["n"], 1319)
check("gemma bfcl", r3(acc(B, "bfcl_simple")["score"]), "0.927")
check("gemma bfcl n", acc(B, "bfcl_simple")["n"], 400)
check("gemma kv", models[B]["kv_cache"]["logged_tokens"], 321280)

Q4 = "Qwen/Qwen3-4B"
check("qwen3-4b gsm8k", r3(acc(Q4, "gsm8k")["score"]), "0.915")
check("qwen3-4b bfcl", r3(acc(Q4, "bfcl_simple")["score"]), "0.940")
check("qwen3-4b gsm8k verdict", acc(Q4, "gsm8k")["verdict"], "no measured difference")
check("qwen3-4b bfcl verdict", acc(Q4, "bfcl_simple")["verdict"], "no measured difference")
check("qwen3-4b c16", ratio(Q4, "in128-out256-c16"), "0.57")
check("qwen3-4b 3072", ratio(Q4, "in3072-out256-c16"), "0.36")
check("qwen3-4b kv", models[Q4]["kv_cache"]["logged_tokens"], 50688)
check("qwen3-4b kv recomputed", models[Q4]["kv_cache"]["recomputed_tokens"], 50688)

S3 = "HuggingFaceTB/SmolLM3-3B"
check("smollm3 gsm8k", r3(acc(S3, "gsm8k")["score"]), "0.858")
check("smollm3 gsm8k verdict", acc(S3, "gsm8k")["verdict"], "lower")
check("smollm3 gsm8k delta points", f"{acc(S3, 'gsm8k')['delta'] * 100:.1f}", "-5.3")
check("smollm3 bfcl", r3(acc(S3, "bfcl_simple")["score"]), "0.945")
check("smollm3 bfcl verdict", acc(S3, "bfcl_simple")["verdict"], "no measured difference")
check("smollm3 c16", ratio(S3, "in128-out256-c16"), "0.76")
check("smollm3 kv", models[S3]["kv_cache"]["logged_tokens"], 120320)

G = "ibm-granite/granite-3.3-2b-instruct"
check("granite bfcl verdict", acc(G, "bfcl_simple")["verdict"], "no measured difference")
check("granite c16", ratio(G, "in128-out256-c16"), "0.93")
check("granite kv", models[G]["kv_cache"]["logged_tokens"], 125184)

Q17 = "Qwen/Qwen3-1.7B"
check("qwen3-1.7b faster at c16", float(ratio(Q17, "in128-out256-c16")) > 1, True)
check("qwen3-1.7b gsm8k", r3(acc(Q17, "gsm8k")["score"]), "0.827")
check("qwen3-1.7b gsm8k verdict", acc(Q17, "gsm8k")["verdict"], "lower")
check("qwen3-1.7b bfcl verdict", acc(Q17, "bfcl_simple")["verdict"], "no measured difference")
check("qwen3-1.7b kv", models[Q17]["kv_cache"]["logged_tokens"], 100096)

small = [m for m in report["models"] if m["id"] in ("Qwen/Qwen3-0.6B", "HuggingFaceTB/SmolLM2-1.7B-Instruct")]
check("two sub-2B models", len(small), 2)
for m in small:
    pts = -m["accuracy"]["gsm8k"]["delta"] * 100
    check(f"{m['id']} 18 to 45 points below", 18 <= pts <= 45, True)

for mid, stage in [("deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "load"), ("allenai/OLMo-2-0425-1B", "compile"),
                   ("mistralai/Ministral-3-3B-Instruct-2512", "serve"), ("Qwen/Qwen3.5-2B", "serve")]:
    check(f"{mid} status", models[mid]["status"], "failed")
    check(f"{mid} stage", (models[mid]["failure"] or {}).get("stage"), stage)
check("r1 reason", "tie_word_embeddings" in models["deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B"]["failure"]["message"], True)
check("olmo reason", "vmem" in models["allenai/OLMo-2-0425-1B"]["failure"]["message"], True)

P = "microsoft/Phi-4-mini-instruct"
check("phi status", models[P]["status"], "partial")
check("phi has gsm8k", "gsm8k" in models[P]["accuracy"], True)
check("phi lacks bfcl", "bfcl_simple" in models[P]["accuracy"], False)
check("phi failure stage", (models[P]["failure"] or {}).get("stage"), "score")

flag = [w for w in report["warnings"] if "gpu_memory_utilization 0.9" in w]
check("declared 0.9 flagged", len(flag), 1)
check("flag names qwen3-4b's 50,688", "Qwen/Qwen3-4B 50,688 tokens" in flag[0] if flag else False, True)
check("0.92 fits", "= 0.92 fits" in flag[0] if flag else False, True)

if failures:
    print("\n".join(failures))
    print(f"published: {len(failures)} failed")
    sys.exit(1)
print("published figures: all reproduced")
