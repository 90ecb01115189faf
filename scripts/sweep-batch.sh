#!/bin/sh
# Report many exports on one machine, a few at a time, each into its own
# OUT_DIR, every one appended to one database of sweeps (docs/scale.md).
#
#   scripts/sweep-batch.sh --db FILE -o OUT_ROOT [-j JOBS] [-b BINARY] EXPORT... [-- REPORT_OPTIONS...]
#   find runs/ -mindepth 1 -maxdepth 1 -type d | scripts/sweep-batch.sh --db team.db -o reports -
#
# Each EXPORT (or each line of standard input, with -) becomes
# `sweep-report report EXPORT -o OUT_ROOT/NAME --db FILE REPORT_OPTIONS`,
# JOBS at once (default: the cores; xargs -P), NAME the export's path with
# '/' made '_' (so two exports of one folder name stay apart). Writers of
# FILE take turns through SQLite's lock (--db-wait); an export already in
# FILE adds nothing, so the batch can be run again after a failure. Each
# run's terminal output is in OUT_ROOT/logs/NAME.log. Exit 0 when every
# export was reported, 1 naming those that were not.
set -u
usage() {
    echo "usage: $0 --db FILE -o OUT_ROOT [-j JOBS] [-b BINARY] EXPORT... [-- REPORT_OPTIONS...]" >&2
    echo "       (EXPORT - reads the exports from standard input, one a line)" >&2
    exit 2
}
db= out= jobs= bin=
here=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$here/sweep-report" ] && bin="$here/sweep-report"
list=$(mktemp) || exit 1
opts=$(mktemp) || exit 1
trap 'rm -f "$list" "$opts"' EXIT
while [ $# -gt 0 ]; do
    case "$1" in
    --db) [ $# -ge 2 ] || usage; db=$2; shift 2 ;;
    -o) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    -j) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
    -b) [ $# -ge 2 ] || usage; bin=$2; shift 2 ;;
    --) shift; for a in "$@"; do printf '%s\n' "$a"; done >"$opts"; break ;;
    -) cat >>"$list"; shift ;;
    -*) usage ;;
    *) printf '%s\n' "$1" >>"$list"; shift ;;
    esac
done
[ -n "$db" ] && [ -n "$out" ] && [ -s "$list" ] || usage
[ -n "$bin" ] || bin=$(command -v sweep-report) || { echo "$0: no sweep-report (give -b BINARY)" >&2; exit 2; }
case "$jobs" in '' ) jobs=$(nproc 2>/dev/null || echo 2) ;; *[!0-9]* | 0) usage ;; esac
mkdir -p "$out/logs" || exit 1

# One export: its report, its log, a line in OUT_ROOT/logs/failed when it failed.
# (xargs runs this with the export as $1; the paths and options come in the environment.)
export SR_BATCH_BIN="$bin" SR_BATCH_DB="$db" SR_BATCH_OUT="$out" SR_BATCH_OPTS="$opts"
: >"$out/logs/failed"
one='
    name=$(printf "%s" "$1" | sed -e "s|/*$||" -e "s|^\./||" -e "s|/|_|g")
    [ -n "$name" ] || name=export
    set -- "$1"
    while IFS= read -r o; do set -- "$@" "$o"; done <"$SR_BATCH_OPTS"
    export_dir=$1; shift
    "$SR_BATCH_BIN" report "$export_dir" -o "$SR_BATCH_OUT/$name" --db "$SR_BATCH_DB" "$@" \
        >"$SR_BATCH_OUT/logs/$name.log" 2>&1 </dev/null
    rc=$?
    if [ $rc -ne 0 ]; then
        printf "%s\t%s\t%s\n" "$export_dir" "$rc" "$(tail -n 1 "$SR_BATCH_OUT/logs/$name.log")" >>"$SR_BATCH_OUT/logs/failed"
    fi
    exit 0'
n=$(grep -c . "$list")
grep . "$list" | tr '\n' '\0' | xargs -0 -n 1 -P "$jobs" sh -c "$one" sweep-batch
failed=$(grep -c . "$out/logs/failed")
echo "sweep-batch: $((n - failed)) of $n exports reported into $out/, appended to $db" >&2
if [ "$failed" -gt 0 ]; then
    echo "sweep-batch: $failed failed (export, exit code, last line; logs in $out/logs/):" >&2
    sed 's/^/  /' "$out/logs/failed" >&2
    exit 1
fi
rm -f "$out/logs/failed"
exit 0
