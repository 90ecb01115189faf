#!/bin/sh
# A thousand models (make cli): an export made by bench/gen_export.py (1,000
# entries, 40 GSM8K and 20 BFCL items each, three speed runs) reported whole,
# then the bounds of issue 20 checked on what a reader gets: the PDF at most
# 80 pages, report.html at most 4 MiB, a summary that counts instead of
# listing, charts of at most 40 rows, warnings grouped by kind, every entry
# in report.json and the overview. About 20 s and 250 MB of $TMPDIR.
#   sh tests/run-many.sh path/to/sweep-report
set -eu
bin=${1:?usage: run-many.sh path/to/sweep-report}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$root/bench/gen_export.py" --models 1000 --gsm8k-items 40 --bfcl-items 20 --runs 3 \
    --out "$tmp/export" >"$tmp/gen.log" 2>&1 || { echo "FAIL many: gen_export.py failed"; cat "$tmp/gen.log"; exit 1; }
status=0
"$bin" report "$tmp/export" -o "$tmp/out" --resamples 1000 >"$tmp/stdout" 2>"$tmp/stderr" || status=$?
if [ "$status" != 0 ]; then
    echo "FAIL many: exit $status"; head -5 "$tmp/stderr"; exit 1
fi
pages=$(pdfinfo "$tmp/out/report.pdf" 2>/dev/null | sed -n 's/^Pages: *//p')
python3 - "$tmp/out" "$tmp/stderr" "${pages:-0}" <<'PY'
import json, os, re, sys
out, stderr, pages = sys.argv[1], open(sys.argv[2]).read(), int(sys.argv[3])
md = open(os.path.join(out, "results.md")).read()
report = json.load(open(os.path.join(out, "report.json")))
problems = []
def check(ok, what):
    if not ok:
        problems.append(what)
check(0 < pages <= 80, "report.pdf has %d pages (at most 80)" % pages)
html = os.path.getsize(os.path.join(out, "report.html"))
check(html <= 4 * 1024 * 1024, "report.html is %d bytes (at most 4 MiB)" % html)
summary = md.split("## Summary", 1)[1].split("\n## ", 1)[0]
check(len(summary) <= 8000, "the summary is %d characters (at most 8,000)" % len(summary))
check(re.search(r"no measured difference for [0-9,]+ entries: ", summary), "the summary does not count the entries")
overview = md.split("## Overview", 1)[1].split("\n## ", 1)[0]
rows = [l for l in overview.splitlines() if l.startswith("| sweeporg/")]
check(len(rows) == 1000, "the overview of results.md has %d rows, not 1,000" % len(rows))
check(len(report["models"]) == 1000 and len(report["overview"]) == 1000, "report.json lacks entries")
groups = report.get("warning_groups", [])
check(sum(g["count"] for g in groups) == len(report["warnings"]), "warning_groups do not add up to the warnings")
warnings_md = re.split(r"\n##+ ", md.split("### Warnings", 1)[1], 1)[0] if "### Warnings" in md else ""
check(sum(1 for l in warnings_md.splitlines() if l.startswith("- ")) <= len(groups), "warnings of a kind are listed one by one")
check(len(stderr.splitlines()) <= 6, "%d lines on stderr" % len(stderr.splitlines()))
for name in ("speed_ratio", "accuracy_delta", "kv_capacity"):
    svg = open(os.path.join(out, "charts", name + ".svg")).read()
    desc = re.search(r"<desc>(.*?)</desc>", svg, re.S)
    drawn = len(set(re.findall(r"sweeporg/ckpt-\d+", desc.group(1)))) if desc else 0
    check(0 < drawn <= 40, "charts/%s.svg draws %d entries (1 to 40)" % (name, drawn))
    # The drawn and the left out add up to the export: every entry, the
    # baseline a row of the KV chart only (the others' reference line).
    cut = desc and re.search(r"left out, the ([0-9,]+) between them", desc.group(1))
    check(cut and drawn + int(cut.group(1).replace(",", "")) == (1000 if name == "kv_capacity" else 999),
          "charts/%s.svg does not say how many entries it leaves out" % name)
for p in problems:
    print("FAIL many: " + p)
print("many: 1,000 models: %d pages, %.1f MiB of HTML, %d-character summary, %d warning kinds%s"
      % (pages, html / 1048576, len(summary), len(groups), "" if not problems else "; %d problems" % len(problems)))
sys.exit(1 if problems else 0)
PY
