#!/usr/bin/env python3
"""Check report.json of the golden cases report/other-tools and report/inspect-pairing
against figures this script derives from the cases' input files (issue 41): each tool's
entry, settings and definition, its throughput, request counts and latency percentiles
(pooled from its per-request records with numpy's rule), the speed and latency ratios
computed only between tools that define them alike (and marked incomparable otherwise,
both definitions named), MLPerf LoadGen's INVALID run as partial with its reasons, and
Inspect's per-sample scores reduced over epochs, paired with the baseline's.

    check_other_tools.py OUT_DIR EXPORT_DIR
"""
import json
import os
import sys
import zipfile

import yaml

problems = []


def check(what, got, want, tol=1e-9):
    ok = got == want if not isinstance(want, float) else (
        got is not None and abs(got - want) <= tol * max(1.0, abs(want)))
    if not ok:
        problems.append(f"{what}: report.json has {got!r}, expected {want!r}")


def pct(values, p):
    v = sorted(values)
    k = (len(v) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def entry(report, label):
    for m in report["models"]:
        if m["label"] == label:
            return m
    problems.append(f"no entry labelled {label!r} (labels: {[m['label'] for m in report['models']]})")
    return None


def other_tools(report, export):
    vllm = json.load(open(os.path.join(export, "vllm", "bench-c4.json")))
    aiperf = json.load(open(os.path.join(export, "aiperf", "c4", "profile_export_aiperf.json")))
    records = [json.loads(l) for l in open(os.path.join(export, "aiperf", "c4", "profile_export.jsonl"))]
    guide = yaml.safe_load(open(os.path.join(export, "guidellm", "benchmarks.yaml")))
    key = f"in{vllm['input_len']}-out{vllm['output_len']}-c{vllm['max_concurrency']}"

    base = entry(report, "org/m (vllm bench serve)")
    if base:
        check("baseline", report["baseline"], "org/m")
        check("vllm settings.benchmark_tool", base["settings"]["benchmark_tool"], "vllm bench serve")
        check("vllm definition", base["speed"][key]["definition"], "vllm")

    a = entry(report, "org/m (aiperf " + aiperf["aiperf_version"] + ")")
    if a:
        s = a["settings"]
        check("aiperf tool", (s["benchmark_tool"], s["benchmark_tool_version"], s["backend"], s["endpoint"]),
              ("aiperf", aiperf["aiperf_version"], aiperf["input_config"]["endpoint"]["type"],
               aiperf["input_config"]["endpoint"]["urls"][0]))
        sc = a["speed"].get(key)
        if sc is None:
            problems.append(f"aiperf: no scenario {key} (has {list(a['speed'])})")
        else:
            check("aiperf definition", sc["definition"], "aiperf")
            check("aiperf median", sc["median"], aiperf["output_token_throughput"]["avg"])
            # AIPerf and vLLM both divide output tokens by the benchmark's duration: a ratio
            check("aiperf ratio", sc["ratio"], aiperf["output_token_throughput"]["avg"] / vllm["output_throughput"])
            check("aiperf incomparable", sc["incomparable"], None)
            check("aiperf successful", sc["successful_requests"], int(aiperf["request_count"]["avg"]))
            check("aiperf failed", sc["failed_requests"], int(aiperf["error_request_count"]["avg"]))
            prof = [r for r in records if r["metadata"].get("credit_phase") == "profiling" and not r.get("error")]
            ttft = [r["metrics"]["time_to_first_token"]["value"] for r in prof]
            lat = sc["latency"]["ttft_ms"]
            check("aiperf ttft source", lat["source"], "requests")
            check("aiperf ttft n", lat["n"], len(ttft))
            for p in (50, 90, 99):
                check(f"aiperf ttft p{p}", lat[f"p{p}"], pct(ttft, p))
                # the records are the export's requests: its own percentiles agree
                check(f"aiperf ttft p{p} = the export's", lat[f"p{p}"], aiperf["time_to_first_token"][f"p{p}"])
            itl = [r["metrics"]["inter_token_latency"]["value"] for r in prof]
            check("aiperf itl p50", sc["latency"]["itl_ms"]["p50"], pct(itl, 50))
            check("aiperf tpot (AIPerf reports none)", sc["latency"]["tpot_ms"], None)
            check("aiperf ttft ratio is computed", sc["latency_ratio"]["ttft_p99"]["incomparable"], None)

    b = guide["benchmarks"][0]
    g = entry(report, "org/m (guidellm " + guide["metadata"]["guidellm_version"] + ")")
    if g:
        check("guidellm status", g["status"], "incomparable")
        sc = g["speed"].get(key)
        if sc is None:
            problems.append(f"guidellm: no scenario {key} (has {list(g['speed'])})")
        else:
            check("guidellm definition", sc["definition"], "guidellm")
            check("guidellm median", sc["median"], b["metrics"]["output_tokens_per_second"]["successful"]["mean"])
            check("guidellm ratio (throughput defined otherwise)", sc["ratio"], None)
            inc = sc["incomparable"] or ""
            if "GuideLLM 0.4+'s output throughput" not in inc or "vLLM bench serve's is" not in inc:
                problems.append(f"guidellm incomparable does not name both definitions: {inc!r}")
            totals = b["metrics"]["request_totals"]
            check("guidellm successful", sc["successful_requests"], totals["successful"])
            check("guidellm incomplete", sc["incomplete_requests"], totals["incomplete"])
            check("guidellm failed", sc["failed_requests"], totals["errored"])
            recs = b["requests"]["successful"]
            tpot = [r["time_per_output_token_ms"] for r in recs]
            check("guidellm tpot source", sc["latency"]["tpot_ms"]["source"], "requests")
            check("guidellm tpot p50 (GuideLLM's own)", sc["latency"]["tpot_ms"]["p50"], pct(tpot, 50))
            e2e = [r["request_latency"] * 1000 for r in recs]
            check("guidellm e2el p99", sc["latency"]["e2el_ms"]["p99"], pct(e2e, 99))
            lr = sc["latency_ratio"]
            check("guidellm ttft_p99 ratio computed (TTFT defined alike)", lr["ttft_p99"]["incomparable"], None)
            if lr["ttft_p99"]["ratio"] is None:
                problems.append("guidellm: ttft_p99 ratio missing")
            check("guidellm tpot_p50 ratio (defined otherwise)", lr["tpot_p50"]["ratio"], None)
            if "GuideLLM 0.4+'s TPOT" not in (lr["tpot_p50"]["incomparable"] or ""):
                problems.append(f"guidellm tpot_p50 incomparable: {lr['tpot_p50']['incomparable']!r}")

    mp = entry(report, "mlperf-m")
    if mp:
        summary = open(os.path.join(export, "mlperf-m", "Server", "performance", "run_1",
                                    "mlperf_log_summary.txt")).read()
        check("mlperf status", mp["status"], "partial")
        reason = mp["status_reason"] or ""
        for needle in ("INVALID", "Min duration satisfied : NO"):
            if needle not in reason:
                problems.append(f"mlperf status_reason lacks {needle!r}: {reason!r}")
        line = {l.split(":")[0].strip(): l.split(":", 1)[1].strip() for l in summary.splitlines() if ":" in l}
        tps, sps = float(line["Completed tokens per second"]), float(line["Completed samples per second"])
        mkey = f"in?-out{round(tps / sps)}-r{line['target_qps']}"
        sc = mp["speed"].get(mkey)
        if sc is None:
            problems.append(f"mlperf: no scenario {mkey} (has {list(mp['speed'])})")
        else:
            check("mlperf median", sc["median"], tps)
            check("mlperf ttft p99", sc["latency"]["ttft_ms"]["p99"],
                  float(line["99.00 percentile first token latency (ns)"]) / 1e6)
            check("mlperf definition", sc["definition"], "mlperf")


def eval_scores(path):
    """Per-sample scores of an .eval (reductions, else summaries averaged over epochs),
    and the accuracy its header claims."""
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        header = json.loads(z.read("header.json"))
        value = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}
        if "reductions.json" in names:
            red = json.loads(z.read("reductions.json"))[0]
            scores = {str(s["sample_id"]): float(s["value"]) for s in red["samples"]}
        else:
            acc = {}
            for s in json.loads(z.read("summaries.json")):
                acc.setdefault(str(s["id"]), []).append(value[s["scores"]["match"]["value"]])
            scores = {k: sum(v) / len(v) for k, v in acc.items()}
    claimed = header["results"]["scores"][0]["metrics"]["accuracy"]["value"]
    return header["eval"]["model"], header["eval"]["task"], scores, claimed


