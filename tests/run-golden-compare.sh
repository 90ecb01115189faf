#!/bin/sh
# Golden and bad-input cases of `sweep-report compare`. Each
# tests/golden-compare/<case>/ names the two exports (before/ and after/
# inside the case, or repository paths in before_path and after_path),
# optional extra arguments (args), the exit code expected (exit_code, default
# 0), expected/ outputs compared byte for byte, an optional independent check
# (check: "script.py MODE", run as script.py MODE compare.json CASE_DIR), and
# lines that must all appear on stderr (stderr_contains). Every case runs
# twice, the second time on one thread: the outputs must be identical. An
# input error (exit 3) must leave OUT_DIR as it was; exit 4
# (--fail-on-regression) must still write every output.
# UPDATE_GOLDEN=1 rewrites expected/ from the current binary (review the diff).
set -u
bin=${1:?usage: run-golden-compare.sh path/to/sweep-report}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

side() { # side CASE_DIR before|after: the export's path, relative to the repository
    if [ -d "$1/$2" ]; then echo "${1#"$root"/}$2"; else cat "$1/$2_path"; fi
}

for case in "$root"/tests/golden-compare/*/; do
    name=$(basename "$case")
    [ -f "$case/exit_code" ] || [ -d "$case/expected" ] || [ -f "$case/check" ] || continue # export data only
    before=$(side "$case" before)
    after=$(side "$case" after)
    args=$(cat "$case/args" 2>/dev/null || true)
    want_code=$(cat "$case/exit_code" 2>/dev/null || echo 0)
    ok=1
    for run in 1 2; do
        out="$tmp/$name-$run"
        mkdir -p "$out" && echo keep >"$out/existing.txt"
        threads=; [ $run = 2 ] && threads="--threads 1"
        # shellcheck disable=SC2086
        (cd "$root" && "$bin" compare "$before" "$after" -o "$out" $args $threads) >"$tmp/$name-$run.log" 2>&1
        code=$?
        if [ "$code" != "$want_code" ]; then
            echo "FAIL $name: exit $code, expected $want_code"; sed 's/^/    /' "$tmp/$name-$run.log" | head -20; ok=0
        fi
    done
    if [ "$want_code" = 3 ] || [ "$want_code" = 2 ]; then
        [ "$(ls "$tmp/$name-1")" = existing.txt ] || { echo "FAIL $name: OUT_DIR was written to on error"; ok=0; }
    fi
    if [ "$want_code" = 0 ] || [ "$want_code" = 4 ]; then
        for f in compare.json compare.csv compare.md compare.html compare.pdf charts/accuracy_change.png \
            charts/accuracy_change.svg charts/speed_change.png charts/speed_change.svg; do
            [ -s "$tmp/$name-1/$f" ] || { echo "FAIL $name: $f not written"; ok=0; }
        done
        if ! diff -r "$tmp/$name-1" "$tmp/$name-2" >/dev/null; then
            echo "FAIL $name: two runs differ:"; diff -rq "$tmp/$name-1" "$tmp/$name-2" | head; ok=0
        fi
        if [ "${UPDATE_GOLDEN:-0}" = 1 ] && [ -d "$case/expected" ]; then
            for f in "$case"/expected/*; do [ -f "$f" ] && cp "$tmp/$name-1/$(basename "$f")" "$f"; done
            echo "updated $name"
        fi
        expect_files "$name" "$case" "$tmp/$name-1" || ok=0
        if [ -f "$case/check" ]; then
            # shellcheck disable=SC2046
            set -- $(cat "$case/check")
            python3 "$root/$1" "$2" "$tmp/$name-1/compare.json" "$case" || { echo "FAIL $name: $(cat "$case/check")"; ok=0; }
        fi
    fi
    if [ -f "$case/stderr_contains" ]; then
        while IFS= read -r line; do
            [ -n "$line" ] || continue
            grep -qF -- "$line" "$tmp/$name-1.log" || {
                echo "FAIL $name: stderr lacks '$line':"; sed 's/^/    /' "$tmp/$name-1.log" | head; ok=0; }
        done <"$case/stderr_contains"
    fi
    if [ $ok = 1 ]; then pass=$((pass + 1)); echo "ok   $name"; else fail=$((fail + 1)); fi
done
echo "golden compare: $pass passed, $fail failed"
[ $fail = 0 ]
