#!/usr/bin/env python3
"""Cross-check sweep-report's intervals against the Python peer's (an
independent implementation: numpy's multinomial sampler, its own random
stream). usage: check_intervals.py OUT/report.json PEER.json
Deltas must agree to 1e-12; interval endpoints only to Monte Carlo error
(two streams of 10,000 resamples: within 0.01, a few lattice steps, or one
lattice step 1/n where n is smaller than 100 items).
Prints the largest differences; exits 1 on a mismatch."""
import json
import sys

report = json.load(open(sys.argv[1], encoding="utf-8"))
peer = {(r["model"], r["benchmark"]): r for r in json.load(open(sys.argv[2], encoding="utf-8"))}
seen = dmax = emax = worst = 0.0
ends = []
for m in report["models"]:
    for bench, acc in (m.get("accuracy") or {}).items():
        p = peer.get((m["id"], bench))
        if p is None or acc.get("ci_low") is None:
            continue
        seen += 1
        dmax = max(dmax, abs(acc["delta"] - p["delta"]))
        step = max(0.01, 1.0 / acc["n_paired"] + 1e-12) if acc.get("n_paired") else 0.01
        for f in ("ci_low", "ci_high"):
            ends.append(abs(acc[f] - p[f]))
            worst = max(worst, abs(acc[f] - p[f]) / step)
ends.sort()
emax = ends[-1] if ends else float("nan")
med = ends[len(ends) // 2] if ends else float("nan")
print("check: %d of %d comparisons; max |delta diff| %.3g; interval endpoints |diff| median %.5f, max %.5f"
      % (seen, len(peer), dmax, med, emax))
ok = seen == len(peer) and dmax <= 1e-12 and worst <= 1.0
print("check: ok" if ok else "check: MISMATCH")
sys.exit(0 if ok else 1)
