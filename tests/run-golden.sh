#!/bin/sh
# Golden cases: each tests/golden/<case>/ names an export (export/ inside the
# case, or a path in export_path), optional extra arguments (args), the exit
# code expected (exit_code, default 0) and expected/ outputs compared byte for
# byte. Every case is also run twice to check the outputs are identical.
# UPDATE_GOLDEN=1 rewrites expected/ from the current binary (review the diff).
set -u
bin=${1:?usage: run-golden.sh path/to/sweep-report}
root=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for case in "$root"/tests/golden/*/; do
    name=$(basename "$case")
    if [ -d "$case/export" ]; then export_dir="$case/export"; else export_dir="$root/$(cat "$case/export_path")"; fi
    args=$(cat "$case/args" 2>/dev/null || true)
    want_code=$(cat "$case/exit_code" 2>/dev/null || echo 0)
    ok=1
    for run in 1 2; do
        out="$tmp/$name-$run"
        # shellcheck disable=SC2086
        (cd "$root" && "$bin" report "$export_dir" -o "$out" $args) >"$tmp/$name-$run.log" 2>&1
        code=$?
        if [ "$code" != "$want_code" ]; then
            echo "FAIL $name: exit $code, expected $want_code"; sed 's/^/    /' "$tmp/$name-$run.log" | head -20; ok=0
        fi
    done
    if [ "$want_code" = 0 ] && [ $ok = 1 ]; then
        # Byte-identical outputs across runs, for every file (PDF, PNG, SVG included).
        if ! diff -r "$tmp/$name-1" "$tmp/$name-2" >/dev/null; then
            echo "FAIL $name: two runs differ:"; diff -rq "$tmp/$name-1" "$tmp/$name-2" | head; ok=0
        fi
        if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
            mkdir -p "$case/expected"
            for f in "$case"/expected/*; do [ -f "$f" ] && cp "$tmp/$name-1/$(basename "$f")" "$f"; done
            [ -n "$(ls "$case/expected")" ] || cp "$tmp/$name-1/report.json" "$tmp/$name-1/results.md" "$tmp/$name-1/results.csv" "$case/expected/"
            echo "updated $name"
        fi
        for f in "$case"/expected/*; do
            [ -f "$f" ] || continue
            if ! cmp -s "$f" "$tmp/$name-1/$(basename "$f")"; then
                echo "FAIL $name: $(basename "$f") differs from expected:"
                diff -u "$f" "$tmp/$name-1/$(basename "$f")" | head -40
                ok=0
            fi
        done
    fi
    if [ -f "$case/stderr_contains" ] && ! grep -qF -- "$(cat "$case/stderr_contains")" "$tmp/$name-1.log"; then
        echo "FAIL $name: stderr lacks '$(cat "$case/stderr_contains")':"; sed 's/^/    /' "$tmp/$name-1.log" | head; ok=0
    fi
    if [ $ok = 1 ]; then pass=$((pass + 1)); echo "ok   $name"; else fail=$((fail + 1)); fi
done
echo "golden: $pass passed, $fail failed"
[ $fail = 0 ]
