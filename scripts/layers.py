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
  - a circle of .c files calling each other, anywhere in src/;
  - a header declaring a function that no source file of the header's own
    folder defines (read from nm), unless the header is a listed FACADE: a
    header is filed by what it declares, not only by its path;
  - the top (main.c and cmd/) including anything but pipeline.h,
    render/outputs/outputs.h, cli.h, cmd/, model/ and util/ (its own lines,
    not what those headers include): the command line sees each stage through
    one public face. TOP_PENDING names the includes still waiting for their
    face; the list may only shrink (an entry no longer included fails too).

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
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

DOCUMENTS = ("report", "compare", "survey", "kv", "verify")  # render/<document>/
ENGINE_DIRS = ("shared", "canvas", "doc")  # render/<dir>/: what every document is made with
RENDER_TOP_EXEMPT = ("outputs",)  # render/<dir>/ that renders every document's files in memory

# What every parser reads with: the JSON base, and the check of a bench run's
# figures every bench reader makes.
BASE = (
    "ingest/json",
    "ingest/json_keys",
    "ingest/json_line",
    "ingest/json_line_fast",
    "ingest/bench_plausible",
    "ingest/yaml",  # YAML into the same tree
)
LOADERS = (
    "ingest/export",
    "ingest/export_entries",
    "ingest/export_files",
    "ingest/export_tools",
    "ingest/walk",
    "ingest/classify",
    "ingest/input_kinds",
    "ingest/bucket",
    "ingest/claims",
    "ingest/configs_dir",
    "ingest/metadata_dir",
    "ingest/listing",
    "ingest/copy_files",
)
PARSER_GROUPS = {
    "bench": ("ingest/bench_json", "ingest/bench_text", "ingest/bench_stream"),
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


# Headers that may declare functions defined in another folder (a facade).
FACADES = ()

# The top's public faces: what main.c and cmd/ may include.
TOP_UNITS = ("main",)  # and every file of cmd/
TOP_ALLOWED_FILES = ("pipeline.h", "cli.h", "render/outputs/outputs.h")
TOP_ALLOWED_DIRS = ("cmd", "model", "util")
# Includes of the top that still bypass the faces, each with what it waits
# for (issue 40 item 2); shrink it, never grow it.
TOP_PENDING = {
    ("cmd/kv.c", "render/kv/kv.h"): "sr_render_kv_files in render/outputs/",
    ("cmd/options.c", "analysis/stats.h"): "the statistics' defaults, for --help",
    ("cmd/report.c", "analysis/analysis.h"): "SR_NO_BASELINE_WARNING",
    ("cmd/report.c", "render/report/aliases.h"): "the claims headings, through render/outputs/",
    ("cmd/report.c", "render/report/report.h"): "--summary-md, to become a side output of the report",
    ("cmd/report.c", "render/shared/findings.h"): "the findings on the terminal",
    ("cmd/report.c", "render/report/sqlite.h"): "--db's report.sqlite and its schema version, through render/outputs/",
    ("cmd/report.c", "render/shared/words.h"): "--db's sweep name, through render/outputs/",
    ("main.c", "ingest/input_kinds.h"): "--generate input-kinds, through pipeline.h",
    ("cmd/survey.c", "analysis/survey_rules.h"): "the survey's reserve defaults, for --help",
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


def declared_functions(path):
    """The functions a header declares (comments, preprocessor lines, bodies,
    typedefs and static or extern declarations left out): names of sr_*."""
    text = open(path, encoding="utf-8", errors="replace").read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"^\s*#(?:[^\n]*\\\n)*[^\n]*", "", text, flags=re.M)
    names, depth, stmt = set(), 0, []
    for ch in text:
        if ch == "{":
            depth += 1
            stmt = []
        elif ch == "}":
            depth -= 1
        elif depth == 0 and ch == ";":
            s = " ".join("".join(stmt).split())
            stmt = []
            m = re.match(r"^[\w\s\*]*?\b(sr_\w+)\s*\(", s)
            if m and not s.startswith(("typedef", "extern", "static")):
                names.add(m.group(1))
        elif depth == 0:
            stmt.append(ch)
    return names


def foreign_declarations(src, defs, headers):
    """(header, function, defining unit) for each function a header declares
    that a unit of another folder defines (defs: symbol -> unit)."""
    out = []
    for h in headers:
        if h in FACADES:
            continue
        for fn in sorted(declared_functions(os.path.join(src, h + ".h"))):
            if fn in defs and os.path.dirname(defs[fn]) != os.path.dirname(h):
                out.append((h + ".h", fn, defs[fn]))
    return out


def direct_includes(src, path):
    """The quoted includes written in a file (not those of its headers)."""
    with open(os.path.join(src, path), encoding="utf-8", errors="replace") as f:
        return re.findall(r'^\s*#\s*include\s+"([^"]+)"', f.read(), flags=re.M)


def top_problems(src, pending):
    """What main.c and cmd/ include past their public faces, and pending
    entries no longer included."""
    files = [u + ".c" for u in TOP_UNITS] + sorted(
        os.path.join("cmd", f) for f in os.listdir(os.path.join(src, "cmd")) if f.endswith((".c", ".h")))
    problems, seen = [], set()
    for path in files:
        for inc in direct_includes(src, path):
            if inc in TOP_ALLOWED_FILES or inc.split("/")[0] in TOP_ALLOWED_DIRS and "/" in inc:
                continue
            if (path, inc) in pending:
                seen.add((path, inc))
                continue
            problems.append("%s includes %s: the top reaches past its public faces (%s, %s/)" %
                            (path, inc, ", ".join(TOP_ALLOWED_FILES), "/, ".join(TOP_ALLOWED_DIRS)))
    for path, inc in sorted(set(pending) - seen):
        problems.append("%s no longer includes %s: take it out of TOP_PENDING" % (path, inc))
    return problems


def calls(objects, wanted, defs=None):
    """{unit: {(callee unit, symbol)}} from nm over the objects of the units
    wanted (objects/<unit>.o; older objects of moved files are left out).
    defs, when given, is filled with symbol -> defining unit."""
    defs, undef = ({} if defs is None else defs), collections.defaultdict(set)
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
    if not only:
        problems += top_problems(src, TOP_PENDING)
    if with_calls:
        defs = {}
        edges = calls(objects, set(units(src, (".c", ".cpp"))), defs)
        for h, fn, unit in foreign_declarations(src, defs, units(src, (".h",))):
            problems.append("%s declares %s, defined in %s.c: a header declares only its own folder's functions "
                            "(or is listed in FACADES)" % (h, fn, unit))
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
