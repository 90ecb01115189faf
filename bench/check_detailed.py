#!/usr/bin/env python3
"""The report of bench/gen_detailed.py's export against what the generator
computed from its own numbers (numpy's linear percentiles): every latency
percentile of the big run's scenario exact (to 1e-12 relative), its
requests pooled and failed, and report.sqlite's requests table holding every
request of it.

  python3 bench/check_detailed.py OUT_DIR EXPECTED.json
"""
import json
import os
import sqlite3
import sys

out, want = sys.argv[1], json.load(open(sys.argv[2]))
report = json.load(open(os.path.join(out, "report.json")))
sc = report["models"][0]["speed"][want["scenario"]]
problems = []
for metric in ("ttft_ms", "tpot_ms", "e2el_ms", "itl_ms"):
    lat = sc["latency"][metric]
    if lat["source"] != "requests":
        problems.append("%s from %s, not the requests" % (metric, lat["source"]))
    for p, v in want[metric].items():
        if abs(lat[p] - v) > 1e-12 * abs(v):
            problems.append("%s %s: %r, expected %r" % (metric, p, lat[p], v))
if sc["failed_requests"] != want["failed"]:
    problems.append("failed_requests %r, expected %r" % (sc["failed_requests"], want["failed"]))
if sc["latency"]["ttft_ms"]["n"] != want["requests"] - want["failed"]:
    problems.append("ttft n %r" % sc["latency"]["ttft_ms"]["n"])
db = os.path.join(out, "report.sqlite")
if os.path.exists(db):
    n = sqlite3.connect(db).execute("SELECT count(*) FROM requests WHERE scenario = ?", (want["scenario"],)).fetchone()[0]
    if n != want["requests"]:
        problems.append("report.sqlite: %d requests, expected %d" % (n, want["requests"]))
for p in problems:
    print("check_detailed: " + p)
if problems:
    sys.exit(1)
print("check_detailed: every percentile exact, %d requests" % want["requests"])
