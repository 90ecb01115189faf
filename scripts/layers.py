#!/usr/bin/env python3
"""The layering rules of src/ (docs/architecture.md), checked on the code as
built: the includes each .c file pulls in, directly or through a header
(`cc -MM`), and the functions each object file calls in another (`nm`).

  make layers        (make lint runs it)

Fails, naming the file and the header or function, on:
  - an engine including or calling a document: render/*.c, render/shared/,
    render/canvas/ and the document writers of render/doc/ never reach into
    render/report/, compare/, survey/, kv/ or verify/ (render/outputs/, which
    runs every document, is above them all);
  - a document including or calling another document;
  - a parser including or calling another parser: every ingest/ file is a
    parser of its own unless PARSER_GROUPS joins it to others (the vLLM log
    reader's parts, the claims readers) or it is the base every parser reads
    with (BASE) or a loader that runs the parsers (LOADERS);
  - pipeline.c including anything from render/;
  - a folder including from a folder above it: util/ only util/; model/ only
    model/ and util/; ingest/ and analysis/ not each other, nor render/, cmd/
    or the pipeline; render/ not ingest/, cmd/ or the pipeline;
  - a circle of .c files calling each other, anywhere in src/.

Usage: layers.py [--src DIR] [--objects DIR] [--cc CC] [--cflags FLAGS] [--no-calls] [UNIT...]
  --src      the source tree (src); includes are read with CC -MM
  --objects  where the build put the object files (build/src); calls are
             read from them with nm
  --no-calls check the includes only (no build needed)
  UNIT       check these files' includes only ("render/shared/words"); all
             by default
tests/check_layers.py shows each rule failing on a deliberately bad file.
"""
import argparse
import collections
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

DOCUMENTS = ("report", "compare", "survey", "kv", "verify")  # render/<document>/
ENGINE_DIRS = ("shared", "canvas", "doc")  # render/<dir>/: what every document is made with
RENDER_TOP_EXEMPT = ("outputs",)  # render/<dir>/ that renders every document's files in memory

# What every parser reads with: the JSON base, and the check of a bench run's
# figures every bench reader makes.
BASE = ("ingest/json", "ingest/json_keys", "ingest/json_line", "ingest/json_line_fast", "ingest/bench_plausible")
LOADERS = (
    "ingest/export",
    "ingest/export_entries",
    "ingest/export_files",
    "ingest/walk",
    "ingest/classify",
    "ingest/bucket",
    "ingest/claims",
    "ingest/configs_dir",
    "ingest/metadata_dir",
    "ingest/listing",
    "ingest/copy_files",
)
PARSER_GROUPS = {
    "bench": ("ingest/bench_json", "ingest/bench_text"),
    "vllm_log": (
        "ingest/vllm_log",
        "ingest/vllm_log_facts",
        "ingest/vllm_log_failure_lines",
        "ingest/vllm_log_failures",
        "ingest/vllm_log_lines",
        "ingest/vllm_settings",
        "ingest/vllm_log_parts",  # their shared header
    ),
    "claims": ("ingest/claims_csv", "ingest/claims_markdown", "ingest/claims_parts"),
    "listing": ("ingest/listing_text", "ingest/listing_json", "ingest/listing_parts"),
}


def room(unit):
    """What a unit (a path under src/ without its extension) is, for the rules:
    ('engine',), ('document', name), ('render-top',), ('parser', group),
    ('ingest-base',), ('loader',), ('pipeline',) or ('other',)."""
    parts = unit.split("/")
    if parts[0] == "render":
        if len(parts) == 2:
            return ("engine",)
        if parts[1] in RENDER_TOP_EXEMPT:
            return ("render-top",)
        if parts[1] in ENGINE_DIRS:
            return ("engine",)
        return ("document", parts[1])
    if parts[0] == "ingest":
        if unit in BASE:
            return ("ingest-base",)
        if unit in LOADERS:
            return ("loader",)
        for group, members in PARSER_GROUPS.items():
            if unit in members:
                return ("parser", group)
        return ("parser", unit)
    if unit == "pipeline":
        return ("pipeline",)
    return ("other",)


# What each folder may include besides itself (the top: main.c, cli, cmd/,
# pipeline.c, may include anything).
FOLDERS_BELOW = {
    "util": ("util",),
    "model": ("model", "util"),
    "ingest": ("ingest", "model", "util"),
    "analysis": ("analysis", "model", "util"),
    "render": ("render", "analysis", "model", "util"),
}


