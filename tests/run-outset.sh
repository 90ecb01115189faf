#!/bin/sh
# The output writer's rules (util/outset.h, docs/reliability.md "The output
# writer") as a hostile export or OUT_DIR meets them (make cli):
# - an entry named like a staging directory (a link out, or a real
#   directory) is never followed nor removed, for report, compare and survey,
#   in OUT_DIR or shipped in an export written into itself (-o EXPORT);
# - a symbolic link as OUT_DIR, as OUT_DIR/charts or as the lock file is
#   refused (exit 1), and nothing behind it changes; a link where an output
#   file goes is replaced as an entry, never written through;
# - a directory where an output file goes: exit 1, the previous set whole;
# - a rename that fails, at every rename of a run in turn (an LD_PRELOAD
#   shim, tests/outset/failrename.c): exit 1 and OUT_DIR holds exactly the
#   previous set (every rename of a run is part of switching the set in, so
#   each failure is one the writer must roll back); without a failure,
#   exactly the new set.
#   sh tests/run-outset.sh path/to/sweep-report
set -u
bin=${1:?usage: run-outset.sh path/to/sweep-report}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL outset: $1"; fail=$((fail + 1)); }
has() { grep -qF -- "$2" "$1"; }
R="--resamples 1000"
base="$root/tests/bad/base"
# sweep-report CMD ARGS... run from the repository; exit code in $got
sr() { (cd "$root" && "$bin" "$@") >"$tmp/out" 2>"$tmp/err" </dev/null; got=$?; }
# a victim directory outside every OUT_DIR and export, and its fingerprint
victim() { rm -rf "$tmp/victim"; mkdir -p "$tmp/victim/sub"; echo precious >"$tmp/victim/a.txt"
    echo old >"$tmp/victim/speed_ratio.png"; echo tmp >"$tmp/victim/speed_ratio.png.tmp.AbC123"
    echo deep >"$tmp/victim/sub/b.txt"; }
intact() { [ "$(cd "$tmp/victim" && find . | sort | xargs cat 2>/dev/null | cksum)" = "$victim_sum" ]; }
victim
victim_sum=$(cd "$tmp/victim" && find . | sort | xargs cat 2>/dev/null | cksum)
# tree DIR: every entry below DIR with its type and content, the lock file left out
tree() { (cd "$1" && find . -mindepth 1 ! -name .sweep-report.lock | LC_ALL=C sort | while read -r f; do
    if [ -L "$f" ]; then echo "$f -> $(readlink "$f")"; elif [ -d "$f" ]; then echo "$f/"; else
        echo "$f $(cksum <"$f")"; fi; done); }

# ---- 1, 2: names like a staging directory ----------------------------------------
for cmd in report compare survey; do
    case $cmd in
    report) args="report tests/bad/base $R" ;;
    compare) args="compare fixtures/v5e-gemma4-formats fixtures/v5e-gemma4-rerun $R" ;;
    survey) args="survey fixtures/hub-survey" ;;
    esac
    victim
    o="$tmp/o-$cmd"
    mkdir -p "$o/.sweep-report.new.keep"
    ln -s "$tmp/victim" "$o/.sweep-report.new.0"
    echo mine >"$o/.sweep-report.new.keep/f"
    # shellcheck disable=SC2086
    sr $args -o "$o"
    if [ "$got" = 0 ] && intact && [ -L "$o/.sweep-report.new.0" ] && [ "$(cat "$o/.sweep-report.new.keep/f")" = mine ] &&
        has "$tmp/err" ".sweep-report.new.keep' is named like the staging directory" &&
        [ -z "$(find "$o" -maxdepth 1 -name '.sweep-report.new.*' ! -name '*.0' ! -name '*.keep')" ]; then ok; else
        bad "$cmd: a link and a directory named like a staging directory in OUT_DIR: left alone, named, nothing followed (exit $got)"
    fi
done
# the same shipped in an export that is written into itself
victim
cp -R "$base" "$tmp/E"
ln -s "$tmp/victim" "$tmp/E/.sweep-report.new.0"
mkdir "$tmp/E/reports" && ln -s "$tmp/victim" "$tmp/E/reports/.sweep-report.new.1"
sr report "$tmp/E" -o "$tmp/E" $R
got1=$got
(cd "$tmp/E" && "$bin" report . $R) >"$tmp/out" 2>"$tmp/err" </dev/null
if [ "$got1" = 0 ] && [ $? = 0 ] && intact && [ -f "$tmp/E/report.json" ] && [ -f "$tmp/E/reports/report.json" ]; then ok; else
    bad "links named like a staging directory shipped in the export (-o EXPORT, cd EXPORT && report .): nothing followed"
fi
rm -rf "$tmp/E"

