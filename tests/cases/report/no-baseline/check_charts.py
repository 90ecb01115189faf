#!/usr/bin/env python3
"""Independent check of the charts of a sweep without a baseline (not made by the tool's code).

check_charts.py OUT_DIR [--with-baseline]

Without a baseline, charts/accuracy and charts/speed must be written (PNG and SVG), report.html
must inline both, and the delta, ratio and trade-off charts must not be written. Each SVG's
description must hold the values recomputed here from report.json: the Wilson interval of each
score from its n and correct at the report's confidence, and each scenario's median output
throughput with the lowest and highest of its runs. With --with-baseline (the same export with
one named) neither chart may be written."""
import json
import math
import os
import re
import statistics
import sys

out = sys.argv[1]
with_baseline = "--with-baseline" in sys.argv[2:]
failures = []


def exists(name):
    return os.path.exists(os.path.join(out, "charts", name))


absolute = ["accuracy.png", "accuracy.svg", "speed.png", "speed.svg"]
if with_baseline:
    for f in absolute:
        if exists(f):
            failures.append(f"charts/{f} written though a baseline was named")
    if not exists("accuracy_delta.svg"):
        failures.append("charts/accuracy_delta.svg not written with a baseline")
    print("absolute charts: " + ("; ".join(failures) if failures else "none with a baseline"))
    sys.exit(1 if failures else 0)

for f in absolute:
    if not exists(f) or os.path.getsize(os.path.join(out, "charts", f)) < 100:
        failures.append(f"charts/{f} not written")
for f in ["accuracy_delta.svg", "speed_ratio.svg", "tradeoff.svg"]:
    if exists(f):
        failures.append(f"charts/{f} written without a baseline")

html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
for name in ["accuracy", "speed"]:
    m = re.search(r'<figure id="chart-%s".*?</figure>' % name, html, re.S)
    if not m or "<svg" not in m.group(0):
        failures.append(f"report.html does not inline the {name} chart")

report = json.load(open(os.path.join(out, "report.json"), encoding="utf-8"))
conf = report["settings"]["confidence"]
z = statistics.NormalDist().inv_cdf(1 - (1 - conf) / 2)


def desc(name):
    if not exists(name):
        return ""
    svg = open(os.path.join(out, "charts", name), encoding="utf-8").read()
    m = re.search(r"<desc>(.*?)</desc>", svg, re.S)
    return m.group(1) if m else ""


def wilson(correct, n):
    p = correct / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def tok_s(v):
    return f"{round(v):,} tok/s" if v >= 100 else f"{v:.1f} tok/s"


acc = desc("accuracy.svg")
speed = desc("speed.svg")
checked = 0
for m in report["models"]:
    if m["status"] == "failed":
        if m["id"] in acc or m["id"] in speed:
            failures.append(f"failed model {m['id']} drawn")
        continue
    for bench, a in (m.get("accuracy") or {}).items():
        lo, hi = wilson(a["correct"], a["n"])
        want = f"{m['label']} {100 * a['score']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] n {a['n']:,};"
        checked += 1
        if want not in acc:
            failures.append(f"accuracy chart lacks '{want}'")
    for sc in (m.get("speed") or {}).values():
        runs = [r for r in sc["runs"] if r is not None]
        want = tok_s(sc["median"])
        if len(set(runs)) > 1:
            want += f" (runs {tok_s(min(runs))} to {tok_s(max(runs))})"
        checked += 1
        line = next((l for l in speed.split("\n") if l.startswith(m["label"] + ":")), "")
        if want not in line:
            failures.append(f"speed chart's line for {m['label']} lacks '{want}': {line!r}")

if checked == 0:
    failures.append("no value checked")
print("absolute charts: " + ("; ".join(failures) if failures else f"written, inlined, {checked} values recomputed"))
sys.exit(1 if failures else 0)
