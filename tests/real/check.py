#!/usr/bin/env python3
"""Real-data suite: run sweep-report on every export of ../shared/realdata (files
written by the real tools, committed by third parties, not copied here) and
compare report.json with tests/real/expected.tsv, whose figures were read off
those files by hand (the format is described at the top of expected.tsv).

usage: check.py [--bin PATH] [--only EXPORT[@TAG]] [--keep-outputs DIR] [--if-present]

The real data is looked for in $SR_REALDATA, then ../shared/realdata relative to
the repository root, then /work/shared/realdata. Exit 0 when every run exits as
expected and every row holds, 1 when something differs, 2 when the real data or
the binary is missing or expected.tsv is malformed. With --if-present (make test),
a machine without the real data (a fresh CI image holds only the repository)
skips the suite with a message saying so and exits 0; a directory that is
there but lacks an export still fails.
"""
import argparse
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXPECTED = os.path.join(ROOT, "tests", "real", "expected.tsv")
OPS = ("=", "null", "len", "keys", "contains", "excludes", "oneof", "noneof", "brackets")


class SetupError(Exception):
    pass


class NotFound(SetupError):
    pass


def find_realdata():
    tried = []
    env = os.environ.get("SR_REALDATA")
    if env:
        tried.append(f"$SR_REALDATA={env}")
        if os.path.isdir(env):
            return env
        print(f"realdata: $SR_REALDATA={env} is not a directory; looking further", file=sys.stderr)
    for cand in (os.path.join(ROOT, "..", "shared", "realdata"), "/work/shared/realdata"):
        if os.path.normpath(cand) not in tried:
            tried.append(os.path.normpath(cand))
        if os.path.isdir(cand):
            return os.path.normpath(cand)
    raise NotFound("real data not found (tried " + ", ".join(tried) + "); set SR_REALDATA to the directory "
                     "holding export-gpu-vllm0.10, export-bfcl, ... (see its SOURCES.md)")


class Run:
    def __init__(self, lineno, name, args, want_exit, comment):
        self.lineno, self.name, self.args, self.want_exit, self.comment = lineno, name, args, want_exit, comment

    @property
    def export(self):
        return self.name.split("@", 1)[0]


class Row:
    def __init__(self, lineno, name, directory, variant, path, op, expected, comment):
        self.lineno, self.name, self.directory, self.variant = lineno, name, directory, variant
        self.path, self.op, self.expected, self.comment = path, op, expected, comment

    def where(self):
        sel = "(report)" if self.directory == "-" else self.directory
        if self.variant != "-":
            sel += f" [{self.variant}]"
        return f"expected.tsv:{self.lineno}: {self.name} {sel} {self.path}"


def parse_expected(path):
    runs, rows = [], []
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = line.split("\t")
            if cols[0] == "run":
                if len(cols) != 5:
                    raise SetupError(f"{path}:{lineno}: a run line has 5 tab-separated columns, found {len(cols)}")
                args = [] if cols[2] == "-" else shlex.split(cols[2])
                runs.append(Run(lineno, cols[1], args, int(cols[3]), cols[4]))
                continue
            if len(cols) != 7:
                raise SetupError(f"{path}:{lineno}: a row has 7 tab-separated columns, found {len(cols)}")
            op = cols[4]
            if op not in OPS and not (op.startswith("~") and is_number(op[1:])):
                raise SetupError(f"{path}:{lineno}: unknown comparison '{op}'")
            if not cols[6].strip():
                raise SetupError(f"{path}:{lineno}: every row needs a comment saying where its value comes from")
            rows.append(Row(lineno, *cols))
    names = {r.name for r in runs}
    for r in rows:
        if r.name not in names:
            raise SetupError(f"{path}:{r.lineno}: no run line for '{r.name}'")
    return runs, rows


def is_number(s):
    try:
        float(s)
        return True
    except ValueError:
        return False


def split_path(path):
    """'speed/in4000-out500-c25-r1.5/median' -> parts; '/' inside [...] does not split."""
    parts, cur, depth = [], "", 0
    for ch in path:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "/" and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return parts


MISSING = object()


