#!/usr/bin/env python3
"""Independent check of the issue-12 figures in a report.json, recomputed in
Python from other fields of the same report (not by the tool's code):
minimum detectable effect from the discordant counts, Holm from the raw
McNemar p-values, Bonferroni levels, equivalence from the TOST interval and
the margin, verdict flips, and the speed run spread from the runs."""
import json
import math
import statistics
import sys

report = json.load(open(sys.argv[1]))
st = report["settings"]
conf = st["confidence"]
margin = st["equivalence_margin"]
z = statistics.NormalDist().inv_cdf
failures = []


def close(what, got, want, tol=1e-9):
    if got is None or want is None:
        if got is not want:
            failures.append(f"{what}: got {got!r}, want {want!r}")
    elif abs(got - want) > tol * max(1.0, abs(want)):
        failures.append(f"{what}: got {got!r}, want {want!r}")


def same(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


def verdict(lo, hi):
    if lo <= 0 <= hi:
        return "no measured difference"
    return "higher" if lo > 0 else "lower"


models = report["models"]
families = {}
for m in models:
    for bench, a in m["accuracy"].items():
        if a["n_paired"] is not None and a["n_paired"] >= st["min_paired_items"]:
            families.setdefault(bench, []).append((m["id"], a))

for bench, fam in families.items():
    k = len(fam)
    joint = 1 - (1 - conf) / k
    # Holm over the family's raw p-values.
    ps = sorted((a["mcnemar_p"], mid) for mid, a in fam if a["mcnemar_p"] is not None)
    running, holm = 0.0, {}
    for j, (p, mid) in enumerate(ps, start=1):
        running = max(running, min(1.0, (len(ps) - j + 1) * p))
        holm[mid] = running
    for mid, a in fam:
        what = f"{mid} {bench}"
        level = joint if st["simultaneous"] else conf
        close(what + " ci_level", a["ci_level"], level, 1e-12)
        close(what + " other_ci_level", a["other_ci_level"], conf if st["simultaneous"] else joint, 1e-12)
        close(what + " mcnemar_p_holm", a["mcnemar_p_holm"], holm.get(mid))
        # 0/1 scores: d is +1 (b items), -1 (c items), 0 otherwise.
        n, b, c = a["n_paired"], a["flipped_better"], a["flipped_worse"]
        if a["binary"]:
            mean = (b - c) / n
            var = (b + c - n * mean * mean) / (n - 1)
            want = (z(1 - (1 - level) / 2) + z(0.8)) * math.sqrt(var / n) if var > 0 else None
            close(what + " mde", a["mde"], want)
        same(what + " verdict", a["verdict"], verdict(a["ci_low"], a["ci_high"]))
        same(what + " verdict_flips", a["verdict_flips"],
             verdict(a["ci_low"], a["ci_high"]) != verdict(a["other_ci_low"], a["other_ci_high"]))
        # Same resamples: the TOST (lower) level lies inside the reported one.
        if not (a["ci_low"] <= a["tost_ci_low"] <= a["tost_ci_high"] <= a["ci_high"]):
            failures.append(f"{what}: TOST interval not inside the reported one")
        want_eq = None if margin is None else (
            -margin / 100 < a["tost_ci_low"] and a["tost_ci_high"] < margin / 100)
        same(what + " equivalent", a["equivalent"], want_eq)

base = next(m for m in models if m["id"] == report["baseline"])
for m in models:
    for key, s in m["speed"].items():
        what = f"{m['id']} {key}"
        runs = [r for r in s["runs"] if r is not None]
        close(what + " cv", s["cv"], statistics.stdev(runs) / statistics.mean(runs) if len(runs) > 1 else None)
        same(what + " needs_more_runs", s["needs_more_runs"], s["cv"] is not None and s["cv"] > st["speed_cv_limit"])
        bs = base["speed"].get(key)
        if bs is None or s["ratio"] is None:
            same(what + " ratio_low", s["ratio_low"], None)
            continue
        bruns = [r for r in bs["runs"] if r is not None]
        close(what + " ratio_low", s["ratio_low"], min(runs) / max(bruns))
        close(what + " ratio_high", s["ratio_high"], max(runs) / min(bruns))
        # issue 32: the Welch-log interval decides with 2 runs or more a side, the range otherwise
        gmean = math.exp(statistics.mean(map(math.log, runs)) - statistics.mean(map(math.log, bruns)))
        close(what + " ratio_gmean", s["ratio_gmean"], gmean)
        if len(runs) >= 2 and len(bruns) >= 2:
            same(what + " ratio_ci_method", s["ratio_ci_method"], "welch-log")
            # symmetric about the geometric mean on the log scale
            close(what + " log interval symmetric", math.log(s["ratio_ci_high"]) - math.log(gmean),
                  math.log(gmean) - math.log(s["ratio_ci_low"]))
            want = s["ratio_ci_low"] <= 1 <= s["ratio_ci_high"]
        else:
            same(what + " ratio_ci_method", s["ratio_ci_method"], None)
            same(what + " ratio_ci_note is given", s["ratio_ci_note"] is not None, True)
            want = None if len(runs) < 2 and len(bruns) < 2 else s["ratio_low"] <= 1 <= s["ratio_high"]
        same(what + " within_noise", s["within_noise"], want)

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("issue-12 figures: all recomputed")
