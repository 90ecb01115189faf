#!/usr/bin/env python3
"""Independent check of the golden cases report/leaderboard-stats and
report/leaderboard-cluster-key (issue 43).

Usage: /usr/bin/python3 tests/check_leaderboard.py OUT_DIR EXPORT_DIR CLUSTER_KEY MDE_TARGET

Everything expected is derived here from the export's own files (Python's
json and csv, numpy, scipy), not from the tool:

- each score's cluster-robust SE, exactly Miller's sandwich
  sqrt(sum_c (sum_{i in c} (x_i - mean))^2) / n over the doc field
  CLUSTER_KEY (the lm-eval samples; the plain scores file has none), the
  clusters' count, and delta's over the paired differences;
- items_needed = ceil((z(1 - a/2) + z(0.8))^2 var(d) / (MDE_TARGET/100)^2);
- McNemar's exact p (scipy.stats.binomtest), Holm's and
  Benjamini-Hochberg's adjustments over each benchmark's comparisons;
- ranks on the full data (1 + entries strictly higher) and their intervals
  against a numpy joint bootstrap of the items at 100,000 draws (within one
  rank, the issue's tolerance), and ties sharing ranks in every draw;
- the clustered paired interval against a numpy cluster bootstrap at
  100,000 draws: where each end lies among the reference's draws is within
  3 Monte Carlo standard errors of its level (both runs' binomial error);
- the same for the speed ranks, each entry's runs resampled within it.
"""
import csv
import json
import math
import os
import sys

import numpy as np
import scipy.stats as st

out, export, key, target = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
report = json.load(open(os.path.join(out, "report.json")))
conf = report["settings"]["confidence"]
resamples = report["settings"]["resamples"]
models = {m["id"]: m for m in report["models"]}
base = report["baseline"]
problems = []


def close(what, got, want, rel=1e-9, abs_tol=1e-12):
    if want is None or got is None:
        if got != want:
            problems.append("%s: %r, expected %r" % (what, got, want))
    elif abs(got - want) > max(rel * abs(want), abs_tol):
        problems.append("%s: %r, expected %r" % (what, got, want))


def same(what, got, want):
    if got != want:
        problems.append("%s: %r, expected %r" % (what, got, want))


# ---- the export --------------------------------------------------------------
items = {}  # entry -> benchmark -> (ids, scores, clusters or None)
for d in sorted(os.listdir(export)):
    path = os.path.join(export, d)
    if not os.path.isdir(path):
        continue
    mid = "org/" + d
    for f in sorted(os.listdir(path)):
        p = os.path.join(path, f)
        if f.startswith("samples_mmlu_mix"):
            rows = [json.loads(line) for line in open(p) if line.strip()]
            items.setdefault(mid, {})["mmlu_mix"] = ([str(r["doc_id"]) for r in rows], [r["acc"] for r in rows],
                                                     [str(r["doc"][key]) for r in rows])
        elif f == "arith.scores.csv":
            rows = list(csv.DictReader(open(p)))
            items.setdefault(mid, {})["arith"] = ([r["item_id"] for r in rows], [float(r["score"]) for r in rows],
                                                  None)
same("entries", sorted(models), sorted(items))


def clustered_se(x, clusters):
    x = np.asarray(x, dtype=float)
    mean = x.mean()
    sums = {}
    for v, c in zip(x, clusters):
        sums[c] = sums.get(c, 0.0) + (v - mean)
    return math.sqrt(sum(s * s for s in sums.values())) / len(x)


def holm(p):
    m, order, adj, run = len(p), sorted(range(len(p)), key=lambda i: p[i]), [0.0] * len(p), 0.0
    for r, i in enumerate(order):
        run = max(run, min(1.0, (m - r) * p[i]))
        adj[i] = run
    return adj


def bh(p):
    m, order, adj, run = len(p), sorted(range(len(p)), key=lambda i: p[i]), [0.0] * len(p), 1.0
    for r in range(m - 1, -1, -1):
        i = order[r]
        run = min(run, min(1.0, m * p[i] / (r + 1)))
        adj[i] = run
    return adj


def competition(values):
    return [1 + sum(1 for w in values if w > v) for v in values]


