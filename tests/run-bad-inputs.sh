#!/bin/sh
# Bad-input suite. Each line of tests/bad/cases.tsv damages a copy of the
# small valid export tests/bad/base and states what must happen:
#   name <TAB> args <TAB> action <TAB> file <TAB> content <TAB> exit code <TAB> message fragment
# actions as tests/lib.sh's damage() lists them. "-" stands for an empty field.
# A non-zero exit must print the fragment on stderr and leave OUT_DIR
# untouched; exit 0 (--keep-going) must put the fragment in report.json.
set -u
bin=${1:?usage: run-bad-inputs.sh path/to/sweep-report}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run_bad_cases "$root/tests/bad/cases.tsv" "$root/tests/bad/base" export report report.json
echo "bad inputs: $pass passed, $fail failed"
[ $fail = 0 ]