# ---- 3: symbolic links where the writer writes --------------------------------------
victim
cp -R "$base" "$tmp/E"
ln -s ../victim "$tmp/E/charts"
sr report "$tmp/E" -o "$tmp/E" $R
if [ "$got" = 1 ] && has "$tmp/err" "E/charts': is a symbolic link; refused" && intact && [ ! -e "$tmp/E/report.json" ]; then ok
else bad "OUT_DIR/charts a link out (report E -o E): exit 1 saying so, nothing written (exit $got)"; fi
rm -rf "$tmp/E"
victim
mkdir "$tmp/o-cmp"
ln -s "$tmp/victim" "$tmp/o-cmp/charts"
sr compare fixtures/v5e-gemma4-formats fixtures/v5e-gemma4-rerun -o "$tmp/o-cmp" $R
if [ "$got" = 1 ] && has "$tmp/err" "charts': is a symbolic link; refused" && intact && [ ! -e "$tmp/o-cmp/compare.json" ]; then ok
else bad "compare: OUT_DIR/charts a link: refused (exit $got)"; fi
victim
ln -s "$tmp/victim" "$tmp/o-link"
sr report tests/bad/base -o "$tmp/o-link" $R
got1=$got
sr report tests/bad/base -o "$tmp/o-link/" $R
if [ "$got1" = 1 ] && [ "$got" = 1 ] && has "$tmp/err" "the output directory is a symbolic link; refused" && intact; then ok
else bad "OUT_DIR a symbolic link (with and without a trailing /): refused (exit $got1, $got)"; fi
victim
mkdir "$tmp/o-lock"
ln -s "$tmp/victim/lock" "$tmp/o-lock/.sweep-report.lock"
sr report tests/bad/base -o "$tmp/o-lock" $R
if [ "$got" = 1 ] && has "$tmp/err" "lock file" && intact && [ ! -e "$tmp/victim/lock" ]; then ok
else bad "the lock file a dangling link out: refused, nothing made behind it (exit $got)"; fi
victim
mkdir -p "$tmp/o-file/charts"
ln -s "$tmp/victim/a.txt" "$tmp/o-file/report.json"
ln -s "$tmp/victim/speed_ratio.png" "$tmp/o-file/charts/throughput.png"
sr report tests/bad/base -o "$tmp/o-file" $R
if [ "$got" = 0 ] && intact && [ ! -L "$tmp/o-file/report.json" ] && [ -s "$tmp/o-file/report.json" ]; then ok
else bad "a link where an output file goes: replaced by the file, the link's target unchanged (exit $got)"; fi

# ---- 4: a directory where an output file goes ---------------------------------------
sr report tests/bad/base -o "$tmp/o-dir" $R
rm "$tmp/o-dir/results.md" && mkdir "$tmp/o-dir/results.md"
tree "$tmp/o-dir" >"$tmp/before"
sr report fixtures/v5e-gemma4-sweep -o "$tmp/o-dir" $R
tree "$tmp/o-dir" >"$tmp/after"
if [ "$got" = 1 ] && has "$tmp/err" "results.md': is a directory where an output file goes" &&
    cmp -s "$tmp/before" "$tmp/after"; then ok; else
    bad "a directory where results.md goes: exit 1 and the previous set whole (exit $got)"
    diff "$tmp/before" "$tmp/after" | head -5
fi

# ---- 5: a failed rename at every rename in turn ------------------------------------
# Under ASan the shim loads after ASan's runtime: allowed, it intercepts nothing ASan does.
asan=
grep -q __asan_init "$bin" 2>/dev/null && asan="verify_asan_link_order=0:"
if ! cc -std=c17 -O2 -shared -fPIC -o "$tmp/failrename.so" "$root/tests/outset/failrename.c" -ldl; then
    bad "cannot build the rename shim"
else
    # the previous set: the small export with a file of the user's beside it;
    # the new: the bucket sample with its claims (claims.csv, more charts)
    sr report tests/bad/base -o "$tmp/old" $R
    echo "the user's" >"$tmp/old/notes.txt"
    new_run() { sr audit fixtures/v5e-gemma4-sweep fixtures/v5e-gemma4-sweep/claims.md -o "$1" $R; }
    cp -R "$tmp/old" "$tmp/new" && new_run "$tmp/new"
    tree "$tmp/old" >"$tmp/old.tree"
    tree "$tmp/new" >"$tmp/new.tree"
    cp -R "$tmp/old" "$tmp/counted"
    FAILRENAME_COUNT="$tmp/count" ASAN_OPTIONS="$asan${ASAN_OPTIONS:-}" LD_PRELOAD="$tmp/failrename.so" new_run "$tmp/counted"
    total=$(cat "$tmp/count" 2>/dev/null || echo 0)
    if [ "$got" != 0 ] || [ "$total" -lt 20 ] || cmp -s "$tmp/old.tree" "$tmp/new.tree" ||
        ! tree "$tmp/counted" | cmp -s - "$tmp/new.tree"; then
        bad "the counting run: exit $got, $total renames, or not the new set"
    else
        n=1
        while [ "$n" -le "$total" ]; do
            rm -rf "$tmp/try" && cp -R "$tmp/old" "$tmp/try"
            FAILRENAME_N=$n ASAN_OPTIONS="$asan${ASAN_OPTIONS:-}" LD_PRELOAD="$tmp/failrename.so" new_run "$tmp/try"
            tree "$tmp/try" >"$tmp/try.tree"
            # every rename of a run is part of the switch: each failure rolls back
            if [ "$got" = 1 ] && has "$tmp/err" "Input/output error" && cmp -s "$tmp/try.tree" "$tmp/old.tree"; then ok
            else
                bad "rename $n of $total failing: exit $got, and OUT_DIR is neither the old set nor the new"
                diff "$tmp/old.tree" "$tmp/try.tree" | head -6 | sed 's/^/    /'
            fi
            n=$((n + 1))
        done
    fi
fi

echo "outset: $pass passed, $fail failed"
[ "$fail" = 0 ]