def within_mc_error(draws, q, got, b_tool):
    """Whether got may be the q-quantile of a b_tool-draw run: where it lies
    in the reference's draws (the share below it, and at or below it) is
    within 3 Monte Carlo standard errors of q, the binomial error of both
    runs' shares (the draws' distribution is a lattice: an end may sit on
    either side of a step)."""
    below, at_or_below = float(np.mean(draws < got)), float(np.mean(draws <= got))
    sigma = math.sqrt(q * (1 - q) * (1 / b_tool + 1 / len(draws)))
    return below <= q + 3 * sigma and at_or_below >= q - 3 * sigma, below, at_or_below, sigma


rng = np.random.default_rng(20261207)
z = st.norm.ppf(1 - (1 - conf) / 2) + st.norm.ppf(0.8)
for bench in ("mmlu_mix", "arith"):
    ids = sorted(items)
    fams = []
    # ---- each entry's own figures
    for mid in ids:
        a = models[mid]["accuracy"][bench]
        x_ids, x, cl = items[mid][bench]
        same("%s %s n" % (mid, bench), a["n"], len(x))
        if cl is None:
            same("%s %s n_clusters" % (mid, bench), a["n_clusters"], None)
            same("%s %s score_se_clustered" % (mid, bench), a["score_se_clustered"], None)
        else:
            same("%s %s n_clusters" % (mid, bench), a["n_clusters"], len(set(cl)))
            close("%s %s score_se_clustered" % (mid, bench), a["score_se_clustered"], clustered_se(x, cl))
    # ---- the paired figures against the baseline
    bx_ids, bx, _ = items[base][bench]
    bmap = dict(zip(bx_ids, bx))
    for mid in ids:
        if mid == base:
            continue
        a = models[mid]["accuracy"][bench]
        x_ids, x, cl = items[mid][bench]
        d = np.array([v - bmap[i] for i, v in zip(x_ids, x)])
        better, worse = int((d > 0).sum()), int((d < 0).sum())
        p = st.binomtest(better, better + worse, 0.5).pvalue if better + worse else 1.0
        close("%s %s mcnemar_p" % (mid, bench), a["mcnemar_p"], p, 1e-9)
        fams.append((mid, p))
        v = float(np.var(d, ddof=1))
        want = math.ceil(z * z * v / (target / 100) ** 2) if v > 0 else None
        same("%s %s items_needed" % (mid, bench), a["items_needed"], want)
        if cl is None:
            same("%s %s delta_se_clustered" % (mid, bench), a["delta_se_clustered"], None)
            same("%s %s resampling" % (mid, bench), a["resampling"], "multinomial")
            continue
        close("%s %s delta_se_clustered" % (mid, bench), a["delta_se_clustered"], clustered_se(d, cl))
        same("%s %s resampling" % (mid, bench), a["resampling"], "clusters")
        # the cluster bootstrap of delta, 100,000 draws
        names = sorted(set(cl))
        sums = np.array([sum(di for di, c in zip(d, cl) if c == nm) for nm in names])
        sizes = np.array([sum(1 for c in cl if c == nm) for nm in names], dtype=float)
        pick = rng.integers(0, len(names), size=(100000, len(names)))
        means = sums[pick].sum(axis=1) / sizes[pick].sum(axis=1)
        for q, got in (((1 - conf) / 2, a["ci_low"]), ((1 + conf) / 2, a["ci_high"])):
            ok, below, at, sigma = within_mc_error(means, q, got, resamples)
            if not ok:
                problems.append("%s %s clustered interval end %r lies at %g-%g of the reference's draws, not "
                                "within 3 x %g of %g" % (mid, bench, got, below, at, sigma, q))
    # ---- Holm and Benjamini-Hochberg over the benchmark's family
    ps = [p for _, p in fams]
    for (mid, _), h, b in zip(fams, holm(ps), bh(ps)):
        close("%s %s mcnemar_p_holm" % (mid, bench), models[mid]["accuracy"][bench]["mcnemar_p_holm"], h, 1e-9)
        close("%s %s mcnemar_p_bh" % (mid, bench), models[mid]["accuracy"][bench]["mcnemar_p_bh"], b, 1e-9)
    # ---- ranks: the full data, then a joint bootstrap of the items
    X = np.array([items[mid][bench][1] for mid in ids])  # entries x items, one item order (the files')
    same("%s one item order" % bench, all(items[mid][bench][0] == items[ids[0]][bench][0] for mid in ids), True)
    full = competition(list(X.mean(axis=1)))
    n = X.shape[1]
    ranks = []
    for _ in range(10):  # 10 x 10,000 draws
        w = rng.multinomial(n, [1 / n] * n, size=10000)
        s = w @ X.T  # draws x entries
        ranks.append(1 + (s[:, None, :] > s[:, :, None]).sum(axis=2))
    ranks = np.concatenate(ranks)
    lo = np.percentile(ranks, 100 * (1 - conf) / 2, axis=0)
    hi = np.percentile(ranks, 100 * (1 + conf) / 2, axis=0)
    for j, mid in enumerate(ids):
        a = models[mid]["accuracy"][bench]
        same("%s %s rank" % (mid, bench), a["rank"], full[j])
        if abs(a["rank_ci_low"] - lo[j]) > 1 or abs(a["rank_ci_high"] - hi[j]) > 1:
            problems.append("%s %s rank interval [%g, %g], the reference's [%g, %g]"
                            % (mid, bench, a["rank_ci_low"], a["rank_ci_high"], lo[j], hi[j]))
    # ties (org/m1 and org/m2 scored alike): the same rank and interval
    t1, t2 = models["org/m1"]["accuracy"][bench], models["org/m2"]["accuracy"][bench]
    same("%s tie" % bench, (t1["rank"], t1["rank_ci_low"], t1["rank_ci_high"]),
         (t2["rank"], t2["rank_ci_low"], t2["rank_ci_high"]))
    # the overview's top tier: the rank interval reaches 1
    for row in report["overview"]:
        b = row["benchmarks"].get(bench)
        if b and b["rank"] is not None:
            same("%s %s top_tier" % (row["id"], bench), b["top_tier"], b["rank_ci_low"] <= 1)

