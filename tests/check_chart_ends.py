#!/usr/bin/env python3
"""Issue 31: a chart that cannot show every entry keeps both ends and says
what it leaves out. Run on a report's output directory; every expectation
is derived from report.json, never from the charts themselves:

- speed_ratio, accuracy_delta, kv_capacity: with more than 40 rows, 40 are
  drawn (and the baseline's, which KV pins); every row left out ranks
  between the two ends drawn (no left-out row better than a drawn best
  one, none worse than a drawn worst one); the row of those left out counts
  them by side of the baseline as report.json puts them;
- throughput, latency: with more than ten lines, ten are drawn, the
  baseline's among them, and the entries with the lowest and the highest
  figure relative to the baseline's;
- the sentence under every such chart (in the SVG's <desc>) is the same in
  report.html's figure (its label and its caption) and in report.pdf.

    check_chart_ends.py OUT_DIR   (exit 1 on a problem)
"""
import html
import json
import math
import os
import re
import statistics
import subprocess
import sys

ROOM, LINES = 40, 10
problems = []


def fail(msg):
    problems.append(msg)


def desc_of(out, name):
    path = os.path.join(out, "charts", name + ".svg")
    if not os.path.exists(path):
        return None
    m = re.search(r"<desc>(.*?)</desc>", open(path, encoding="utf-8").read(), re.S)
    return html.unescape(m.group(1)) if m else ""


def finite(x):
    return isinstance(x, (int, float)) and math.isfinite(x)


def label(m):
    return m["label"] or m["id"]


# Sides, ranked as the chart ranks them: higher, same, none, lower; rows
# without a value rank in the middle of the others.
WEIGHT = {"higher": 3, "same": 2, "none": 1, "lower": 0}


def key(side, value):
    return (WEIGHT[side], value if finite(value) else -math.inf)


def speed_rows(report):
    rows = []
    for m in report["models"]:
        if m["is_baseline"] or m["status"] == "failed":
            continue
        ratios = [s["ratio"] for s in (m.get("speed") or {}).values() if finite(s.get("ratio"))]
        if ratios:
            v = statistics.median(ratios)
            rows.append((label(m), "lower" if v < 1 else "higher", v, False))
    return rows, {"lower": "below the baseline", "higher": "at or above it"}


def accuracy_rows(report):
    rows = []
    for m in report["models"]:
        if m["is_baseline"] or m["status"] == "failed":
            continue
        compared = [a for a in (m.get("accuracy") or {}).values() if finite(a.get("delta"))]
        if not compared:
            rows.append((label(m), "none", None, False))
            continue
        verdicts = [a["verdict"] for a in compared]
        side = "lower" if "lower" in verdicts else "higher" if "higher" in verdicts else "same"
        rows.append((label(m), side, min(a["delta"] for a in compared), False))
    return rows, {"lower": "lower on some benchmark", "same": "no measured difference",
                  "higher": "higher on some, lower on none", "none": "not compared"}


def kv_rows(report):
    def tokens(m):
        kv = m.get("kv_cache") or {}
        for k in ("logged_tokens", "recomputed_tokens"):
            if finite(kv.get(k)) and kv[k] > 0:
                return kv[k]
        return None
    base = next((m for m in report["models"] if m["is_baseline"]), None)
    bt = tokens(base) if base else None
    rows = []
    for m in report["models"]:
        if m["status"] == "failed":
            continue
        t = tokens(m)
        side = "none" if bt is None or t is None else "lower" if t < bt else "higher" if t > bt else "same"
        rows.append((label(m), side, t, m["is_baseline"]))
    words = {"lower": "below the baseline's", "same": "equal to it", "higher": "above it"} if bt else {}
    return rows, words


def drawn_order(text, labels):
    """The labels in the order the description names them, and where the
    row of those left out is (None: no such row)."""
    alternation = "|".join(re.escape(l) for l in sorted(labels, key=len, reverse=True))
    seen, order, gap = set(), [], None
    for m in re.finditer(r"(⋯ [0-9,]+ left out here[^;]*)|(?:^|[\s;])(" + alternation + r")(?=[ :(])", text, re.M):
        if m.group(1):
            if gap is None:
                gap = (len(order), m.group(1))
            continue
        if m.group(2) not in seen:
            seen.add(m.group(2))
            order.append(m.group(2))
    return order, gap


