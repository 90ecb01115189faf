#!/bin/sh
# The sample report, and its comparison with the rerun (RERUN, default
# fixtures/v5e-gemma4-rerun), under valgrind: no memory errors, no definite
# leaks.
# Fewer resamples than the default keep it to a minute; the code paths are
# the same. Library-internal caches (fontconfig, cairo) are suppressed in
# tests/valgrind.supp, never our own frames.
set -u
bin=${1:?usage: run-valgrind.sh path/to/sweep-report EXPORT_DIR}
export_dir=${2:?usage: run-valgrind.sh path/to/sweep-report EXPORT_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --show-leak-kinds=definite --suppressions="$root/tests/valgrind.supp" \
    "$bin" report "$export_dir" -o "$out/report" --resamples 300 >"$out/log" 2>&1
code=$?
if [ $code != 0 ]; then
    cat "$out/log"
    echo "valgrind: 0 passed, 1 failed (exit $code)"
    exit 1
fi
rerun=${RERUN:-$root/fixtures/v5e-gemma4-rerun}
valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --show-leak-kinds=definite --suppressions="$root/tests/valgrind.supp" \
    "$bin" compare "$export_dir" "$rerun" -o "$out/compare" --resamples 300 --fail-on-regression >"$out/log" 2>&1
code=$?
if [ $code != 4 ]; then # the sample pair has regressions: exit 4 is the pass
    cat "$out/log"
    echo "valgrind: 1 passed, 1 failed (compare exit $code)"
    exit 1
fi
echo "valgrind: 2 passed, 0 failed"
