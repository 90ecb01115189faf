#!/usr/bin/env python3
"""Hold docs/methods.md's table of speed definitions by tool to the program's
(src/model/speed_tools.c, printed by `--generate speed-definitions`).

    check_speed_definitions.py path/to/sweep-report [docs/methods.md] [--print]

The table under "### Speed figures by tool" must be, row by row, the one this script
makes from the program's definitions (--print prints it, to paste). Exit 0 when it is,
1 naming the first row that differs.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIGURES = ("output throughput", "total throughput", "TTFT", "TPOT", "ITL", "E2E latency")
HEADING = "### Speed figures by tool"


def table(binary):
    out = subprocess.run([binary, "--generate", "speed-definitions"], check=True, capture_output=True,
                         text=True).stdout
    lines = ["| tool (`definition`) | " + " | ".join(FIGURES) + " | failed requests |",
             "|---" * (len(FIGURES) + 2) + "|"]
    for row in out.rstrip("\n").split("\n"):
        c = row.split("\t")
        name, title, rest, failed = c[0], c[1], c[2:-1], c[-1]
        cells = []
        for k in range(len(FIGURES)):
            rule, says = rest[2 * k], rest[2 * k + 1]
            cells.append("not reported" if says == "-" else f"{says} [`{rule}`]")
        lines.append(f"| {title} (`{name}`) | " + " | ".join(cells) + f" | {failed} |")
    return lines


def main():
    args = [a for a in sys.argv[1:] if a != "--print"]
    binary = args[0]
    methods = args[1] if len(args) > 1 else os.path.join(ROOT, "docs", "methods.md")
    want = table(binary)
    if "--print" in sys.argv:
        print("\n".join(want))
        return 0
    lines = open(methods, encoding="utf-8").read().split("\n")
    if HEADING not in lines:
        print(f"check_speed_definitions: {methods}: no section '{HEADING}'", file=sys.stderr)
        return 1
    at = lines.index(HEADING)
    got = []
    for line in lines[at + 1:]:
        if line.startswith("|"):
            got.append(line)
        elif got:
            break
    for i in range(max(len(got), len(want))):
        g = got[i] if i < len(got) else None
        w = want[i] if i < len(want) else None
        if g != w:
            print(f"check_speed_definitions: {methods}: row {i + 1} of the table under '{HEADING}' is\n  {g}\n"
                  f"the program's definitions make it\n  {w}", file=sys.stderr)
            return 1
    print(f"check_speed_definitions: {len(want) - 2} tools; docs/methods.md agrees")
    return 0


if __name__ == "__main__":
    sys.exit(main())
