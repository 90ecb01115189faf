#!/usr/bin/env python3
"""Independent check of the golden case report/per-request (issue 32).

Usage: /usr/bin/python3 tests/check_per_request.py OUT_DIR EXPORT_DIR TTFT_MS TPOT_MS

Everything expected is derived here from the export's own files (read with
Python's json, which takes SGLang's Infinity as it is) with numpy and scipy,
not from the tool: the scenario keys, the pooled per-request latencies
(p50/p90/p99 by numpy's default linear percentile, failed requests left
out, E2EL = TTFT + sum(ITLs), TPOT over requests of more than one token),
failed requests, goodput under the SLO, the percentiles' order-statistic
intervals (scipy.stats.binom.ppf) and the SLO attainment with Wilson's
interval (issue 43), the speed ranks (a numpy bootstrap of the runs),
Welch's t interval on log
throughputs (scipy.stats.t), the latency ratios (numpy's index bootstrap,
within Monte Carlo error), the SLO capacity per load axis; then that
report.json, results.csv, results.md and the charts carry them.
"""
import csv
import json
import math
import os
import sys

import numpy as np
import scipy.stats as st

out, export, ttft_bound, tpot_bound = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
report = json.load(open(os.path.join(out, "report.json")))
conf = report["settings"]["confidence"]
problems = []


def close(what, got, want, rel=1e-9, abs_tol=0.0):
    if want is None or got is None:
        if got != want:
            problems.append("%s: %r, expected %r" % (what, got, want))
    elif abs(got - want) > max(rel * abs(want), abs_tol):
        problems.append("%s: %r, expected %r" % (what, got, want))


def same(what, got, want):
    if got != want:
        problems.append("%s: %r, expected %r" % (what, got, want))


def fmt(x):
    return str(int(x)) if float(x) == int(x) else repr(float(x))


def key_of(run):
    """The scenario key (docs/methods.md, Speed)."""
    if run.get("input_len") is not None:
        i, o = int(run["input_len"]), int(run["output_len"])
    else:  # SGLang, random dataset
        i, o = int(run["random_input_len"]), int(run["random_output_len"])
    rate = run["request_rate"]
    rate = float("inf") if rate in ("inf", float("inf")) else float(rate)
    k = "in%d-out%d" % (i, o)
    if run.get("max_concurrency") is not None:
        return k + "-c%d" % run["max_concurrency"]
    if math.isfinite(rate):
        return k + "-r" + fmt(rate)
    n = run.get("num_prompts") or run["completed"] + sum(1 for e in run["errors"] if e)
    return k + "-n%d" % n


# ---- the export, as Python reads it ------------------------------------------
scen = {}  # model id -> key -> list of runs
for d in sorted(os.listdir(export)):
    mdir = os.path.join(export, d)
    if not os.path.isdir(mdir):
        continue
    for f in sorted(os.listdir(mdir)):
        for line in open(os.path.join(mdir, f)):
            if not line.strip():
                continue
            run = json.loads(line)
            mid = run.get("model_id") or d  # SGLang names no model: the entry is its directory
            scen.setdefault(mid, {}).setdefault(key_of(run), []).append(run)
base_id = report["baseline"]
models = {m["id"]: m for m in report["models"]}
same("entries", sorted(models), sorted(scen))


def pooled(runs):
    ttft, tpot, e2el, itl, good, failed = [], [], [], [], 0, 0
    for r in runs:
        for i, err in enumerate(r["errors"]):
            if err:
                failed += 1
                continue
            s = 0.0
            for x in r["itls"][i]:
                s += x
            e = r["ttfts"][i] + s
            n = r["output_lens"][i]
            t = (e - r["ttfts"][i]) / (n - 1) if n > 1 else None
            ttft.append(r["ttfts"][i])
            e2el.append(e)
            itl += r["itls"][i]
            if t is not None:
                tpot.append(t)
            if r["ttfts"][i] <= ttft_bound / 1000 and (t or 0.0) <= tpot_bound / 1000:
                good += 1
    return {"ttft": ttft, "tpot": tpot, "itl": itl, "e2el": e2el, "good": good, "failed": failed,
            "n": len(ttft), "duration": sum(r["duration"] for r in runs)}


def welch(a, b):
    la, lb = np.log(a), np.log(b)
    d = la.mean() - lb.mean()
    if len(a) < 2 or len(b) < 2:
        return math.exp(d), None, None
    va, vb = la.var(ddof=1) / len(a), lb.var(ddof=1) / len(b)
    if va + vb == 0:
        return math.exp(d), math.exp(d), math.exp(d)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    t = st.t.ppf((1 + conf) / 2, df)
    se = math.sqrt(va + vb)
    return math.exp(d), math.exp(d - t * se), math.exp(d + t * se)


def bootstrap(a, b, p, seed):
    rng = np.random.default_rng(seed)
    a, b = np.sort(a), np.sort(b)
    ra = np.percentile(a[rng.integers(0, len(a), size=(10000, len(a)))], p, axis=1)
    rb = np.percentile(b[rng.integers(0, len(b), size=(10000, len(b)))], p, axis=1)
    return np.percentile(ra / rb, [100 * (1 - conf) / 2, 100 * (1 + conf) / 2])


