#!/usr/bin/env python3
"""Independent check of the validity checks (docs/validity.md) on an export of
vLLM --save-result files: derives each scenario's and accuracy result's
expected statuses from the input files alone (its own reading of the JSON,
its own arithmetic in fractions), then holds report.json's `validity` lists
to them, and results.md and report.html to their marks: every table that
carries a mark has that mark's legend under it, the count of failed requests
stands beside its figure, and the Summary counts the scenarios with failures.

Usage: check_validity.py OUT_DIR EXPORT_DIR [--strict]
(--strict: the report ran with --strict-validity, so an entry with a failed
check is partial, the check named in its reason; else it keeps its status.)
"""
import glob
import json
import math
import os
import re
import sys
from fractions import Fraction

CONFIDENCE = Fraction(95, 100)
MARKS = {"\u2020", "\u2021", "\u00a7", "\u00b6", "\u25ca"}
problems = []


def fail(msg):
    problems.append(msg)


def needed(q):
    """The least n with q^n <= 1 - C: ceil(log(1 - C) / log(q)), by counting."""
    n, p = 0, Fraction(1)
    while p > 1 - CONFIDENCE:
        p *= q
        n += 1
    return n


def scenario_key(r):
    key = "in%d-out%d" % (int(r["input_len"]), int(r["output_len"]))
    if r.get("max_concurrency") is not None:
        key += "-c%d" % r["max_concurrency"]
    elif r["request_rate"] != "inf":
        key += "-r%g" % r["request_rate"]
    else:
        key += "-n%d" % r["num_prompts"]
    return key


def expected_speed(runs, names):
    """check -> status for one scenario's runs (as read from the files)."""
    exp = {}
    arrays = all("output_lens" in r for r in runs)
    failed = sum(sum(1 for e in r["errors"] if e) if "errors" in r else r["failed"] for r in runs)
    exp["failed_requests"] = "fail" if failed else "pass"
    if arrays:
        done = [(o, len(i)) for r in runs for o, i, e in zip(r["output_lens"], r["itls"], r["errors"]) if not e]
        exp["zero_token_requests"] = "warn" if any(o == 0 for o, _ in done) else "pass"
        exp["token_count"] = "warn" if any(o > 0 and n + 1 != o for o, n in done) else "pass"
        tokens, completed = sum(o for o, _ in done), len(done)
    else:
        exp["zero_token_requests"] = exp["token_count"] = "not_checked"
        tokens, completed = sum(r["total_output_tokens"] for r in runs), sum(r["completed"] for r in runs)
    want = {int(r["output_len"]) for r in runs}
    assert len(want) == 1
    want = want.pop()
    off = abs(Fraction(tokens, completed) - want)
    exp["output_length"] = "pass" if off <= Fraction(want, 10) else "warn"
    rate = runs[0]["request_rate"]
    if rate == "inf":
        exp["achieved_rate"] = "not_checked"
    else:
        achieved = Fraction(sum(r["completed"] for r in runs)) / Fraction(sum(r["duration"] for r in runs))
        exp["achieved_rate"] = "pass" if achieved >= Fraction(9, 10) * Fraction(rate) else "warn"
    tails = []  # (n, q) of each percentile the scenario has
    if arrays:
        n = sum(1 for r in runs for e in r["errors"] if not e)
        tails = [(n, Fraction(99, 100)), (n, Fraction(90, 100))]
    else:
        n = min(r["completed"] for r in runs)
        tails = [(n, q) for key, q in (("p99_ttft_ms", Fraction(99, 100)), ("p90_ttft_ms", Fraction(90, 100)))
                 if any(key in r for r in runs)]
    if not tails:
        exp["tail_sample"] = "not_checked"
    else:
        exp["tail_sample"] = "warn" if any(n < needed(q) for n, q in tails) else "pass"
    named = [n for n in names if "warmup" in os.path.basename(n).lower()]
    exp["warmup"] = "warn" if named and len(named) == len(names) else "pass"
    return exp


