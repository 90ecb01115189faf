#!/bin/sh
# The sample report, and its comparison with the rerun (RERUN, default
# fixtures/v5e-gemma4-rerun), under valgrind: no memory errors, no definite
# leaks.
# The fewest resamples allowed (1,000 at 95 %) keep it short; the code paths are
# the same. Library-internal caches (fontconfig, cairo) are suppressed in
# tests/valgrind.supp, never our own frames.
set -u
bin=${1:?usage: run-valgrind.sh path/to/sweep-report EXPORT_DIR [METADATA_DIR]}
export_dir=${2:?usage: run-valgrind.sh path/to/sweep-report EXPORT_DIR [METADATA_DIR]}
metadata_dir=${3:-}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --show-leak-kinds=definite --suppressions="$root/tests/valgrind.supp" \
    "$bin" report "$export_dir" -o "$out/report" --resamples 1000 >"$out/log" 2>&1
code=$?
runs=1
# The survey of saved Hub metadata too, when given (make leakcheck).
if [ $code = 0 ] && [ -n "$metadata_dir" ]; then
    runs=2
    valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
        --show-leak-kinds=definite --suppressions="$root/tests/valgrind.supp" \
        "$bin" survey "$metadata_dir" -o "$out/survey" >"$out/log" 2>&1
    code=$?
fi
if [ $code != 0 ]; then
    cat "$out/log"
    echo "valgrind: $((runs - 1)) passed, 1 failed (exit $code)"
    exit 1
fi
runs=$((runs + 1))
rerun=${RERUN:-$root/fixtures/v5e-gemma4-rerun}
valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --show-leak-kinds=definite --suppressions="$root/tests/valgrind.supp" \
    "$bin" compare "$export_dir" "$rerun" -o "$out/compare" --resamples 1000 --fail-on-regression >"$out/log" 2>&1
code=$?
if [ $code != 4 ]; then # the sample pair has regressions: exit 4 is the pass
    cat "$out/log"
    echo "valgrind: $((runs - 1)) passed, 1 failed (compare exit $code)"
    exit 1
fi
echo "valgrind: $runs passed, 0 failed"
