#!/usr/bin/env python3
"""Hold README's and docs/inputs.md's format tables to the table of input kinds
(src/ingest/input_kinds.def), as the program prints it (`--generate input-kinds`).

    check_input_kinds.py path/to/sweep-report [README.md] [docs/inputs.md]

- docs/inputs.md's table of JSON kinds ("What a JSON file is") lists exactly the rows
  with a content rule, in the table's order (the order the rules are tried), each with
  the rule as the table writes it;
- every row with a file-name pattern is in README's formats table ("What it reads"),
  except the bucket layout's files listed as ignored (scope arm or run, with a reason),
  which docs/inputs.md names;
- every row of README's formats table names a kind of the table (its pattern, or an
  arm's "<tag>.<arm>" name).
Exit 0 when all hold, 1 naming each difference.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kinds(binary):
    out = subprocess.run([binary, "--generate", "input-kinds"], check=True, capture_output=True, text=True).stdout
    lines = out.rstrip("\n").split("\n")
    head = lines[0].split("\t")
    rows = []
    for line in lines[1:]:
        cells = line.split("\t")
        if len(cells) != len(head):
            sys.exit(f"check_input_kinds: a row of --generate input-kinds has {len(cells)} columns: {line!r}")
        rows.append({k: (None if v == "-" else v) for k, v in zip(head, cells)})
    return rows


def section(text, heading):
    """The lines of the Markdown section that starts with heading, up to the next heading."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.strip() == heading:
            out = []
            for rest in lines[i + 1:]:
                if rest.startswith("#"):
                    break
                out.append(rest)
            return out
    return None


def table_rows(lines):
    """The cells of the first pipe table in lines (header and rule left out)."""
    rows, started = [], False
    for line in lines:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            if started or set(line) <= set("|-: "):
                started = True
                if not set(line) <= set("|-: "):
                    rows.append(cells)
        elif started:
            break
    return rows


def main():
    binary = sys.argv[1]
    readme = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "README.md")
    inputs = sys.argv[3] if len(sys.argv) > 3 else os.path.join(ROOT, "docs", "inputs.md")
    rows = kinds(binary)
    problems = []

    inputs_text = open(inputs, encoding="utf-8").read()
    json_section = section(inputs_text, "## What a JSON file is (`classify.c`)")
    if json_section is None:
        problems.append(f"{inputs}: no section '## What a JSON file is (`classify.c`)'")
    else:
        documented = [(c[0].strip("`"), c[1]) for c in table_rows(json_section) if len(c) >= 2]
        wanted = [(r["name"], r["content"]) for r in rows if r["content"]]
        if documented != wanted:
            for i in range(max(len(documented), len(wanted))):
                d = documented[i] if i < len(documented) else None
                w = wanted[i] if i < len(wanted) else None
                if d != w:
                    problems.append(f"{inputs}: JSON kinds table, row {i + 1}: has {d}, the table of input kinds "
                                    f"says {w}")
                    break

    readme_text = open(readme, encoding="utf-8").read()
    reads = section(readme_text, "## What it reads")
    if reads is None:
        problems.append(f"{readme}: no section '## What it reads'")
        reads = []
    firsts = [c[0] for c in table_rows(reads)]
    if not firsts:
        problems.append(f"{readme}: no formats table under '## What it reads'")
    for r in rows:
        if not r["pattern"]:
            continue
        if r["scope"] in ("arm", "run") and r["reason"]:
            if r["pattern"] not in inputs_text:
                problems.append(f"{inputs}: does not name {r['pattern']} (kind {r['id']}, listed as ignored)")
        elif not any(r["pattern"] in f for f in firsts):
            problems.append(f"{readme}: its formats table has no row for {r['pattern']} (kind {r['id']})")
    arm_names = [f"`<tag>.{alt}" for r in rows if r["arm"] for alt in r["arm"].split("|")]
    for f in firsts:
        if not any(r["pattern"] and r["pattern"] in f for r in rows) and not any(a in f for a in arm_names):
            problems.append(f"{readme}: the formats table's row {f!r} names no kind of the table of input kinds")

    for p in problems:
        print("check_input_kinds: " + p, file=sys.stderr)
    if problems:
        return 1
    print(f"check_input_kinds: {len(rows)} kinds; README and docs/inputs.md agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
