#!/usr/bin/env python3
"""Independent checks of compare's CI files against its compare.json (not made by the tool).

    check_ci_files.py OUT_DIR

OUT_DIR.junit.xml (--junit) must be well-formed XML (xmllint) with one testsuite per model
and one testcase per check: per model in both exports its status, each benchmark and each
scenario of compare.json, plus one per model in one export only; a <failure> for each entry
of compare.json's "regressions" (and no other), whose message holds the change and its
interval (accuracy, in points) or the ratio and its range (speed), or says what was lost (a
model, benchmark result or scenario present before and absent after, unless --allow-missing);
<skipped> exactly where compare.json has nothing to judge (new after, too few items, one run on
each side, or what is lost under --allow-missing).
OUT_DIR.summary.md (--summary-md) must say how many regressions there are, list each in
its table, and have one row per model.
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

out = sys.argv[1]
cmp = json.load(open(os.path.join(out, "compare.json")))
junit, summary = out + ".junit.xml", out + ".summary.md"
failures = []


def check(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


r = subprocess.run(["xmllint", "--noout", junit], capture_output=True, text=True)
check("xmllint --noout", (r.returncode, r.stderr), (0, ""))
root = ET.parse(junit).getroot()
check("root element", root.tag, "testsuites")

label = {m["id"]: m["label"] or m["id"] for m in cmp["models"]}
# what compare.json says every check is: (model, testcase name) -> outcome
want = {}
for m in cmp["models"]:
    who = label[m["id"]]
    want[(who, "status")] = "failed" if m["transition"] == "now_fails" else "passed"
    for bench, a in m["accuracy"].items():
        nothing = a["verdict"] in (None, "too few items")
        want[(who, "accuracy " + bench)] = "failed" if a["regression"] else "skipped" if nothing else "passed"
    for key, s in m["speed"].items():
        nothing = s["before"] is None or s["after"] is None or s["ratio"] is None or s["within_noise"] is None
        want[(who, "speed " + key)] = "failed" if s["regression"] else "skipped" if nothing else "passed"
# a model only before is lost: a failure of the gate unless --allow-missing
lost_fails = not cmp["settings"]["allow_missing"]
for key in ("added_entries", "removed_entries"):
    for e in cmp[key]:
        lost = key == "removed_entries" and lost_fails
        want[(e.get("label") or e["id"], "presence")] = "failed" if lost else "skipped"

got, messages = {}, {}
for suite in root.findall("testsuite"):
    cases = suite.findall("testcase")
    check(f"testsuite {suite.get('name')}: tests", int(suite.get("tests")), len(cases))
    check(f"testsuite {suite.get('name')}: failures", int(suite.get("failures")),
          sum(1 for c in cases if c.find("failure") is not None))
    for case in cases:
        check("a testsuite holds one model's checks", case.get("classname"), suite.get("name"))
        k = (case.get("classname"), case.get("name"))
        f, s = case.find("failure"), case.find("skipped")
        got[k] = "failed" if f is not None else "skipped" if s is not None else "passed"
        if f is not None:
            messages[k] = f.get("message")
check("the checks and their outcomes", sorted(got.items()), sorted(want.items()))
n_failed = sum(1 for v in want.values() if v == "failed")
check("regressions in compare.json", len(cmp["regressions"]), n_failed)
check("testsuites tests", int(root.get("tests")), len(want))
check("testsuites failures", int(root.get("failures")), len(cmp["regressions"]))
check("testsuites skipped", int(root.get("skipped")), sum(1 for v in want.values() if v == "skipped"))


def points(v):  # as the report prints a change in points: one decimal, U+2212 for minus
    t = f"{abs(v) * 100:.1f}"
    return ("\u2212" if v < 0 and t != "0.0" else "+" if v > 0 and t != "0.0" else "") + t


for reg in cmp["regressions"]:
    if reg["kind"] == "presence":  # a model lost whole: its message says so, not "in both exports"
        e = next(e for e in cmp["removed_entries"] if e["id"] == reg["model"])
        msg = messages.get((e.get("label") or e["id"], "presence"), "")
        if "lost" not in msg or "in both exports" in msg:
            failures.append(f"{e['id']}: the presence failure does not say it was lost: {msg!r}")
        continue
    m = next(m for m in cmp["models"] if m["id"] == reg["model"])
    who = label[m["id"]]
    if reg["lost"]:  # present before, absent after: no change to give, the loss to name
        msg = messages.get((who, reg["kind"] + " " + reg["name"]), "")
        if not msg.startswith(f"{who} ") or "lost" not in msg:
            failures.append(f"{who} {reg['name']}: the failure does not say it was lost: {msg!r}")
    elif reg["kind"] == "accuracy":
        a = m["accuracy"][reg["name"]]
        msg = messages.get((who, "accuracy " + reg["name"]), "")
        for v in (a["delta"], a["ci_low"], a["ci_high"]):
            if points(v) not in msg:
                failures.append(f"{who} {reg['name']}: {points(v)} not in the failure message {msg!r}")
        if "95% CI" not in msg:
            failures.append(f"{who} {reg['name']}: the message does not name the interval: {msg!r}")
    elif reg["kind"] == "speed":
        s = m["speed"][reg["name"]]
        msg = messages.get((who, "speed " + reg["name"]), "")
        for v in (s["ratio"], s["ratio_low"], s["ratio_high"]):
            if f"{v:.2f}" not in msg:
                failures.append(f"{who} {reg['name']}: {v:.2f} not in the failure message {msg!r}")
    else:
        msg = messages.get((who, "status"), "")
        if "now fails" not in msg:
            failures.append(f"{who}: the status failure does not say it now fails: {msg!r}")

md = open(summary, encoding="utf-8").read()
n = len(cmp["regressions"])
lead = f"**{n} regression{'s' if n != 1 else ''}: the gate (--fail-on-regression) fails.**" if n else \
    "**No regression: the gate (--fail-on-regression) passes.**"
check("the summary's lead", lead in md, True)
tables, rows = md.split("\n### "), {}
for t in tables[1:]:
    title = t.split("\n", 1)[0]
    rows[title.split(" (")[0]] = [line for line in t.split("\n")[3:] if line.startswith("| ")]
check("summary: a row per regression", len(rows.get("Regressions", [])), n)
if cmp["lost"]:
    check("summary: the lost counted", f"is lost: {cmp['lost']} here" in md, True)
n_models = len(cmp["models"]) + len(cmp["added_entries"]) + len(cmp["removed_entries"])
check("summary: a row per model", len(rows.get("Every model", [])), min(n_models, 200))
for who in set(k[0] for k in want):
    if not any(row.startswith(f"| {who} |") for row in rows.get("Every model", [])):
        failures.append(f"summary: no row for {who}")

for f in failures:
    print("check_ci_files:", f)
sys.exit(1 if failures else 0)
