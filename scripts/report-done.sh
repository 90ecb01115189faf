#!/bin/sh
# The end of `make report`: what it wrote, directory by directory, and where
# to start reading. Usage: scripts/report-done.sh REPORT_DIR
set -eu
dir=${1:-reports}
# files DIR: the files directly in DIR (not its subdirectories), on one line
files() { (cd "$1" && for f in *; do [ -f "$f" ] && printf '%s ' "$f"; done); }
charts() { [ -d "$1/charts" ] && printf 'charts/ (%s files)' "$(ls "$1/charts" | wc -l | tr -d ' ')"; }
echo
echo "make report: wrote"
for d in "$dir" "$dir/compare" "$dir/survey"; do
    [ -d "$d" ] && printf '  %-16s %s\n' "$d/" "$(echo "$(files "$d")$(charts "$d" || true)" | sed 's/ *$//')"
done
echo "Start reading at $dir/report.html (or $dir/report.pdf); $dir/results.md is the digest."
