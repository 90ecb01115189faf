#!/usr/bin/env python3
"""Golden check: every claim of the claims files given holds.

Reads report.json and asserts, independently of the tool's own summary
line, that there were claims, that each claim's verdict is "reproduced"
or "consistent", and that each reproduced number, printed at the claim's
precision, is the claim (so a verdict cannot say more than the values).
"""
import json
import re
import sys

NUMBER = re.compile(r"^([+\-\u2212]?)([\d,]*\d)(?:\.(\d+))?")


def rounds_to_claim(c):
    """A reproduced number: value x (written / claimed) within half a unit
    of the written number's last digit."""
    m = NUMBER.match(c["written"].strip())
    if not m or c.get("claimed") in (None, 0) or c.get("value") is None:
        return True  # words, or a claim of zero: nothing to scale by
    sign = -1 if m.group(1) in ("-", "\u2212") else 1
    decimals = len(m.group(3) or "")
    written = sign * float(m.group(2).replace(",", "") + ("." + m.group(3) if m.group(3) else ""))
    factor = written / c["claimed"]
    return abs(c["value"] * factor - written) <= 0.5 * 10 ** -decimals + 1e-9


def main(path):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    claims = report.get("claims")
    if not claims:
        sys.exit(f"{path}: no claims checked")
    bad = [c for c in claims if c.get("status") not in ("reproduced", "consistent")]
    bad += [c for c in claims if c.get("status") == "reproduced" and not rounds_to_claim(c)]
    for c in bad:
        print(f"{c.get('source')}: {c.get('figure')} of {c.get('model')}: {c.get('status')}", file=sys.stderr)
    summary = report.get("claims_summary", {})
    if summary.get("total") != len(claims):
        sys.exit(f"{path}: claims_summary.total {summary.get('total')} but {len(claims)} claims")
    if bad:
        sys.exit(f"{path}: {len(bad)} of {len(claims)} claims do not hold")


if __name__ == "__main__":
    main(sys.argv[1])
