#!/usr/bin/env python3
"""The shape checks of a sweep over many scenarios (golden case
report/many-scenarios), on the outputs: the results table holds only the
scenarios some entry has a ratio in, in the swept order, and so does the
speed table, with the other scenarios in a table of their own; every scenario has
one name, never its internal key; a sweep over 3+ concurrencies gets the
throughput chart. Usage: check_many_scenarios.py OUT_DIR"""
import json
import os
import re
import sys

out = sys.argv[1]
md = open(os.path.join(out, "results.md")).read()
report = json.load(open(os.path.join(out, "report.json")))
problems = []


def section(name):
    return md.split("\n## " + name + "\n", 1)[1].split("\n## ", 1)[0]


def headings(text):
    for line in text.splitlines():
        if line.startswith("| Model |"):
            return [c.strip() for c in line.strip("|").split("|")][1:]
    return []


rated = set()
for m in report["models"]:
    for key, sc in m.get("speed", {}).items():
        if sc.get("ratio") is not None:
            rated.add(key)
results = [h for h in headings(section("Results")) if h != "KV cache tokens"]
if len(results) != len(rated):
    problems.append("the results table has %d scenario columns, %d scenarios have a ratio" % (len(results), len(rated)))
concurrency = [int(h[2:]) for h in results if re.fullmatch(r"c=\d+", h)]
if concurrency != sorted(concurrency):
    problems.append("the concurrency columns are not in the swept order: %s" % concurrency)
# The speed section: a table of the rated scenarios, the columns of the
# results table, then the others in a table of their own (issue 31: the
# same columns in results.md, report.html and report.pdf).
tables = [[c.strip() for c in l.strip("|").split("|")][1:] for l in section("Speed").splitlines()
          if l.startswith("| Model |")]
if not tables or tables[0] != results:
    problems.append("the speed table's columns %s are not the results table's %s" % (tables[:1], results))
scenarios = set()
for m in report["models"]:
    scenarios |= set(m.get("speed", {}))
if len(tables) < 2 or len(tables[0]) + len(tables[1]) != len(scenarios):
    problems.append("the scenarios without a ratio are not in a table of their own")
keys = re.findall(r"\bin\d+-out\d+-[cnr]\d+", md)
if keys:
    problems.append("internal scenario keys in results.md: %s" % sorted(set(keys)))
if not os.path.exists(os.path.join(out, "charts", "throughput.svg")):
    problems.append("no throughput chart for a sweep over seven concurrencies")
for p in problems:
    print("check_many_scenarios: " + p)
sys.exit(1 if problems else 0)