def check_rows(out, name, rows, words):
    text = desc_of(out, name)
    if text is None:
        return
    pinned = [r for r in rows if r[3]]
    if len(rows) - len(pinned) + len(pinned) <= ROOM:
        if "left out" in text:
            fail("%s: %d rows fit, yet it says some are left out" % (name, len(rows)))
        return
    if name == "accuracy_delta":  # the first panel's rows: the others repeat them
        text = text.split("\n")[0]
    by_label = {r[0]: r for r in rows}
    order, gap = drawn_order(text, list(by_label))
    if len(order) != ROOM:
        fail("%s: %d of %d rows drawn, expected %d" % (name, len(order), len(rows), ROOM))
    if gap is None:
        fail("%s: no row says how many are left out" % name)
        return
    for r in pinned:
        if r[0] not in order:
            fail("%s: the baseline %s is not drawn" % (name, r[0]))
    best = [by_label[l] for l in order[:gap[0]] if not by_label[l][3] and finite(by_label[l][2])]
    worst = [by_label[l] for l in order[gap[0]:] if not by_label[l][3] and finite(by_label[l][2])]
    left = [r for r in rows if r[0] not in order]
    if best and worst:
        floor = min(key(r[1], r[2]) for r in best)
        ceiling = max(key(r[1], r[2]) for r in worst)
        for r in left:
            if not finite(r[2]):  # without a value: ranked in the middle, left out first
                continue
            k = key(r[1], r[2])
            if k > floor or k < ceiling:
                fail("%s: %s (%s, %s) is left out but ranks %s the ends drawn"
                     % (name, r[0], r[1], r[2], "above" if k > floor else "below"))
    want = "%s left out here" % format(len(left), ",")
    for side in ("lower", "same", "higher", "none"):
        n = sum(1 for r in left if r[1] == side)
        if side in words and (side != "none" or n):
            want += "%s%s %s" % (": " if want.endswith("here") else ", ", format(n, ","), words[side])
    if want not in gap[1]:
        fail("%s: the row of those left out says %r, expected %r" % (name, gap[1], want))


def load_lines(report, figure):
    """Each entry's points on the curve of the most concurrency values at
    one pair of lengths (the generated exports sweep concurrency)."""
    groups = {}
    for m in report["models"]:
        if m["status"] == "failed":
            continue
        for s in (m.get("speed") or {}).values():
            if s.get("request_rate") is None and finite(s.get("concurrency")):
                groups.setdefault((s["input_len"], s["output_len"]), set()).add(s["concurrency"])
    if not groups:
        return {}, None
    lengths = max(groups, key=lambda g: len(groups[g]))
    lines, base = {}, None
    for m in report["models"]:
        if m["status"] == "failed":
            continue
        pts = {}
        for s in (m.get("speed") or {}).values():
            if (s["input_len"], s["output_len"]) == lengths and s.get("request_rate") is None:
                v = s.get("median") if figure == "throughput" else ((s.get("latency") or {}).get("ttft_ms") or {}).get("p99")
                if finite(v):
                    pts[s["concurrency"]] = v
        if pts:
            lines[label(m)] = pts
            if m["is_baseline"]:
                base = label(m)
    return lines, base


def check_lines(out, name, report):
    text = desc_of(out, name)
    if text is None:
        return
    lines, base = load_lines(report, name)
    if len(lines) <= LINES or base is None:
        return

    def rel(l):
        b = lines[base]
        r = [(v / b[x] if name == "throughput" else b[x] / v) for x, v in lines[l].items() if x in b and v > 0]
        return statistics.median(r) if r else None
    ranked = sorted((l for l in lines if l != base and rel(l) is not None), key=rel)
    order, _ = drawn_order(text, list(lines))
    if len(order) != LINES:
        fail("%s: %d lines drawn, expected %d" % (name, len(order), LINES))
    for want, why in ((base, "the baseline"), (ranked[0], "the worst"), (ranked[-1], "the best")):
        if want not in order:
            fail("%s: %s (%s) is not drawn" % (name, why, want))


def check_words(out, names):
    page = html.unescape(open(os.path.join(out, "report.html"), encoding="utf-8").read())
    pdf = ""
    if os.path.exists(os.path.join(out, "report.pdf")):
        pdf = subprocess.run(["pdftotext", os.path.join(out, "report.pdf"), "-"], capture_output=True,
                             text=True).stdout
    pdf = " ".join(pdf.split())
    for name in names:
        text = desc_of(out, name)
        if not text:
            continue
        sentences = re.findall(r"Drawn: the .*?\.(?= |$)", text, re.M)
        if not sentences and name != "tradeoff":
            if "left out" in text:
                fail("%s: leaves some out without the sentence that says so" % name)
            continue
        fig = re.search(r'<figure id="chart-%s">(.*?)</figure>' % re.escape(name), page, re.S)
        if not fig:
            fail("%s: no figure in report.html" % name)
            continue
        label_attr = re.search(r'aria-label="([^"]*)"', fig.group(1))
        caption = re.search(r"<figcaption>(.*?)</figcaption>", fig.group(1), re.S)
        for s in sentences:
            if not label_attr or s not in label_attr.group(1):
                fail("%s: the HTML figure's label does not say %r" % (name, s))
            if not caption or s not in caption.group(1):
                fail("%s: the HTML caption does not say %r" % (name, s))
            if pdf and " ".join(s.split()) not in pdf:
                fail("%s: report.pdf does not say %r" % (name, s))


def main():
    out = sys.argv[1]
    report = json.load(open(os.path.join(out, "report.json"), encoding="utf-8"))
    for name, make in (("speed_ratio", speed_rows), ("accuracy_delta", accuracy_rows), ("kv_capacity", kv_rows)):
        rows, words = make(report)
        check_rows(out, name, rows, words)
    for name in ("throughput", "latency"):
        check_lines(out, name, report)
    check_words(out, ["speed_ratio", "accuracy_delta", "kv_capacity", "tradeoff", "throughput", "latency"])
    for p in problems:
        print("FAIL chart-ends: " + p)
    if not problems:
        print("chart ends: every chart past its room keeps both ends and says what it leaves out")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