# ---- speed ranks: each entry's runs resampled within it
runs = {}
for d in sorted(os.listdir(export)):
    path = os.path.join(export, d)
    if os.path.isdir(path):
        for f in os.listdir(path):
            if f.startswith("vllm-"):
                runs["org/" + d] = np.array([json.loads(line)["output_throughput"] for line in open(os.path.join(path, f))
                                             if line.strip()])
ids = sorted(runs)
keyname = next(iter(models[ids[0]]["speed"]))
full = competition([float(np.median(runs[mid])) for mid in ids])
draws = np.empty((100000, len(ids)))
for j, mid in enumerate(ids):
    r = runs[mid]
    draws[:, j] = np.median(r[rng.integers(0, len(r), size=(100000, len(r)))], axis=1)
sr = 1 + (draws[:, None, :] > draws[:, :, None]).sum(axis=2)
lo = np.percentile(sr, 100 * (1 - conf) / 2, axis=0)
hi = np.percentile(sr, 100 * (1 + conf) / 2, axis=0)
for j, mid in enumerate(ids):
    s = models[mid]["speed"][keyname]
    same("%s speed rank" % mid, s["rank"], full[j])
    if abs(s["rank_ci_low"] - lo[j]) > 1 or abs(s["rank_ci_high"] - hi[j]) > 1:
        problems.append("%s speed rank interval [%g, %g], the reference's [%g, %g]"
                        % (mid, s["rank_ci_low"], s["rank_ci_high"], lo[j], hi[j]))

# ---- the other outputs carry the figures
csv_rows = list(csv.DictReader(open(os.path.join(out, "results.csv"), newline="")))
for col in ("rank", "rank_ci_low", "rank_ci_high", "score_se_clustered_fraction", "n_clusters", "mcnemar_p_bh",
            "delta_se_clustered_points", "items_needed"):
    same("results.csv column " + col, col in csv_rows[0], True)
md = open(os.path.join(out, "results.md")).read()
for words in ("Ranks by accuracy", "Ranks by speed", "Top tier", "rank 1 ("):
    same("results.md holds " + words, words in md, True)
html = open(os.path.join(out, "report.html")).read()
for words in ("Holm / BH", "Items needed", "Clustered SE", "Ranks by accuracy", "clusters</"):
    same("report.html holds " + words, words in html, True)

for p in problems:
    print("check_leaderboard: " + p)
print("check_leaderboard: %d problem(s)" % len(problems))
sys.exit(1 if problems else 0)