p99 = {}  # (model, key) -> (ttft, tpot) p99 in ms
for mid, keys in scen.items():
    m = models[mid]
    for key, runs in keys.items():
        what = "%s %s" % (mid, key)
        s = m["speed"].get(key)
        if s is None:
            problems.append("%s: no scenario in report.json" % what)
            continue
        pool = pooled(runs)
        same(what + " failed_requests", s["failed_requests"], pool["failed"])
        for metric in ("ttft", "tpot", "itl", "e2el"):
            lat = s["latency"][metric + "_ms"]
            same(what + " " + metric + " source", lat["source"], "requests")
            same(what + " " + metric + " n", lat["n"], len(pool["tpot"]) if metric == "tpot" else pool["n"])
            for q in (50, 90, 99):
                close("%s %s p%d" % (what, metric, q), lat["p%d" % q], float(np.percentile(pool[metric], q)) * 1000,
                      1e-9)
                # issue 43: the distribution-free interval, [x_(a), x_(b+1)] with a, b scipy's binomial
                # quantiles at (1 -+ C)/2; none when b + 1 > n
                vals = np.sort(np.array(pool[metric]))
                n = len(vals)
                a = int(st.binom.ppf((1 - conf) / 2, n, q / 100))
                b = int(st.binom.ppf((1 + conf) / 2, n, q / 100))
                ok = a >= 1 and b + 1 <= n
                close("%s %s p%d_ci_low" % (what, metric, q), lat["p%d_ci_low" % q],
                      float(vals[a - 1]) * 1000 if ok else None, 1e-12)
                close("%s %s p%d_ci_high" % (what, metric, q), lat["p%d_ci_high" % q],
                      float(vals[b]) * 1000 if ok else None, 1e-12)
            same(what + " " + metric + " n_values", lat["n_values"], len(pool[metric]))
        close(what + " goodput", s["goodput"], pool["good"] / pool["duration"])
        # SLO attainment: good over every request sent (a failed one is not good), Wilson's interval
        sent = pool["n"] + pool["failed"]
        k, z = pool["good"], st.norm.ppf((1 + conf) / 2)
        ph, den = k / sent, 1 + z * z / sent
        mid_w = (ph + z * z / (2 * sent)) / den
        half = z * math.sqrt(ph * (1 - ph) / sent + z * z / (4 * sent * sent)) / den
        close(what + " slo attainment", s["slo"]["attainment"], k / sent, 1e-12)
        close(what + " slo attainment_ci_low", s["slo"]["attainment_ci_low"], max(0.0, mid_w - half), 1e-9, 1e-12)
        close(what + " slo attainment_ci_high", s["slo"]["attainment_ci_high"], min(1.0, mid_w + half), 1e-9, 1e-12)
        p99[(mid, key)] = (float(np.percentile(pool["ttft"], 99)) * 1000, float(np.percentile(pool["tpot"], 99)) * 1000)
        # speed: the ratio of medians, Welch's interval on the logs
        base_runs = scen[base_id].get(key)
        if base_runs is None:
            same(what + " ratio", s["ratio"], None)
            continue
        tp = [r["output_throughput"] for r in runs]
        btp = [r["output_throughput"] for r in base_runs]
        close(what + " ratio", s["ratio"], float(np.median(tp)) / float(np.median(btp)))
        g, lo, hi = welch(np.array(tp), np.array(btp))
        close(what + " ratio_gmean", s["ratio_gmean"], g)
        close(what + " ratio_ci_low", s["ratio_ci_low"], lo, 1e-7)
        close(what + " ratio_ci_high", s["ratio_ci_high"], hi, 1e-7)
        same(what + " ratio_ci_method", s["ratio_ci_method"], "welch-log" if lo is not None else None)
        same(what + " ratio_ci_note given", s["ratio_ci_note"] is not None, lo is None)
        if lo is not None:
            same(what + " within_noise", s["within_noise"], lo <= 1 <= hi)
        else:
            rlo, rhi = min(tp) / max(btp), max(tp) / min(btp)
            same(what + " within_noise", s["within_noise"],
                 None if len(tp) < 2 and len(btp) < 2 else rlo <= 1 <= rhi)
        # latency ratios: the point exactly, the interval within Monte Carlo error of numpy's
        # (the baseline's own row too: 1, with the interval its noise gives)
        bpool = pooled(base_runs)
        for name, metric, q in (("ttft_p99", "ttft", 99), ("tpot_p50", "tpot", 50)):
            lr = s["latency_ratio"][name]
            want = float(np.percentile(pool[metric], q)) / float(np.percentile(bpool[metric], q))
            close("%s %s ratio" % (what, name), lr["ratio"], want, 1e-12)
            nlo, nhi = bootstrap(pool[metric], bpool[metric], q, 32)
            width = nhi - nlo
            close("%s %s ci_low (Monte Carlo)" % (what, name), lr["ci_low"], nlo, 0, 0.12 * width + 1e-9)
            close("%s %s ci_high (Monte Carlo)" % (what, name), lr["ci_high"], nhi, 0, 0.12 * width + 1e-9)

