#!/usr/bin/env python3
"""docs/architecture.md names files that exist: every `path` it quotes that
starts at the project's root (src/, tests/, docs/, scripts/, bench/) or at a
folder of src/ (render/, ingest/, analysis/, model/, util/, cmd/), so its
map and its recipes (the files a new statistic, format, section or
subcommand touches) cannot drift from the tree unnoticed.
Run by make lint: python3 tests/check_architecture.py"""
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOTS = ("src/", "tests/", "docs/", "scripts/", "bench/")
SRC_DIRS = ("render/", "ingest/", "analysis/", "model/", "util/", "cmd/")


def named_paths(text):
    for m in re.finditer(r"`([A-Za-z0-9_./<>*-]+\.(?:c|h|cpp|py|sh|md|def|tsv))`", text):
        p = m.group(1)
        if "<" in p or "*" in p:
            continue  # a pattern (tests/cases/<cmd>/...), not a file
        if p.startswith(ROOTS) or p.startswith(SRC_DIRS):
            yield p


def exists(p):
    return os.path.exists(os.path.join(root, p)) or os.path.exists(os.path.join(root, "src", p))


def main():
    doc = os.path.join(root, "docs", "architecture.md")
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    names = sorted(set(named_paths(text)))
    missing = [p for p in names if not exists(p)]
    for p in missing:
        print("check_architecture: docs/architecture.md names %s, which does not exist" % p, file=sys.stderr)
    print("check_architecture: %d paths named, %d missing" % (len(names), len(missing)))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