def resolve(node, path):
    """Walk path from node. A part is an object key, a list index, or
    name[key=value]: the element of list `name` whose `key` equals value."""
    if path == ".":
        return node, None
    for part in split_path(path):
        sel = None
        if part.endswith("]") and "[" in part:
            part, sel = part[:-1].split("[", 1)
        if part:
            if isinstance(node, dict):
                if part not in node:
                    return MISSING, f"no key '{part}'"
                node = node[part]
            elif isinstance(node, list) and part.isdigit():
                if int(part) >= len(node):
                    return MISSING, f"index {part} past the end ({len(node)} items)"
                node = node[int(part)]
            else:
                return MISSING, f"cannot take '{part}' of a {type(node).__name__}"
        if sel is not None:
            key, _, want = sel.partition("=")
            if not isinstance(node, list):
                return MISSING, f"[{sel}] needs a list, found a {type(node).__name__}"
            hits = [x for x in node if isinstance(x, dict) and str(x.get(key)) == want]
            if len(hits) != 1:
                return MISSING, f"{len(hits)} items with {key} = '{want}'"
            node = hits[0]
    return node, None


def select_model(report, directory, variant):
    want_variant = None if variant == "-" else variant
    if directory.startswith("tag="):  # the bucket layout: every arm sits in its run's logs/
        tag = directory[len("tag="):]
        hits = [m for m in report.get("models", [])
                if m.get("tag") == tag and m.get("variant") == want_variant]
        if len(hits) == 1:
            return hits[0], None
        return None, f"{len(hits)} models with tag '{tag}' and variant {want_variant!r}"
    hits = [m for m in report.get("models", [])
            if m.get("directory") == directory and m.get("variant") == want_variant]
    if len(hits) == 1:
        return hits[0], None
    seen = sorted(f"{m.get('directory')} [{m.get('variant')}]" for m in report.get("models", [])
                  if m.get("directory") == directory)
    what = "no model" if not hits else f"{len(hits)} models"
    return None, f"{what} with directory '{directory}' and variant {want_variant!r} (entries of that directory: " + (
        ", ".join(seen) if seen else "none") + ")"


def show(v):
    if v is MISSING:
        return "(missing)"
    if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
        # models[] and inputs[]: name the entries, not their whole content
        names = [x.get("path") or "{} [{}]".format(x.get("directory"), x.get("variant")) for x in v]
        return "[" + ", ".join(names) + "]"
    return json.dumps(v)


def compare(row, got):
    """None when the row holds, else what differs."""
    op, want = row.op, row.expected
    if op == "null":
        return None if got is None else f"got {show(got)}, want null"
    if got is MISSING:
        return f"got (missing), want {op} {want}"
    if op.startswith("~"):
        tol = float(op[1:])
        if not isinstance(got, (int, float)) or isinstance(got, bool) or not math.isfinite(got):
            return f"got {show(got)}, want {want} (within {tol})"
        return None if abs(got - float(want)) <= tol else f"got {got!r}, want {want} (within {tol}; off by {got - float(want):+.6g})"
    if op == "=":
        if want in ("true", "false"):
            ok = got is (want == "true")
        elif is_number(want) and isinstance(got, (int, float)) and not isinstance(got, bool):
            ok = float(got) == float(want)
        else:
            ok = isinstance(got, str) and got == want
        return None if ok else f"got {show(got)}, want {want}"
    if op == "len":
        if not isinstance(got, (list, dict, str)):
            return f"got {show(got)}, want something of length {want}"
        return None if len(got) == int(want) else f"length {len(got)}, want {want}: {show(got)[:2000]}"
    if op == "keys":
        if not isinstance(got, dict):
            return f"got {show(got)}, want an object with keys {want}"
        want_keys = set(k for k in want.split(",") if k)
        missing, extra = sorted(want_keys - set(got)), sorted(set(got) - want_keys)
        if not missing and not extra:
            return None
        return "keys differ: " + "; ".join(
            x for x in (f"missing {', '.join(missing)}" if missing else "",
                        f"unexpected {', '.join(extra)}" if extra else "") if x)
    if op in ("contains", "excludes"):
        text = "" if got is None and op == "excludes" else got
        if not isinstance(text, str):
            return f"got {show(got)}, want a string that {op} '{want}'"
        hit = want in text
        return None if hit == (op == "contains") else f"got {show(got)}, want it to {'contain' if op == 'contains' else 'not contain'} '{want}'"
    if op in ("oneof", "noneof"):
        text = got if isinstance(got, str) else json.dumps(got)
        hit = text in want.split("|")
        return None if hit == (op == "oneof") else f"got {show(got)}, want {'one' if op == 'oneof' else 'none'} of {want}"
    if op == "brackets":
        if not (isinstance(got, list) and len(got) == 2 and all(isinstance(x, (int, float)) for x in got)):
            return f"got {show(got)}, want a [low, high] pair around {want}"
        return None if got[0] <= float(want) <= got[1] else f"got [{got[0]}, {got[1]}], which does not hold {want}"
    raise AssertionError(op)


