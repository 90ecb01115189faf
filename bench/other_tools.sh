#!/bin/sh
# Issue 41's speed target: a ~BENCH_OTHER_MB MB AIPerf profile_export.jsonl and a
# ~BENCH_OTHER_MB MB Inspect .eval are read in at most 2x the time of a vLLM
# --save-detailed result of the same size (bench/gen_other_tools.py writes the
# three exports). Each `sweep-report report EXPORT --outputs json` runs
# BENCH_OTHER_ROUNDS times (default 5), the three interleaved, under
# /usr/bin/time; the medians of CPU time (user + sys), wall time and peak RSS
# are printed with the ratios to the vLLM file's.
#   sh bench/other_tools.sh [BIN]        (make bench runs it; BENCH_OTHER_MB=0 skips)
set -u
cd "$(dirname "$0")/.." || exit 1
BIN=${1:-./sweep-report}
MB=${BENCH_OTHER_MB:-100}
ROUNDS=${BENCH_OTHER_ROUNDS:-5}
[ "$MB" = 0 ] && { echo "other tools: skipped (BENCH_OTHER_MB=0)"; exit 0; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/sr-bench-other.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
python3 bench/gen_other_tools.py --out "$TMP/data" --mb "$MB" >&2 || exit 1
for k in vllm aiperf inspect inspect-samples; do
    printf '%s: %s MB\n' "$k" "$(du -sm "$TMP/data/$k" | cut -f1)" >&2
done
r=0
while [ $r -lt "$ROUNDS" ]; do
    for k in vllm aiperf inspect inspect-samples; do
        /usr/bin/time -f '%U %S %e %M' -o "$TMP/t" "$BIN" report "$TMP/data/$k" -o "$TMP/out-$k" --outputs json \
            >/dev/null 2>"$TMP/err" || { echo "other tools: $k failed: $(tail -1 "$TMP/err")" >&2; exit 1; }
        awk -v k="$k" '{ printf "%s %.3f %.3f %.0f\n", k, $1 + $2, $3, $4 / 1024 }' "$TMP/t" >>"$TMP/times"
    done
    r=$((r + 1))
done
python3 - "$TMP/times" "$MB" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    k, cpu, wall, rss = line.split()
    rows.setdefault(k, []).append((float(cpu), float(wall), float(rss)))
med = {k: [statistics.median(x[i] for x in v) for i in range(3)] for k, v in rows.items()}
print(f"other tools, ~{sys.argv[2]} MB each, median of {len(rows['vllm'])} interleaved runs (CPU = user + sys):")
print(f"{'file':<36} {'CPU s':>7} {'wall s':>7} {'RSS MiB':>8} {'CPU / vLLM':>11}  target")
names = {"vllm": "vLLM --save-detailed result", "aiperf": "AIPerf profile_export.jsonl (+ JSON)",
         "inspect": "Inspect .eval (zip)", "inspect-samples": "  the same, scores only in samples"}
ok = True
for k in ("vllm", "aiperf", "inspect", "inspect-samples"):
    cpu, wall, rss = med[k]
    ratio = cpu / med["vllm"][0]
    verdict = "" if k == "vllm" else ("<= 2x: met" if ratio <= 2 else "<= 2x: NOT met")
    ok &= k == "vllm" or ratio <= 2
    print(f"{names[k]:<36} {cpu:>7.3f} {wall:>7.3f} {rss:>8.0f} {ratio:>11.2f}  {verdict}")
sys.exit(0 if ok else 1)
PY
