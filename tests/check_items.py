#!/usr/bin/env python3
"""Independent check of items.csv (not made by the tool's code).

check_items.py OUT_DIR EXPORT_DIR

For GSM8K the flipped items are recomputed here from the export's
lm-eval samples files (doc_id and exact_match of the lines with the
report's GSM8K filter), each model directory against the baseline's. For
every benchmark the rows of a comparison must be as many as report.json's
McNemar counts, each way, hold two different values, appear once, and come
in report.json's model order, then item id (numbers by value); each GSM8K
row names the file and line of the model's answer and of the baseline's."""
import csv
import glob
import json
import os
import sys

out, export = sys.argv[1], sys.argv[2]
report = json.load(open(os.path.join(out, "report.json")))
path = os.path.join(out, "items.csv")
failures = []
compared = [
    (m, b, a)
    for m in report["models"]
    if not m["is_baseline"]
    for b, a in (m.get("accuracy") or {}).items()
    if a.get("flipped_better") is not None
]
if not compared:
    if os.path.exists(path):
        failures.append("items.csv written without any comparison")
    print("items.csv: " + ("; ".join(failures) if failures else "none, as no entry was compared"))
    sys.exit(1 if failures else 0)

rows = list(csv.DictReader(open(path, newline="", encoding="utf-8")))
cols = list(rows[0].keys()) if rows else []
want_cols = ["model", "label", "benchmark", "item", "baseline_correct", "model_correct", "model_source",
             "baseline_source"]
if rows and cols != want_cols and cols != want_cols[:4] + ["baseline_score", "model_score"] + want_cols[6:]:
    failures.append(f"columns {cols}")
base_col, model_col = (cols[4], cols[5]) if rows else ("", "")


def item_key(i):
    return (0, int(i), "") if i.isdigit() else (1, 0, i)


# Counts each way, from report.json.
by = {}
for r in rows:
    by.setdefault((r["label"], r["benchmark"]), []).append(r)
for m, b, a in compared:
    got = by.pop((m["label"], b), [])
    up = sum(float(r[model_col]) > float(r[base_col]) for r in got)
    down = sum(float(r[model_col]) < float(r[base_col]) for r in got)
    if (up, down) != (a["flipped_better"], a["flipped_worse"]):
        failures.append(f"{m['label']} {b}: {up} up, {down} down; report.json {a['flipped_better']}, "
                        f"{a['flipped_worse']}")
    ids = [r["item"] for r in got]
    if len(set(ids)) != len(ids):
        failures.append(f"{m['label']} {b}: an item listed twice")
    if ids != sorted(ids, key=item_key):
        failures.append(f"{m['label']} {b}: items not in id order")
if by:
    failures.append(f"rows of no comparison: {sorted(by)}")

# Model order: report.json's.
rank = {m["label"]: k for k, m in enumerate(report["models"])}
labels = [rank[r["label"]] for r in rows]
if labels != sorted(labels):
    failures.append("rows not in the report's model order")

# GSM8K from the samples files themselves.
flt = report["settings"]["gsm8k_filter"]


where = {}  # (directory, doc_id) -> "path:line" of its line with the report's filter


def gsm8k_items(directory):
    scores = {}
    for f in glob.glob(os.path.join(export, directory, "**", "samples_gsm8k_*.jsonl"), recursive=True):
        rel = os.path.relpath(f, export)
        for lineno, line in enumerate(open(f, encoding="utf-8"), 1):
            d = json.loads(line)
            if d.get("filter", flt) == flt:
                scores[str(d["doc_id"])] = float(d["exact_match"])
                where[(directory, str(d["doc_id"]))] = "%s:%d" % (rel, lineno)
    return scores


base = next(m for m in report["models"] if m["is_baseline"])
base_items = gsm8k_items(base["directory"])
checked = 0
for m, b, a in compared:
    if b != "gsm8k" or not base_items:
        continue
    mine = gsm8k_items(m["directory"])
    want = sorted(((i, base_items[i], s) for i, s in mine.items() if i in base_items and base_items[i] != s),
                  key=lambda t: item_key(t[0]))
    got = [(r["item"], float(r[base_col]), float(r[model_col])) for r in rows
           if r["label"] == m["label"] and r["benchmark"] == "gsm8k"]
    checked += 1
    if got != want:
        failures.append(f"{m['label']} gsm8k: items.csv {got[:5]}..., samples files {want[:5]}...")
    # Issue 31: each row names where both answers are, file and line
    for r in rows:
        if r["label"] != m["label"] or r["benchmark"] != "gsm8k":
            continue
        want_where = (where.get((m["directory"], r["item"])), where.get((base["directory"], r["item"])))
        if (r["model_source"], r["baseline_source"]) != want_where:
            failures.append(f"{m['label']} gsm8k item {r['item']}: sources {r['model_source']}, "
                            f"{r['baseline_source']}; the samples files put it at {want_where}")
            break

if failures:
    print("items.csv: " + "; ".join(failures))
    sys.exit(1)
print(f"items.csv: {len(rows)} rows agree with report.json's counts; GSM8K recomputed from the samples "
      f"files for {checked} comparison{'s' if checked != 1 else ''}")
