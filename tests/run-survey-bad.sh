#!/bin/sh
# Bad inputs of `sweep-report survey`, its counterpart of run-bad-inputs.sh:
# each line of tests/survey/bad.tsv damages a copy of fixtures/hub-survey
# (name, args, action, file, content, exit, fragment; actions as
# tests/lib.sh's damage() lists them); a non-zero exit must name the problem on
# stderr and leave OUT_DIR untouched, exit 0 must put the fragment in
# candidates.json. (Its golden cases are in tests/cases/survey/.)
set -u
bin=${1:?usage: run-survey-bad.sh path/to/sweep-report}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run_bad_cases "$root/tests/survey/bad.tsv" "$root/fixtures/hub-survey" meta survey candidates.json
echo "survey bad inputs: $pass passed, $fail failed"
[ $fail = 0 ]
