#!/usr/bin/env python3
"""scripts/layers.py fails on each broken rule: a copy of src/ with one
deliberately bad include per rule, a header that declares another folder's
function, the top including past its faces, and a made-up call graph with a
circle.
Run by make layers (so by make lint): python3 tests/check_layers.py [CFLAGS]."""
import os
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
sys.path.insert(0, os.path.join(root, "scripts"))
import layers  # noqa: E402

cflags = sys.argv[1] if len(sys.argv) > 1 else ""
BAD = [
    # (file, include added, words the failure must say)
    ("render/shared/words.c", "render/report/text.h", "an engine reaches into a document"),
    ("render/doc/html.c", "render/compare/text.h", "an engine reaches into a document"),
    ("render/compare/tables.c", "render/report/tables.h", "a document reaches into another document"),
    ("ingest/bfcl.c", "ingest/vllm_settings.h", "a parser reaches into another parser"),
    ("ingest/json.c", "ingest/hf_config.h", "the JSON base reaches into a parser"),
    ("pipeline.c", "render/render.h", "pipeline.c includes from render/"),
    ("analysis/stats.c", "ingest/json.h", "analysis/ reaches up into ingest/"),
    ("model/sweep.c", "analysis/analysis.h", "model/ reaches up into analysis/"),
    ("render/shared/words.c", "pipeline.h", "render/ reaches up into pipeline.h"),
]
failed = 0
with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, "src")
    shutil.copytree(os.path.join(root, "src"), src)
    for path, header, words in BAD:
        unit = path[:-2]
        cmd = [sys.executable, os.path.join(root, "scripts", "layers.py"), "--src", src, "--no-calls",
               "--cflags", cflags, unit]
        clean = subprocess.run(cmd, capture_output=True, text=True)
        if clean.returncode != 0:
            print("check_layers: FAIL %s is already broken:\n%s" % (path, clean.stderr))
            failed += 1
            continue
        with open(os.path.join(src, path)) as f:
            text = f.read()
        with open(os.path.join(src, path), "w") as f:
            f.write('#include "%s"\n' % header + text)
        bad = subprocess.run(cmd, capture_output=True, text=True)
        with open(os.path.join(src, path), "w") as f:
            f.write(text)
        want = "%s includes %s: %s" % (unit + ".c", header, words)
        if bad.returncode == 1 and want in bad.stderr:
            print("ok   %s with #include \"%s\" fails: %s" % (path, header, words))
        else:
            print("check_layers: FAIL %s with #include \"%s\": exit %d, said:\n%s" % (path, header, bad.returncode,
                                                                                     bad.stderr))
            failed += 1

    # A header declaring a function of another folder: the report's renderer
    # declared in the engines' base (render/render.h, as it was before
    # render/report/report.h). Where each function is defined stands in for nm.
    header = os.path.join(src, "render", "render.h")
    with open(header) as f:
        text = f.read()
    defs = {fn: "render/render" for fn in layers.declared_functions(header)}
    clean = layers.foreign_declarations(src, defs, ["render/render"])
    defs["sr_render_json"] = "render/report/json"
    with open(header, "w") as f:
        f.write(text.replace("#endif", "sr_error *sr_render_json(const sr_sweep *sweep, char **out, size_t *len);\n#endif"))
    bad = layers.foreign_declarations(src, defs, ["render/render"])
    with open(header, "w") as f:
        f.write(text)
    if clean == [] and len(defs) > 1 and bad == [("render/render.h", "sr_render_json",
                                                                       "render/report/json")]:
        print("ok   render/render.h declaring sr_render_json (render/report/json.c) fails: a header declares only "
              "its own folder's functions")
    else:
        print("check_layers: FAIL foreign declarations: clean %s, planted %s" % (clean, bad))
        failed += 1

    # The top including past its public faces, and a pending entry left stale.
    clean = layers.top_problems(src, layers.TOP_PENDING)
    path = os.path.join(src, "cmd", "verify.c")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write('#include "analysis/stats.h"\n' + text)
    bad = layers.top_problems(src, layers.TOP_PENDING)
    with open(path, "w") as f:
        f.write(text)
    stale = layers.top_problems(src, {**layers.TOP_PENDING, ("cmd/verify.c", "ingest/json.h"): "gone"})
    if (clean == [] and len(bad) == 1 and "cmd/verify.c includes analysis/stats.h: the top reaches past" in bad[0]
            and stale == ["cmd/verify.c no longer includes ingest/json.h: take it out of TOP_PENDING"]):
        print("ok   cmd/verify.c with #include \"analysis/stats.h\" fails: the top reaches past its public faces; "
              "a stale TOP_PENDING entry fails")
    else:
        print("check_layers: FAIL top: clean %s, planted %s, stale %s" % (clean, bad, stale))
        failed += 1

# A circle of files calling each other, and a chain that is none.
found = layers.circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
if found == [["a", "b", "c"]] and layers.circles({"a": {"b"}, "b": {"c"}}) == []:
    print("ok   a -> b -> c -> a is a circle; a -> b -> c is none")
else:
    print("check_layers: FAIL circles: %s" % found)
    failed += 1
# Rooms: a new ingest file is a parser of its own; the JSON base and loaders are not.
if (layers.room("ingest/sglang_bench") == ("parser", "ingest/sglang_bench") and layers.room("ingest/json") ==
        ("ingest-base",) and layers.room("ingest/export") == ("loader",) and layers.room("render/outputs/outputs") ==
        ("render-top",) and layers.room("render/newdoc/outline") == ("document", "newdoc")):
    print("ok   rooms: a new parser is a leaf, a new render folder a document")
else:
    print("check_layers: FAIL rooms")
    failed += 1
print("check_layers: %d failed" % failed)
sys.exit(1 if failed else 0)