def broken(src_unit, dst_unit, header):
    """The rule src_unit breaks by reaching dst_unit (a header when header is
    true, else a function's file), or None."""
    top, dst_top = src_unit.split("/")[0], dst_unit.split("/")[0]
    if top in FOLDERS_BELOW and "/" in dst_unit and dst_top not in FOLDERS_BELOW[top]:
        return "%s/ reaches up into %s/" % (top, dst_top)
    if top in FOLDERS_BELOW and "/" not in dst_unit:
        return "%s/ reaches up into %s" % (top, dst_unit + (".h" if header else ".c"))
    a, b = room(src_unit), room(dst_unit)
    if a == ("engine",) and b[0] == "document":
        return "an engine reaches into a document (render/%s/)" % b[1]
    if a[0] == "document" and b[0] == "document" and a[1] != b[1]:
        return "a document reaches into another document (render/%s/)" % b[1]
    if a[0] == "parser" and b[0] == "parser" and a[1] != b[1]:
        return "a parser reaches into another parser"
    if a == ("ingest-base",) and b[0] == "parser":
        return "the JSON base reaches into a parser"
    if a == ("pipeline",) and dst_unit.startswith("render/") and header:
        return "pipeline.c includes from render/ (the command hands render's words to the pipeline)"
    return None


def units(src, ext=(".c",)):
    out = []
    for top, _, files in os.walk(src):
        for f in files:
            if f.endswith(ext):
                out.append(os.path.splitext(os.path.relpath(os.path.join(top, f), src))[0])
    return sorted(out)


def includes(src, unit, cc, cflags):
    """The project headers unit.c pulls in (cc -MM), as paths under src/."""
    cmd = [cc, "-MM", "-I" + src] + cflags + [os.path.join(src, unit + ".c")]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit("layers: %s failed:\n%s" % (" ".join(cmd), res.stderr))
    deps = res.stdout.replace("\\\n", " ").split(":", 1)[1].split()
    root = os.path.normpath(src) + os.sep
    return sorted({os.path.normpath(d)[len(root):] for d in deps
                   if os.path.normpath(d).startswith(root) and d.endswith(".h")})


def header_unit(header):
    """The unit a header belongs to: its path without .h (its .c beside it,
    or, for a header without one, still its folder's room)."""
    return header[:-2]


def calls(objects, wanted):
    """{unit: {(callee unit, symbol)}} from nm over the objects of the units
    wanted (objects/<unit>.o; older objects of moved files are left out)."""
    defs, undef = {}, collections.defaultdict(set)
    for top, _, files in os.walk(objects):
        for f in files:
            if not f.endswith(".o"):
                continue
            path = os.path.join(top, f)
            unit = os.path.relpath(path, objects)[:-2]
            if unit not in wanted:
                continue
            out = subprocess.run(["nm", path], capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                p = line.split()
                if len(p) == 3 and p[1] in "TDBR":
                    defs[p[2]] = unit
                elif len(p) == 2 and p[0] == "U":
                    undef[unit].add(p[1])
    edges = collections.defaultdict(set)
    for unit, syms in undef.items():
        for s in syms:
            if s in defs and defs[s] != unit:
                edges[unit].add((defs[s], s))
    return edges


def circles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check(src, objects, cc, cflags, with_calls, only=()):
    problems = []
    all_units = set(units(src))
    todo = sorted(only or all_units)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        found = dict(zip(todo, pool.map(lambda u: includes(src, u, cc, cflags), todo)))
    for unit, headers in found.items():
        for h in headers:
            owner = header_unit(h)
            if owner.startswith("ingest/") and owner not in all_units and room(owner) == ("parser", owner):
                continue  # an interface of ingest/ (ingest.h, survey_ingest.h): what the loaders call
            why = broken(unit, owner, True)
            if why:
                problems.append("%s.c includes %s: %s" % (unit, h, why))
    if with_calls:
        edges = calls(objects, set(units(src, (".c", ".cpp"))))
        for unit in sorted(edges):
            for callee, sym in sorted(edges[unit]):
                why = broken(unit, callee, False)
                if why:
                    problems.append("%s.c calls %s (%s.c): %s" % (unit, sym, callee, why))
        graph = {u: {c for c, _ in es} for u, es in edges.items()}
        for comp in circles(graph):
            pairs = ["%s -> %s (%s)" % (a, c, s) for a in comp for c, s in sorted(edges[a]) if c in comp]
            problems.append("a circle of files calling each other: %s; %s" % (", ".join(comp), "; ".join(pairs)))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", default="src")
    ap.add_argument("--objects", default="build/src")
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cflags", default="")
    ap.add_argument("--no-calls", action="store_true")
    ap.add_argument("units", nargs="*")
    a = ap.parse_args()
    problems = check(a.src, a.objects, a.cc, shlex.split(a.cflags), not a.no_calls, a.units)
    for p in problems:
        print("layers: " + p, file=sys.stderr)
    if problems:
        print("layers: %d broken rule%s (scripts/layers.py says the rules)" % (len(problems), "s" * (len(problems) != 1)),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