def check_row(report, row, node):
    got, err = resolve(node, row.path)
    if err and row.op != "null":
        return err
    if err:
        return f"{err}, want null"
    return compare(row, got)


def run_tool(binary, realdata, run, outdir):
    cmd = [binary, "report", os.path.join(realdata, run.export), "-o", outdir] + run.args
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    return p.returncode, (p.stdout + p.stderr).strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "sweep-report"))
    ap.add_argument("--only", help="run only this export (or export@tag)")
    ap.add_argument("--keep-outputs", help="write each run's outputs below this directory")
    ap.add_argument("--if-present", action="store_true",
                    help="skip (exit 0, saying so) when the real data is not on this machine")
    opts = ap.parse_args()
    try:
        realdata = find_realdata()
        if not os.access(opts.bin, os.X_OK):
            raise SetupError(f"{opts.bin}: no sweep-report binary (run make)")
        runs, rows = parse_expected(EXPECTED)
        for run in runs:
            if not os.path.isdir(os.path.join(realdata, run.export)):
                raise SetupError(f"expected.tsv:{run.lineno}: export '{run.export}' not found in {realdata}")
    except NotFound as e:
        if opts.if_present:
            print(f"realdata: SKIPPED, {e}", file=sys.stderr)
            return 0
        print(f"realdata: {e}", file=sys.stderr)
        return 2
    except SetupError as e:
        print(f"realdata: {e}", file=sys.stderr)
        return 2

    failures, checked = [], 0
    work = opts.keep_outputs or tempfile.mkdtemp(prefix="sr-realdata-")
    for i, run in enumerate(runs):
        if opts.only and opts.only not in (run.name, run.export):
            continue
        label = f"{run.name} {' '.join(run.args) or '(no options)'}"
        outdir = os.path.join(work, f"{i:02d}-{run.name.replace('@', '-')}")
        code, output = run_tool(opts.bin, realdata, run, outdir)
        report_path = os.path.join(outdir, "report.json")
        if code != run.want_exit:
            failures.append(f"expected.tsv:{run.lineno}: {label}: exit {code}, want {run.want_exit}\n      "
                            + output.replace("\n", "\n      ")[:1500])
            continue
        if code != 0:
            if os.path.exists(report_path):
                failures.append(f"expected.tsv:{run.lineno}: {label}: exit {code} but report.json was written")
            checked += 1
            continue
        with open(report_path, encoding="utf-8") as f:
            report = json.load(f)
        n_rows = n_bad = 0
        unselected = {}  # (directory, variant) -> [first row, rows not checked]
        for row in rows:
            if row.name != run.name:
                continue
            n_rows += 1
            node = report
            if row.directory != "-":
                node, err = select_model(report, row.directory, row.variant)
                if err:
                    n_bad += 1
                    unselected.setdefault((row.directory, row.variant), [row, err, 0])[2] += 1
                    continue
            err = check_row(report, row, node)
            if err:
                n_bad += 1
                failures.append(f"{row.where()}: {err}\n      ({label}; {row.comment})")
        for row, err, count in unselected.values():
            failures.append(f"expected.tsv:{row.lineno}: {row.name} {row.directory}"
                            + (f" [{row.variant}]" if row.variant != "-" else "")
                            + f": {err}; its {count} rows not checked\n      ({label})")
        # Issue 31: the headline, counts, statuses and levels of every format
        # derived from report.json (tests/check_headline.py), READY arms too.
        export_dir = os.path.join(realdata, run.export)
        ready = any("run.log" in files for _, _, files in os.walk(export_dir))
        hl = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "check_headline.py"), outdir]
                            + (["--ready", export_dir] if ready else []), capture_output=True, text=True)
        if hl.returncode != 0 and not (ready and "no READY arm" in hl.stdout and hl.stdout.count("FAIL") == 1):
            failures.append(f"{label}: check_headline.py:\n      " + hl.stdout.strip().replace("\n", "\n      ")[:2000])
        # Issue 42: report.sqlite and figures.csv hold report.json's figures,
        # and the requests table the files' own (tests/check_sqlite.py).
        sq = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "check_sqlite.py"), outdir, export_dir],
                            capture_output=True, text=True)
        if sq.returncode != 0:
            failures.append(f"{label}: check_sqlite.py:\n      "
                            + (sq.stdout + sq.stderr).strip().replace("\n", "\n      ")[:2000])
        checked += 1
        print(f"realdata: {label}: {n_rows - n_bad}/{n_rows} rows hold")
    if not opts.keep_outputs:
        shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("FAIL " + f)
    print(f"realdata: {checked} runs, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