# ---- SLO capacity ---------------------------------------------------------------
shapes = set()
for mid, keys in scen.items():
    axes = {}
    for key in keys:
        body, load = key.rsplit("-", 1)
        axis = "concurrency" if load[0] == "c" else "request_rate"
        value = float(load[1:]) if load[0] in "cr" else float("inf")
        ok = p99[(mid, key)][0] <= ttft_bound and p99[(mid, key)][1] <= tpot_bound
        axes.setdefault((axis, body), []).append((value, ok))
    want = []
    for (axis, body), loads in sorted(axes.items()):
        if len({v for v, _ in loads}) < 2:
            continue
        oks = [v for v, ok in loads if ok]
        fails = [v for v, ok in loads if not ok]
        i, o = body[2:].split("-out")
        show = lambda v: None if v is None else ("inf" if v == float("inf") else v)
        want.append({"axis": axis, "input_len": int(i), "output_len": int(o),
                     "highest_ok": show(max(oks) if oks else None), "lowest_failing": show(min(fails) if fails else None),
                     "percentile": 99})
        shapes.add("inside" if oks and fails else "top" if oks else "below")
    got = [{k: c[k] for k in ("axis", "input_len", "output_len", "highest_ok", "lowest_failing", "percentile")}
           for c in models[mid]["slo_capacity"]]
    same(mid + " slo_capacity", got, want)
same("capacity inside, at the top of and below the sweep", sorted(shapes), ["below", "inside", "top"])

# ---- what the case must cover ---------------------------------------------------
runs_per = sorted({len(runs) for keys in scen.values() for runs in keys.values()})
same("1-run and 2-run scenarios", runs_per, [1, 2])
same("a rate sweep with inf", any(k.endswith("-n24") for k in scen[base_id]) and any("-r" in k for k in scen[base_id]),
     True)

# issue 43: speed ranks per scenario by median output throughput (1 the
# fastest, ties sharing the lower rank), the interval a numpy bootstrap of
# each entry's runs within it (20,000 draws, an independent stream):
# within one rank of the tool's.
def competition(values):
    return [1 + sum(1 for w in values if w > v) for v in values]


keys = sorted({k for keys_ in scen.values() for k in keys_})
rng = np.random.default_rng(43)
for key in keys:
    ids = [mid for mid in sorted(scen) if key in scen[mid]]
    runs = [np.array([r["output_throughput"] for r in scen[mid][key]]) for mid in ids]
    full = competition([float(np.median(r)) for r in runs])
    draws = np.empty((20000, len(ids)))
    for j, r in enumerate(runs):
        draws[:, j] = np.median(r[rng.integers(0, len(r), size=(20000, len(r)))], axis=1)
    ranks = 1 + (draws[:, None, :] > draws[:, :, None]).sum(axis=2)
    lo = np.percentile(ranks, 100 * (1 - conf) / 2, axis=0)
    hi = np.percentile(ranks, 100 * (1 + conf) / 2, axis=0)
    for j, mid in enumerate(ids):
        sp = models[mid]["speed"][key]
        same("%s %s rank" % (mid, key), sp["rank"], full[j])
        if abs(sp["rank_ci_low"] - lo[j]) > 1 or abs(sp["rank_ci_high"] - hi[j]) > 1:
            problems.append("%s %s rank interval [%g, %g], the reference's [%g, %g]"
                            % (mid, key, sp["rank_ci_low"], sp["rank_ci_high"], lo[j], hi[j]))

same("failed requests", any(s["failed_requests"] for m in models.values() for s in m["speed"].values()), True)
same("settings.slo", report["settings"]["slo"], {"ttft_ms": ttft_bound, "tpot_ms": tpot_bound, "e2el_ms": None})

# ---- the other outputs carry the same figures -----------------------------------------
rows = list(csv.DictReader(open(os.path.join(out, "results.csv"), newline="")))
for r in rows:
    if r["section"] != "speed":
        continue
    s = next(m for m in report["models"] if m["id"] == r["model"])["speed"][r["name"]]
    for metric in ("ttft", "tpot", "itl", "e2el"):
        for q in (50, 90, 99):
            close("results.csv %s %s p%d_%s_ms" % (r["model"], r["name"], q, metric),
                  float(r["p%d_%s_ms" % (q, metric)]), s["latency"][metric + "_ms"]["p%d" % q], 1e-12)
    same("results.csv %s %s failed_requests" % (r["model"], r["name"]), int(r["failed_requests"]),
         s["failed_requests"])
md = open(os.path.join(out, "results.md")).read()
for heading in ("### Time to first token", "### Time per output token", "### Inter-token latency",
                "### End-to-end latency", "### SLO capacity", "### Goodput"):
    same("results.md has " + heading, heading in md, True)
same("latency chart", os.path.exists(os.path.join(out, "charts", "latency.svg")), True)

for p in problems:
    print("check_per_request: " + p)
print("check_per_request: %d problem(s)" % len(problems))
sys.exit(1 if problems else 0)
