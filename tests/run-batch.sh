#!/bin/sh
# scripts/sweep-batch.sh (docs/scale.md), the single-machine recipe: three
# exports two at a time into their own OUT_DIRs and one --db; run again, it
# adds nothing; a broken export fails alone (named, exit 1) while the others
# are reported and appended; exports from standard input with -.
#   sh tests/run-batch.sh path/to/sweep-report
set -u
bin=${1:?usage: run-batch.sh path/to/sweep-report}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL batch: $1"; fail=$((fail + 1)); }
sweeps() { python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM sweeps").fetchone()[0])' "$1"; }
cd "$root" || exit 1
A=fixtures/v5e-gemma4-formats B=fixtures/v5e-gemma4-rerun C=tests/cases/report/per-request/export
sh scripts/sweep-batch.sh -b "$bin" -j 2 --db "$tmp/team.db" -o "$tmp/out" "$A" "$B" "$C" -- --resamples 1000 \
    --outputs json,csv,sqlite >"$tmp/log" 2>&1
rc=$?
[ $rc = 0 ] && ok || bad "three exports: exit $rc: $(tail -3 "$tmp/log")"
for d in fixtures_v5e-gemma4-formats fixtures_v5e-gemma4-rerun tests_cases_report_per-request_export; do
    [ -s "$tmp/out/$d/report.json" ] && [ -s "$tmp/out/$d/report.sqlite" ] && [ ! -e "$tmp/out/$d/report.pdf" ] && ok ||
        bad "no report in $d (or --outputs not passed on)"
done
[ "$(sweeps "$tmp/team.db")" = 3 ] && ok || bad "$(sweeps "$tmp/team.db") sweeps, expected 3"
cp "$tmp/team.db" "$tmp/before.db"
printf '%s\n%s\n' "$A" "$C" | sh scripts/sweep-batch.sh -b "$bin" -j 2 --db "$tmp/team.db" -o "$tmp/out" - -- \
    --resamples 1000 --outputs json,csv,sqlite >"$tmp/log" 2>&1
[ $? = 0 ] && ok || bad "again from standard input: $(tail -2 "$tmp/log")"
grep -q "has this sweep already" "$tmp/out/logs/fixtures_v5e-gemma4-formats.log" && cmp -s "$tmp/team.db" "$tmp/before.db" &&
    ok || bad "run again, the database changed"
mkdir -p "$tmp/broken/m" && printf '{"output_throughput": ' >"$tmp/broken/m/bench.json"
sh scripts/sweep-batch.sh -b "$bin" -j 2 --db "$tmp/t2.db" -o "$tmp/out2" "$tmp/broken" "$B" -- --resamples 1000 \
    --outputs json >"$tmp/log" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "1 failed" "$tmp/log" && grep -q "broken" "$tmp/log" && ok || bad "a broken export: exit $rc: $(cat "$tmp/log")"
[ "$(sweeps "$tmp/t2.db")" = 1 ] && ok || bad "the good export beside a broken one was not appended"
sh scripts/sweep-batch.sh -b "$bin" -o "$tmp/out3" "$A" >/dev/null 2>&1
[ $? = 2 ] && ok || bad "no --db: not a usage error"
echo "batch: $pass passed, $fail failed"
[ "$fail" = 0 ]
