#!/usr/bin/env python3
"""Run every example of README.md as written, as from the checkout after `make report`.

    check_readme.py path/to/sweep-report [README.md]

An example is a line of a fenced code block that begins with `./sweep-report` or
`$ ./sweep-report`; after a `$` line, the lines up to the next `$` line or the end of the
block are what it prints. (Lines that begin with a bare `sweep-report` are synopses, and
`make ...` lines are the quick start itself: neither is run here.) Each example runs in a
scratch directory laid out like the checkout (fixtures/, tests/ and docs/ linked to the
checkout's, ./sweep-report the binary under test), so nothing it writes lands in the checkout.
It must exit 0, or 4 (a check failed) when the lines shown include an `error:` line. What it
prints (stdout and stderr) must be the lines shown, in that order and line for line, each whole
or, ending in "...", as a beginning; a line "…" alone marks lines the README leaves out (any
number, none too). It may write only under out/ (git ignores it), so that trying the examples
leaves the checkout as it was.
"""
import os
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.path.abspath(sys.argv[1])
readme = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "README.md")


def examples(path):
    """(line number, command, [lines shown]) for every example of the file."""
    found, in_block, current = [], False, None
    for lineno, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if line.startswith("```"):
            in_block, current = not in_block, None
            continue
        if not in_block:
            continue
        body = line[2:] if line.startswith("$ ") else line
        if body.startswith("./sweep-report "):
            current = (lineno, body, [])
            found.append(current)
        elif line.startswith("$ "):
            current = None
        elif current is not None and line.startswith("$") is False and line.strip():
            current[2].append(line.rstrip())
    return found


CUT = "\u2026"  # "…" alone on a line: lines left out


def matches(want, got):
    got = got.rstrip()
    return got == want or (want.endswith("...") and got.startswith(want[:-3]))


def shown_in(shown, printed):
    """The first line of shown that printed does not hold where shown says (line for line,
    but where a "…" line lets lines go by), or None."""
    printed = list(printed)
    while printed and not printed[-1].strip():
        printed.pop()  # the newline that ends the output
    at, skip = 0, False
    for want in shown:
        if want == CUT:
            skip = True
            continue
        while at < len(printed) and not matches(want, printed[at]):
            if not skip:
                return want
            at += 1
        if at == len(printed):
            return want
        at, skip = at + 1, False
    if at < len(printed) and not skip:
        return f"(nothing more), but it printed {printed[at]!r} next"
    return None


def scratch():
    d = tempfile.mkdtemp(prefix="sr-readme-")
    for name in ("fixtures", "tests", "docs"):
        os.symlink(os.path.join(ROOT, name), os.path.join(d, name))
    os.symlink(binary, os.path.join(d, "sweep-report"))
    return d


failures, found, failed = [], examples(readme), set()
if len(found) < 6:
    failures.append(f"only {len(found)} examples found in {readme}: is the parser still right?")
for lineno, command, shown in found:
    where = f"README.md:{lineno}: {command}"
    cwd = scratch()
    try:
        r = subprocess.run(shlex.split(command), cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=600)
        printed = r.stdout.decode("utf-8", "replace").split("\n")
        want = 4 if any(line.startswith("error:") for line in shown) else 0
        if r.returncode != want:
            failed.add(lineno)
            failures.append(f"{where}: exit {r.returncode}, expected {want}\n    " + "\n    ".join(printed[-5:]))
        missing = shown_in(shown, printed)
        if missing is not None:
            failed.add(lineno)
            failures.append(f"{where}: does not print {missing!r}; it printed:\n    " + "\n    ".join(printed[:12]))
        outside = sorted(set(os.listdir(cwd)) - {"fixtures", "tests", "docs", "sweep-report", "out"})
        if outside:
            failed.add(lineno)
            failures.append(f"{where}: writes outside out/ (git status would show it): {', '.join(outside)}")
    except subprocess.TimeoutExpired:
        failed.add(lineno)
        failures.append(f"{where}: still running after 600 s")
    finally:
        subprocess.run(["rm", "-rf", cwd])

for f in failures:
    print("readme: FAIL", f)
print(f"readme: {len(found) - len(failed)} of {len(found)} examples run as written")
sys.exit(1 if failures else 0)
