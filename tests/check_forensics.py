#!/usr/bin/env python3
"""Independent check of the claims forensics (docs/claims.md, "Forensics") of
the golden case report/claims-forensics: reads the claims table and the
export's files itself and derives which written figures are impossible (no
k of n items prints as the text, under half-up, half-even or Python's binary
formatting) and which are inconsistent (a Δ against the row's and the
baseline row's written scores, a speed ratio against the two written
throughputs, each allowed half its last digit); then holds report.json's
verdicts to them, and the tie 371/400 to its plain wording.

Usage: check_forensics.py OUT_DIR CLAIMS_MD EXPORT_DIR
"""
import decimal
import glob
import json
import os
import re
import sys
from fractions import Fraction

# the export's directory of each name the table writes
DIRS = {"Gemma 4 E2B": "gemma-4-e2b-it", "Qwen3-4B": "qwen3-4b", "Qwen3-1.7B": "qwen3-1.7b",
        "SmolLM3-3B": "run-07-smollm3"}
problems = []


def number(text):
    """(value as a Fraction, decimals, percent?) of a written number."""
    t = text.replace("\u2212", "-").replace(",", "").strip()
    pct = t.endswith("%")
    t = t.rstrip("%x ").strip()
    dec = len(t.split(".")[1]) if "." in t else 0
    return Fraction(decimal.Decimal(t)), dec, pct


def half(dec):
    return Fraction(1, 2 * 10 ** dec)


def prints_as(k, n, dec, pct, text):
    f = 100 if pct else 1
    exact = Fraction(k * f, n)
    want = decimal.Decimal(text.replace("%", "").strip())
    q = decimal.Decimal(1).scaleb(-dec)
    with decimal.localcontext() as ctx:
        ctx.prec = 50
        d = decimal.Decimal(exact.numerator) / decimal.Decimal(exact.denominator)
        forms = {d.quantize(q, rounding=decimal.ROUND_HALF_UP), d.quantize(q, rounding=decimal.ROUND_HALF_EVEN)}
    forms.add(decimal.Decimal(format(f * k / n, ".%df" % dec)))
    forms.add(decimal.Decimal(format(k / n * f, ".%df" % dec)))
    return want in forms


def achievable(text, n):
    _, dec, pct = number(text)
    return any(prints_as(k, n, dec, pct, text) for k in range(n + 1))


def files_n(model, bench):
    d = os.path.join(EXPORT, DIRS[model])
    if bench == "BFCL":
        return sum(1 for _ in open(glob.glob(os.path.join(d, "bfcl/result/**/*_result.json"), recursive=True)[0]))
    docs = set()
    for line in open(glob.glob(os.path.join(d, "lm_eval/*/samples_gsm8k_*.jsonl"))[0]):
        docs.add(json.loads(line)["doc_id"])
    return len(docs)


def tables(path):
    rows, out = [], []
    for lineno, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows.append((lineno, cells))
        elif rows:
            out.append(rows)
            rows = []
    if rows:
        out.append(rows)
    return [(t[0][1], [(l, c) for l, c in t[2:]]) for t in out]


