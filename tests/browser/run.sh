#!/bin/sh
# Browser test for report.html (make browser-test): render the hand-built
# sweep of tests/unit/render_fixture.c (hostile names included) through the
# unit-test binary, then open it in headless Chromium (Debian's chromium):
#   - a screenshot is not blank,
#   - the DOM after load holds the table's figures,
#   - the hostile sweep name and model id arrive as text, not as elements,
#   - printing gives a PDF whose text holds the figures (print CSS),
#   - at a phone's 390 px the title block stacks, the page does not scroll
#     sideways, and a wide table's Model column stays while it scrolls.
# Then the survey's and the comparison's pages (candidates.html and
# compare.html of the bundled fixtures, as make report writes them):
#   - at 1,400 px every table fits its column: no heading clipped, no inner
#     scroll (issue 31: the survey's KV tokens, max concurrency and flags
#     and compare's n paired were cut off),
#   - at 390 px the page does not scroll sideways, and its widest table
#     scrolls with its first column staying; compare's Before / After table
#     shows both sides without a scroll (issue 37).
# Then the Overview of a report without a baseline (the bucket sample): it
# fits 1,400 px, its per-scenario columns wrapping (issue 37).
# Usage: tests/browser/run.sh BUILD/unit-tests BUILD/sweep-report
set -eu
tests=${1:?usage: run.sh BUILD/unit-tests BUILD/sweep-report}
tool=${2:?usage: run.sh BUILD/unit-tests BUILD/sweep-report}
root=$(cd "$(dirname "$0")/../.." && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "browser-test: chromium missing (apt-get install chromium)" >&2
    exit 1
fi
out=$(mktemp -d /tmp/sr-browser-XXXXXX)
trap 'rm -rf "$out"' EXIT
fail() { echo "browser-test: $*" >&2; exit 1; }

SR_TEST_OUT=$out "$tests" --filter 'html_report/escapes_every_input_text' >/dev/null 2>&1 ||
    fail "the unit test that writes report.html failed"
[ -s "$out/report.html" ] || fail "no report.html was written"

chrome() {
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --no-first-run --user-data-dir="$out/profile" "$@" 2>/dev/null
}

# 1. A screenshot with something on it.
chrome --screenshot="$out/shot.png" --window-size=1400,2000 "file://$out/report.html" >/dev/null ||
    fail "chromium could not take a screenshot"
python3 - "$out/shot.png" <<'PY' || fail "the screenshot is blank"
import sys, struct, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, width = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        width = struct.unpack(">I", body[:4])[0]
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
distinct = len(set(raw[: 4 * 1024 * 1024]))
print("screenshot: %d px wide, %d distinct byte values" % (width, distinct))
sys.exit(0 if width >= 1400 and distinct > 16 else 1)
PY

# 2. and 3. The DOM after load: figures present, hostile text inert.
chrome --dump-dom "file://$out/report.html" >"$out/dom.html" || fail "chromium could not load the page"
for want in '+24.9 [+21.9, +27.8]' '321,280' '0.56x' '10,000' 'no measured difference' \
    '&lt;script&gt;alert(1)&lt;/script&gt;' 'evil/&lt;img src=x onerror=alert(1)&gt;'; do
    grep -qF -- "$want" "$out/dom.html" || fail "the page lacks '$want'"
done
grep -qF '<script>alert(1)</script>' "$out/dom.html" && fail "the hostile sweep name became a script element"
grep -qiE '<img[^>]*onerror' "$out/dom.html" && fail "the hostile model id became an img element"
[ "$(grep -c '<script' "$out/dom.html")" -eq 1 ] || fail "more than our one script element"
# Sortable headings became keyboard buttons once the page's script ran.
grep -qF '<button type="button" class="sort">' "$out/dom.html" || fail "the sortable headings are not buttons"

# 4. Printing (print CSS) keeps the figures.
chrome --print-to-pdf="$out/print.pdf" --no-pdf-header-footer "file://$out/report.html" >/dev/null ||
    fail "chromium could not print the page"
if command -v pdftotext >/dev/null 2>&1; then
    pdftotext "$out/print.pdf" - 2>/dev/null | grep -qF '+24.9 [+21.9, +27.8]' || fail "the printed page lacks the table"
fi
# 5. A phone's width. Headless windows are at least 500 px wide, so the
# page is loaded in a 390 px frame, with a probe that measures the layout.
# $1: the page; $2: "report" (its title block must stack too) or "doc".
at_390() {
    python3 - "$1" "$(dirname "$0")/mobile_probe.html" "$out/mobile.html" <<'PY'
import sys
page, probe = open(sys.argv[1]).read(), open(sys.argv[2]).read()
assert "</body>" in page
open(sys.argv[3], "w").write(page.replace("</body>", probe + "</body>", 1))
PY
    cat >"$out/frame.html" <<'EOF'
<!DOCTYPE html><html><body><script>
window.addEventListener('message', function (e) { document.body.setAttribute('data-layout', e.data); });
</script><iframe src="mobile.html" style="width:390px;height:844px;border:0"></iframe></body></html>
EOF
    chrome --window-size=1000,900 --virtual-time-budget=5000 --dump-dom "file://$out/frame.html" >"$out/frame-dom.html" ||
        fail "chromium could not load $(basename "$1") in a 390 px frame"
    python3 - "$out/frame-dom.html" "$2" "$(basename "$1")" <<'PY' || fail "$(basename "$1") does not fit a 390 px screen"
import html, json, re, sys
m = re.search(r'data-layout="([^"]*)"', open(sys.argv[1]).read())
if not m:
    sys.exit("the probe reported nothing")
r = json.loads(html.unescape(m.group(1)))
print("%s at 390 px:" % sys.argv[3], r)
problems = []
if r["vw"] != 390: problems.append("the frame is %s px wide, not 390" % r["vw"])
if r["docw"] > r["vw"]: problems.append("the page scrolls sideways (%s px of %s)" % (r["docw"], r["vw"]))
if sys.argv[2] == "report" and not r["stacked"]: problems.append("the title block's labels and values are side by side")
if r["sticky"] != "sticky" or r.get("head_sticky") != "sticky": problems.append("the first column is not sticky")
if r.get("scrolled", 0) <= 0: problems.append("the wide table did not scroll")
if r.get("left") != 0 or r.get("head_left") != 0: problems.append("the first column moved when the table scrolled")
if "sides_fit" in r and not r["sides_fit"]: problems.append("the Before / After table does not fit the screen")
for p in problems: print("browser-test: %s: %s" % (sys.argv[3], p), file=sys.stderr)
sys.exit(1 if problems else 0)
PY
}

# At 1,400 px every table of the page fits its column, no heading clipped ($2: only the table of
# that id).
at_1400() {
    python3 - "$1" "$(dirname "$0")/wide_probe.html" "$out/wide.html" <<'PY'
import sys
page, probe = open(sys.argv[1]).read(), open(sys.argv[2]).read()
assert "</body>" in page
open(sys.argv[3], "w").write(page.replace("</body>", probe + "</body>", 1))
PY
    chrome --window-size=1400,1000 --virtual-time-budget=5000 --dump-dom "file://$out/wide.html" >"$out/wide-dom.html" ||
        fail "chromium could not load $(basename "$1") at 1,400 px"
    python3 - "$out/wide-dom.html" "$(basename "$1")" ${2:-} <<'PY' || fail "$(basename "$1") clips a table at 1,400 px"
import html, json, re, sys
m = re.search(r'data-layout="([^"]*)"', open(sys.argv[1]).read())
if not m:
    sys.exit("the probe reported nothing")
r = json.loads(html.unescape(m.group(1)))
print("%s at 1,400 px: %d tables, widest %d px in a %d px column" % (
    sys.argv[2], len(r["tables"]), max([t["scroll"] for t in r["tables"]] or [0]),
    max([t["width"] for t in r["tables"]] or [0])))
problems = []
if r["vw"] != 1400: problems.append("the window is %s px wide, not 1,400" % r["vw"])
if r["docw"] > r["vw"]: problems.append("the page scrolls sideways (%s px of %s)" % (r["docw"], r["vw"]))
if not r["tables"]: problems.append("no table")
only = sys.argv[3] if len(sys.argv) > 3 else None  # one table's id: only it is held to the page
for t in r["tables"]:
    if only and t["id"] != only:
        continue
    if t["clipped"]: problems.append("table %s cuts off %s" % (t["id"], ", ".join(t["clipped"])))
    if t["scroll"] > t["width"]: problems.append("table %s is %d px in a %d px column" % (t["id"], t["scroll"], t["width"]))
for p in problems: print("browser-test: %s: %s" % (sys.argv[2], p), file=sys.stderr)
sys.exit(1 if problems else 0)
PY
}

at_390 "$out/report.html" report
echo "browser-test: report.html passed (screenshot, DOM, hostile names, print, 390 px)"

# The survey's and the comparison's pages of the bundled fixtures.
"$tool" survey "$root/fixtures/hub-survey" -o "$out/survey" >/dev/null 2>&1 || fail "sweep-report survey failed"
"$tool" compare "$root/fixtures/v5e-gemma4-formats" "$root/fixtures/v5e-gemma4-rerun" -o "$out/compare" \
    >/dev/null 2>&1 || fail "sweep-report compare failed"
for page in "$out/survey/candidates.html" "$out/compare/compare.html"; do
    at_1400 "$page"
    at_390 "$page" doc
done
echo "browser-test: candidates.html and compare.html passed (1,400 px: no table clipped; 390 px)"
# Issue 37 (ux 7): the Overview of a sweep without a baseline (the author's bucket never has a
# sweep.json) fits 1,400 px, its per-scenario columns wrapping; compare's Before / After table
# fits a phone (checked above by the probe, sides_fit).
"$tool" report "$root/fixtures/v5e-gemma4-sweep/2026-11-02-sweep-v5e1" --configs "$root/fixtures/configs" -o "$out/nobase" >/dev/null 2>&1 ||
    fail "sweep-report report (no baseline) failed"
grep -q "No baseline was named" "$out/nobase/results.md" || fail "the bucket run folder has a baseline: no check of the no-baseline Overview"
at_1400 "$out/nobase/report.html" overview
echo "browser-test: the no-baseline Overview passed (1,400 px)"