def main(out, export, strict):
    report = json.load(open(os.path.join(out, "report.json")))
    models = {m["directory"]: m for m in report["models"]}
    scenarios_with_failures = 0
    for d in sorted(os.listdir(export)):
        path = os.path.join(export, d)
        if not os.path.isdir(path):
            continue
        by_key = {}
        for f in sorted(glob.glob(os.path.join(path, "*.json"))):
            r = json.load(open(f))
            by_key.setdefault(scenario_key(r), []).append((f, r))
        m = models[d]
        for key, runs in sorted(by_key.items()):
            exp = expected_speed([r for _, r in runs], [f for f, _ in runs])
            scenarios_with_failures += exp["failed_requests"] == "fail"
            got = {c["check"]: c["status"] for c in m["speed"][key]["validity"]}
            for check, status in exp.items():
                if got.get(check) != status:
                    fail("%s %s %s: report.json says %s, the files give %s" % (d, key, check, got.get(check), status))
            order = [c["check"] for c in m["speed"][key]["validity"]]
            if order != ["failed_requests", "zero_token_requests", "output_length", "token_count", "achieved_rate",
                         "tail_sample", "warmup"]:
                fail("%s %s: checks in another order: %s" % (d, key, order))
            for c in m["speed"][key]["validity"]:
                if not c["detail"]:
                    fail("%s %s %s: no detail" % (d, key, c["check"]))
        # accuracy: the items against the baseline's
        base_dir = next(k for k, v in models.items() if v["is_baseline"])
        for f in glob.glob(os.path.join(path, "*.scores.jsonl")):
            bench = os.path.basename(f)[: -len(".scores.jsonl")]
            ids = [json.loads(l)["item_id"] for l in open(f)]
            base_ids = [json.loads(l)["item_id"] for l in open(os.path.join(export, base_dir, os.path.basename(f)))]
            exp = {
                "truncated": "not_checked",  # plain scores say nothing of a token limit
                "item_set": "pass" if d == base_dir or set(ids) == set(base_ids) else "warn",
                "duplicates": "fail" if len(set(ids)) != len(ids) else "pass",
            }
            got = {c["check"]: c["status"] for c in m["accuracy"][bench]["validity"]}
            if got != exp:
                fail("%s %s: report.json says %s, the files give %s" % (d, bench, got, exp))

    for m in report["models"]:
        failed = [c for s in m["speed"].values() for c in s["validity"] if c["status"] == "fail"]
        failed += [c for a in m["accuracy"].values() for c in a.get("validity", []) if c["status"] == "fail"]
        reason = m["status_reason"] or ""
        if strict and failed and (m["status"] != "partial" or "failed validity check: " + failed[0]["check"] not in reason):
            fail("--strict-validity: %s has a failed check but is %s (%s)" % (m["id"], m["status"], reason))
        if not strict and "failed validity check" in reason:
            fail("%s: partial for a failed check without --strict-validity" % m["id"])
    md = open(os.path.join(out, "results.md"), encoding="utf-8").read()
    # every Markdown table with a mark in a cell has the mark's legend before the next heading or table
    blocks = re.split(r"\n(?=#)", md)
    for block in blocks:
        lines = block.split("\n")
        i = 0
        while i < len(lines):
            if not lines[i].startswith("|"):
                i += 1
                continue
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            used = {ch for l in lines[i + 2:j] for ch in l if ch in MARKS}
            after = "\n".join(lines[j:])
            after = after.split("\n|")[0]
            for mark in used:
                if mark + ": " not in after:
                    fail("results.md: a table uses %s but no legend of it follows (line '%s')" % (mark, lines[i][:60]))
            i = j
    if scenarios_with_failures:
        if not re.search(r"\| [^|]*\u00a7[^|]*\(300 of 600 failed\) \|", md):
            fail("results.md: no cell carries \u00a7 and '(300 of 600 failed)'")
        total = sum(len(m["speed"]) for m in report["models"])
        want = "Validity: %d of %d speed scenario%s had failed requests" % (
            scenarios_with_failures, total, "" if total == 1 else "s")
        if want not in md:
            fail("results.md: the Summary does not say '%s'" % want)
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    for chunk in html.split("<table")[1:]:
        table, _, rest = chunk.partition("</table>")
        rest = rest.split("<table")[0].split("<h2")[0].split("<h3")[0]
        for mark in {ch for ch in table if ch in MARKS}:
            if not re.search(r'<p class="note legend">[^<]*' + re.escape(mark) + ": ", rest):
                fail("report.html: a table uses %s but no legend of it follows" % mark)
    if problems:
        for p in problems:
            print("check_validity: " + p)
        sys.exit(1)
    print("validity: every check's status as the files give it, every mark with its legend")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], "--strict" in sys.argv[3:])