def main(out, claims_md):
    report = json.load(open(os.path.join(out, "report.json")))
    status = {}
    for c in report["claims"]:
        status[(int(c["source"].rsplit(":", 1)[1]), c["figure"])] = c
    expect = {}  # (line, figure) -> "impossible" / "inconsistent" / "neither"
    fig = {"GSM8K": "accuracy.gsm8k", "BFCL": "accuracy.bfcl_simple", "c=16": "speed.in128-out256-c16"}
    for header, rows in tables(claims_md):
        col = {h: i for i, h in enumerate(header)}
        base = next((cells for _, cells in rows if "baseline" in cells), None)
        base = base or next(cells for _, cells in rows if cells[0] == "Gemma 4 E2B")
        for line, cells in rows:
            model = cells[0]
            for bench in ("GSM8K", "BFCL"):
                if bench not in col or not cells[col[bench]]:
                    continue
                written = cells[col[bench]]
                n = int(cells[col["n"]]) if "n" in col and cells[col["n"]] else None
                if model in DIRS:
                    n = files_n(model, bench)  # the files' n comes first
                key = (line, fig[bench] + ".score")
                expect[key] = "neither" if n is None or achievable(written, n) else "impossible"
                delta = "\u0394 " + bench
                if delta in col and cells[col[delta]] not in ("", "baseline") and cells is not base:
                    d, dd, _ = number(cells[col[delta]])
                    a, da, pa = number(written)
                    b, db, pb = number(base[col[bench]])
                    fa, fb = (100 if pa else 1), (100 if pb else 1)
                    off = abs(d / 100 - (a / fa - b / fb))
                    ok = off <= half(dd) / 100 + half(da) / fa + half(db) / fb
                    expect[(line, fig[bench] + ".delta")] = "neither" if ok else "inconsistent"
            if "c=16" in col and cells is not base:
                m = re.match(r"([\d.]+)x \(([\d,]+) tok/s\)", cells[col["c=16"]])
                mb = re.match(r"([\d.]+)x \(([\d,]+) tok/s\)", base[col["c=16"]])
                r, dr, _ = number(m.group(1))
                a, da, _ = number(m.group(2))
                b, db, _ = number(mb.group(2))
                lo, hi = (a - half(da)) / (b + half(db)), (a + half(da)) / (b - half(db))
                ok = r + half(dr) >= lo and r - half(dr) <= hi
                expect[(line, fig["c=16"] + ".ratio")] = "neither" if ok else "inconsistent"
    planted = {"impossible": 0, "inconsistent": 0}
    for key, want in sorted(expect.items()):
        got = status.get(key)
        if not got:
            problems.append("no claim of %s on line %d" % (key[1], key[0]))
            continue
        if want == "neither":
            if got["status"] in ("impossible", "inconsistent"):
                problems.append("line %d %s: %s, but the written figures allow it" % (key[0], key[1], got["status"]))
        else:
            planted[want] += 1
            if got["status"] != want:
                problems.append("line %d %s: %s, expected %s" % (key[0], key[1], got["status"], want))
            if not got.get("forensics") or got["forensics"].get("evidence") not in ("differs", "not_verifiable",
                                                                                    "unmatched"):
                problems.append("line %d %s: no forensics evidence" % key)
    if not planted["impossible"] or not planted["inconsistent"]:
        problems.append("the claims plant no impossible or no inconsistent figure: %s" % planted)
    summary = report["claims_summary"]
    for verdict in ("impossible", "inconsistent"):
        count = sum(1 for c in report["claims"] if c["status"] == verdict)
        if summary[verdict] != count:
            problems.append("claims_summary.%s is %s, the claims say %d" % (verdict, summary[verdict], count))
    # the tie: the baseline's BFCL is right minus the failures its score file lists, of its results
    d = os.path.join(EXPORT, DIRS["Gemma 4 E2B"])
    n = files_n("Gemma 4 E2B", "BFCL")
    k = n - (sum(1 for _ in open(glob.glob(os.path.join(d, "bfcl/score/**/*_score.json"), recursive=True)[0])) - 1)
    exact = Fraction(k, n)
    by_hand = decimal.Decimal(exact.numerator / decimal.Decimal(exact.denominator)).quantize(
        decimal.Decimal("0.001"), rounding=decimal.ROUND_HALF_UP)
    detail = next(c["detail"] for c in report["claims"] if c["figure"] == "accuracy.bfcl_simple.score" and
                  c["model"] == "Gemma 4 E2B")
    want = "Recomputed %d/%d = %s: %s by hand" % (k, n, exact.numerator / decimal.Decimal(exact.denominator), by_hand)
    if want not in detail or "%s as printf and Python print it" % format(k / n, ".3f") not in detail:
        problems.append("the tie is not said plainly: '%s' (wanted '%s ...')" % (detail, want))
    if problems:
        for p in problems:
            print("check_forensics: " + p)
        sys.exit(1)
    print("forensics: %d impossible and %d inconsistent figures as the written table gives them, none more; the tie "
          "said plainly" % (planted["impossible"], planted["inconsistent"]))


if __name__ == "__main__":
    EXPORT = sys.argv[3]
    main(sys.argv[1], sys.argv[2])
