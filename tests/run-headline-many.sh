#!/bin/sh
# Issue 31 at scale (make cli): 160 entries made by bench/gen_export.py into
# a temporary directory (never committed), then reshaped off the happy path:
# four compared on speed only (their scores removed), two that never ran
# (only a server log that died at load), and two that ran only a scenario
# the baseline did not (incomparable). Reported once by default and once
# with --equivalence-margin 2 and --simultaneous; each report is held to
# tests/check_headline.py (the headline, counts, statuses and interval
# levels derived from report.json, looked for in results.md, report.html
# and report.pdf), and the trade-off chart must keep lower entries visible
# and say how many it leaves out. About 20 s.
#   sh tests/run-headline-many.sh path/to/sweep-report
set -eu
bin=${1:?usage: run-headline-many.sh path/to/sweep-report}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
[ -n "${KEEP_TMP:-}" ] && echo "keeping $tmp" || trap 'rm -rf "$tmp"' EXIT
ex="$tmp/export"
python3 "$root/bench/gen_export.py" --models 160 --gsm8k-items 60 --bfcl-items 40 --runs 3 --out "$ex" \
    >"$tmp/gen.log" 2>&1 || { echo "FAIL headline-many: gen_export.py failed"; cat "$tmp/gen.log"; exit 1; }
python3 - "$ex" <<'PY'
import glob, json, os, re, shutil, sys
ex = sys.argv[1]
d = lambda i: os.path.join(ex, "ckpt-%05d" % i)
for i in (5, 6, 7, 8):  # speed only: no scores
    shutil.rmtree(os.path.join(d(i), "lm_eval"))
    shutil.rmtree(os.path.join(d(i), "bfcl"), ignore_errors=True)
for i in (11, 12):  # never ran: a server log that died at load, nothing else
    for sub in ("lm_eval", "bfcl", "bench"):
        shutil.rmtree(os.path.join(d(i), sub), ignore_errors=True)
    log = os.path.join(d(i), "server", "vllm-server.log")
    head = open(log).read().splitlines()[:7]  # up to the engine's config line, which names the model
    with open(log, "w") as fh:
        fh.write("\n".join(head) + "\n"
                 "(EngineCore_DP0 pid=305) ERROR 11-02 12:13:30 [core.py:700] EngineCore failed to start.\n"
                 "(EngineCore_DP0 pid=305) ERROR 11-02 12:13:30 [core.py:700] Traceback (most recent call last):\n"
                 '(EngineCore_DP0 pid=305) ERROR 11-02 12:13:30 [core.py:700]   File "/usr/lib/python3/vllm/engine.py", '
                 "line 1, in <module>\n"
                 "(EngineCore_DP0 pid=305) ERROR 11-02 12:13:30 [core.py:700] torch.OutOfMemoryError: CUDA out of "
                 "memory. Tried to allocate 2.00 GiB\n")
for i in (20, 21):  # incomparable: only a 4,096-token scenario, no scores
    for sub in ("lm_eval", "bfcl"):
        shutil.rmtree(os.path.join(d(i), sub), ignore_errors=True)
    for path in glob.glob(os.path.join(d(i), "bench", "*", "*.json")):
        text = open(path).read()
        text = re.sub(r'"input_len": "\d+"', '"input_len": "4096"', text)
        text = re.sub(r'"total_input_tokens": (\d+)', lambda m: '"total_input_tokens": %d' % (int(m.group(1)) * 64), text)
        open(path, "w").write(text)
PY
status=0
# --simultaneous over 155 comparisons reads each interval at 99.967%, which needs 155,000 resamples.
for opts in "--resamples 1000" "--equivalence-margin 2 --simultaneous --resamples 160000"; do
    name=$(printf '%s' "$opts" | tr -c 'a-z0-9' '-')
    out="$tmp/out-$name"
    # shellcheck disable=SC2086
    if ! "$bin" report "$ex" -o "$out" $opts >"$tmp/stdout" 2>"$tmp/stderr"; then
        echo "FAIL headline-many ($opts): exit code"; head -5 "$tmp/stderr"; status=1; continue
    fi
    python3 "$root/tests/check_headline.py" "$out" || status=1
    python3 - "$out" <<'PY' || status=1
import json, os, re, sys
out = sys.argv[1]
report = json.load(open(os.path.join(out, "report.json")))
problems = []
statuses = [m["status"] for m in report["models"]]
for want, n in (("failed", 2), ("incomparable", 2)):
    if statuses.count(want) != n:
        problems.append("%d entries %s, expected %d" % (statuses.count(want), want, n))
svg = open(os.path.join(out, "charts", "tradeoff.svg")).read()
desc = re.search(r"<desc>(.*?)</desc>", svg, re.S)
text = desc.group(1) if desc else ""
lower = [m for m in report["overview"] if any(b["verdict"] == "lower" for b in m["benchmarks"].values())]
if lower and "lower" not in text:
    problems.append("the trade-off chart draws no lower entry though %d are lower" % len(lower))
if not re.search(r"[0-9,]+ [a-z ]*left out", text):
    problems.append("the trade-off chart does not say how many entries it leaves out: %s" % text[:300])
for p in problems:
    print("FAIL headline-many: " + p)
sys.exit(1 if problems else 0)
PY
done
[ $status = 0 ] && echo "headline-many: 160 entries, 2 option sets: ok"
exit $status