def inspect_pairing(report, export):
    base = eval_scores(os.path.join(export, "base-model", "2026-03-01T10-00-00_toy_AAA.eval"))
    other = eval_scores(os.path.join(export, "other-model", "2026-03-01T10-00-00_toy_BBB.eval"))
    check("baseline", report["baseline"], base[0])
    for model, task, scores, claimed in (base, other):
        m = entry(report, model)
        if not m:
            continue
        check(f"{model} tool", m["settings"]["benchmark_tool"], "inspect_ai")
        acc = m["accuracy"].get(task)
        if acc is None:
            problems.append(f"{model}: no benchmark {task}")
            continue
        check(f"{model} n", acc["n"], len(scores))
        check(f"{model} score", acc["score"], sum(scores.values()) / len(scores))
        check(f"{model} claimed", acc["claimed_accuracy"], claimed)
    m = entry(report, other[0])
    if m and other[1] in m["accuracy"]:
        common = sorted(set(base[2]) & set(other[2]))
        delta = sum(other[2][i] - base[2][i] for i in common) / len(common)
        check("paired delta", m["accuracy"][other[1]]["delta"], delta)


def main():
    out, export = sys.argv[1], sys.argv[2]
    report = json.load(open(os.path.join(out, "report.json")))
    if os.path.isdir(os.path.join(export, "aiperf")):
        other_tools(report, export)
    else:
        inspect_pairing(report, export)
    for p in problems:
        print("check_other_tools: " + p, file=sys.stderr)
    if problems:
        return 1
    print("other tools: entries, definitions, figures and comparisons as the input files say")
    return 0


if __name__ == "__main__":
    sys.exit(main())
