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
#   exactly the new set;
# - files beside OUT_DIR (--junit, --summary-md): a character device, a FIFO,
#   a descriptor (a link to /proc/self/fd/1, a process substitution) and a
#   link to one of them are written through and stay what they were (as
#   root: device nodes made here, and the literal /dev/null, /dev/full and
#   /dev/stdout inside a private mount namespace whose /dev is a fresh
#   tmpfs, so a broken build never touches the machine's); /dev/full exits
#   1; a 255-byte name works; a signal at the temporary's rename leaves no
#   temporary behind.
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

# The rename shim (tests/outset/failrename.c): a rename failing, or a signal raised at one.
# Under ASan the shim loads after ASan's runtime: allowed, it intercepts nothing ASan does.
asan=
grep -q __asan_init "$bin" 2>/dev/null && asan="verify_asan_link_order=0:"
shim=
cc -std=c17 -O2 -shared -fPIC -o "$tmp/failrename.so" "$root/tests/outset/failrename.c" -ldl && shim="$tmp/failrename.so"

# ---- 5: a failed rename at every rename in turn ------------------------------------
if [ -z "$shim" ]; then
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
        # a signal that would end the process, raised at the third rename of the switch:
        # it waits until the new set is in place (no core file: ulimit -c 0)
        # (not SIGHUP: under nohup it is ignored from the start, and a test run may be)
        for sig in 24:XCPU 26:VTALRM 27:PROF 10:USR1 14:ALRM 15:TERM; do
            rm -rf "$tmp/try" && cp -R "$tmp/old" "$tmp/try"
            { ulimit -c 0; RAISE_SIGNAL=${sig%%:*} RAISE_N=3 ASAN_OPTIONS="$asan${ASAN_OPTIONS:-}" \
                LD_PRELOAD="$shim" new_run "$tmp/try"; } 2>/dev/null
            if [ "$got" = $((128 + ${sig%%:*})) ] && tree "$tmp/try" | cmp -s - "$tmp/new.tree"; then ok
            else
                bad "SIG${sig#*:} in the middle of the switch: the process ends after it with exactly the new set (exit $got)"
                tree "$tmp/try" | diff "$tmp/new.tree" - | head -4 | sed 's/^/    /'
            fi
        done
    fi
fi

# ---- 6: files beside OUT_DIR ------------------------------------------------------------
C="compare fixtures/v5e-gemma4-formats fixtures/v5e-gemma4-rerun $R"
# the bytes each file gets, written to plain files
sr $C -o "$tmp/side" --junit "$tmp/ref.xml" --summary-md "$tmp/ref.md"
[ "$got" = 0 ] && [ -s "$tmp/ref.xml" ] && [ -s "$tmp/ref.md" ] || bad "--junit and --summary-md into new files (exit $got)"
# only_entry DIR NAME: DIR holds NAME and nothing else (no temporary left)
only_entry() { [ "$(ls -A "$1")" = "$2" ]; }

# a 255-byte name (NAME_MAX): its temporary must fit too
long=$(printf '%0251d' 0).xml
mkdir "$tmp/long"
sr $C -o "$tmp/side" --junit "$tmp/long/$long"
if [ "$got" = 0 ] && cmp -s "$tmp/long/$long" "$tmp/ref.xml" && only_entry "$tmp/long" "$long"; then ok
else bad "--junit with a 255-byte file name: written, nothing else left (exit $got)"; fi
sr $C -o "$tmp/side" --junit "$tmp/long/$long"
if [ "$got" = 0 ] && cmp -s "$tmp/long/$long" "$tmp/ref.xml" && only_entry "$tmp/long" "$long"; then ok
else bad "--junit replacing a file of a 255-byte name (exit $got)"; fi

# a FIFO: written through, still a FIFO (a reader that is never fed is killed)
mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/fifo.out" &
reader=$!
sr $C -o "$tmp/side" --junit "$tmp/fifo"
if [ -p "$tmp/fifo" ]; then wait "$reader"; else kill "$reader" 2>/dev/null; wait "$reader" 2>/dev/null; fi
if [ "$got" = 0 ] && [ -p "$tmp/fifo" ] && cmp -s "$tmp/fifo.out" "$tmp/ref.xml"; then ok
else bad "--junit FIFO: the reader gets the XML and the FIFO stays one (exit $got)"; fi

# a descriptor of the process: a link to /proc/self/fd/1, as /dev/stdout is
ln -s /proc/self/fd/1 "$tmp/stdout-link"
sr $C -o "$tmp/side" --summary-md "$tmp/stdout-link"
if [ "$got" = 0 ] && [ -L "$tmp/stdout-link" ] && cmp -s "$tmp/out" "$tmp/ref.md"; then ok
else bad "--summary-md through a link to /proc/self/fd/1: on standard output, the link kept (exit $got)"; fi

# a process substitution (bash's >(cmd), /dev/fd/63)
if command -v bash >/dev/null 2>&1; then
    (cd "$root" && bash -c '"$1" $2 -o "$3/side" --junit >(cat >"$3/subst.out"); rc=$?; wait $!; exit $rc' \
        sh "$bin" "$C" "$tmp") >"$tmp/out" 2>"$tmp/err" </dev/null
    got=$?
    if [ "$got" = 0 ] && cmp -s "$tmp/subst.out" "$tmp/ref.xml"; then ok
    else bad "--junit >(cat): the process substitution reads the XML (exit $got)"; fi
else
    echo "outset: skipped the process substitution (no bash)"
fi

# a directory: refused; a dangling link: replaced as an entry, nothing made behind it
mkdir "$tmp/a-dir"
sr $C -o "$tmp/side" --junit "$tmp/a-dir"
if [ "$got" = 1 ] && has "$tmp/err" "a-dir': is a directory" && [ -d "$tmp/a-dir" ]; then ok
else bad "--junit DIRECTORY: exit 1 saying so (exit $got)"; fi
ln -s "$tmp/victim/never-made" "$tmp/dangling"
sr $C -o "$tmp/side" --junit "$tmp/dangling"
if [ "$got" = 0 ] && [ ! -L "$tmp/dangling" ] && cmp -s "$tmp/dangling" "$tmp/ref.xml" && [ ! -e "$tmp/victim/never-made" ]
then ok; else bad "--junit onto a dangling link: the link replaced, nothing made behind it (exit $got)"; fi

# a signal at the temporary's rename: held until the file is in place, no temporary left
if [ -n "$shim" ]; then
    for start in absent present; do
        rm -rf "$tmp/sig" && mkdir "$tmp/sig"
        [ $start = present ] && echo old >"$tmp/sig/j.xml"
        { RAISE_SIGNAL=15 RAISE_MATCH=.tmp. ASAN_OPTIONS="$asan${ASAN_OPTIONS:-}" LD_PRELOAD="$shim" \
            sr $C -o "$tmp/side" --junit "$tmp/sig/j.xml"; } 2>/dev/null # no "Terminated" from the shell
        if [ "$got" = 143 ] && only_entry "$tmp/sig" j.xml && cmp -s "$tmp/sig/j.xml" "$tmp/ref.xml"; then ok
        else bad "SIGTERM at the rename of --junit's temporary ($start): the new file whole, no temporary (exit $got: $(ls -A "$tmp/sig" | tr '\n' ' '))"; fi
    done
fi

# the umask: every file made (OUT_DIR's, its charts/, a side file) is 0666 and every
# directory 0777 less it, as any program's
for mask in 077:600:700 002:664:775; do
    rm -rf "$tmp/um" "$tmp/um.md"
    m=${mask%%:*} f=${mask#*:} f=${f%%:*} d=${mask##*:}
    (umask "$m" && cd "$root" && "$bin" report tests/bad/base $R -o "$tmp/um/out" --summary-md "$tmp/um.md") \
        >"$tmp/out" 2>"$tmp/err" </dev/null
    got=$?
    modes=$(cd "$tmp/um" && find . -mindepth 1 ! -name .sweep-report.lock \( -type d -printf "d%m\n" -o -printf "f%m\n" \) |
        sort -u | tr '\n' ' ')
    if [ "$got" = 0 ] && [ "$modes" = "d$d f$f " ] && [ "$(stat -c %a "$tmp/um.md")" = "$f" ]; then ok
    else bad "umask $m: files $f and directories $d (exit $got; found $modes, summary $(stat -c %a "$tmp/um.md"))"; fi
done

# ---- 8: what a rerun leaves ---------------------------------------------------------------
# fresh CMD...: the tree a run leaves in an empty directory ($tmp/fresh.tree)
fresh() { rm -rf "$tmp/fresh"; sr "$@" -o "$tmp/fresh"; tree "$tmp/fresh" >"$tmp/fresh.tree"; }
audit_sweep="audit fixtures/v5e-gemma4-sweep fixtures/v5e-gemma4-sweep/claims.md $R"
report_base="report tests/bad/base $R"
# an audit (claims.csv, more charts), then a report of another export: exactly the report's set
# shellcheck disable=SC2086
fresh $report_base
sr $audit_sweep -o "$tmp/re"
echo "the user's" >"$tmp/re/notes.txt"
sr $report_base -o "$tmp/re"
if [ "$got" = 0 ] && has "$tmp/err" "removed 3 files an earlier run wrote in '$tmp/re' and this run does not write" &&
    [ "$(cat "$tmp/re/notes.txt")" = "the user's" ] && rm "$tmp/re/notes.txt" && tree "$tmp/re" | cmp -s - "$tmp/fresh.tree"
then ok; else
    bad "a report after an audit into one OUT_DIR: exactly the report's set, the user's file kept (exit $got)"
    tree "$tmp/re" | diff "$tmp/fresh.tree" - | head -5 | sed 's/^/    /'
fi
# a file the earlier run wrote, changed since: left and named
sr $audit_sweep -o "$tmp/re2"
echo "edited" >>"$tmp/re2/claims.csv"
sr $report_base -o "$tmp/re2"
if [ "$got" = 0 ] && [ -f "$tmp/re2/claims.csv" ] && [ ! -e "$tmp/re2/charts/throughput.png" ] &&
    has "$tmp/err" "warning: left 1 file in '$tmp/re2' that an earlier run wrote and this run does not write, changed since that run (remove what is stale): claims.csv"
then ok; else bad "an earlier run's claims.csv edited since: left and named, the unchanged ones removed (exit $got)"; fi
# --outputs: the other formats of the earlier run left and said, removed by a full run later
sr $audit_sweep -o "$tmp/re3"
sr $report_base -o "$tmp/re3" --outputs json,csv
got1=$got
grep -q "left 14 files an earlier run wrote in '$tmp/re3', of formats --outputs does not ask for, as they were: " \
    "$tmp/err" && said=1 || said=0
# report.html is left; claims.csv, a csv file this run has nothing for, is removed
[ -f "$tmp/re3/report.html" ] && [ ! -e "$tmp/re3/claims.csv" ] && kept=1 || kept=0
sr $report_base -o "$tmp/re3"
if [ "$got1" = 0 ] && [ $said = 1 ] && [ $kept = 1 ] && [ "$got" = 0 ] && tree "$tmp/re3" | cmp -s - "$tmp/fresh.tree"; then ok
else bad "--outputs json,csv after a full run: the others left and said ($said, $kept), then a full run leaves exactly its set (exit $got1, $got)"; fi
# a run killed (SIGKILL at the third rename of its switch): the next run removes its staging directory
if [ -n "$shim" ]; then
    fresh $audit_sweep
    sr $report_base -o "$tmp/re4"
    { RAISE_SIGNAL=9 RAISE_N=3 ASAN_OPTIONS="$asan${ASAN_OPTIONS:-}" LD_PRELOAD="$shim" sr $audit_sweep -o "$tmp/re4"; } 2>/dev/null
    killed=$got
    ls -d "$tmp/re4"/.sweep-report.new.* >/dev/null 2>&1 && left=1 || left=0
    sr $audit_sweep -o "$tmp/re4"
    if [ "$killed" = 137 ] && [ $left = 1 ] && [ "$got" = 0 ] &&
        has "$tmp/err" "the staging directory of a run that was killed (the lock file named it)" &&
        tree "$tmp/re4" | cmp -s - "$tmp/fresh.tree" && [ ! -s "$tmp/re4/.sweep-report.lock" ]; then ok
    else
        bad "a run killed in its switch, then a rerun: its staging directory removed, exactly the new set (exit $killed then $got)"
        tree "$tmp/re4" | diff "$tmp/fresh.tree" - | head -5 | sed 's/^/    /'
    fi
fi
# a run refused by the lock leaves OUT_DIR exactly as it was, lock file included
if command -v flock >/dev/null 2>&1; then
    sr $report_base -o "$tmp/re5"
    tree "$tmp/re5" >"$tmp/re5.before"
    lock_sum=$(cksum <"$tmp/re5/.sweep-report.lock")
    flock "$tmp/re5/.sweep-report.lock" sleep 60 &
    holder=$!
    sleep 0.5
    sr $audit_sweep -o "$tmp/re5"
    kill "$holder" 2>/dev/null
    wait "$holder" 2>/dev/null
    if [ "$got" = 1 ] && has "$tmp/err" "another sweep-report run is writing here; nothing written" &&
        tree "$tmp/re5" | cmp -s - "$tmp/re5.before" && [ "$(cksum <"$tmp/re5/.sweep-report.lock")" = "$lock_sum" ]; then ok
    else bad "a run refused by the lock: OUT_DIR exactly as it was (exit $got)"; fi
fi

# As root: device nodes. Made here (mknod), then the machine's own names in a private
# mount namespace over a fresh /dev; never the real /dev, which a broken build would break.
if [ "$(id -u)" = 0 ] && mkdir "$tmp/dev" && mknod "$tmp/dev/null" c 1 3 2>/dev/null &&
    mknod "$tmp/dev/full" c 1 7 && echo probe >"$tmp/dev/null" 2>/dev/null; then
    ln -s "$tmp/dev/null" "$tmp/null-link"
    sr $C -o "$tmp/side" --junit "$tmp/dev/null" --summary-md "$tmp/null-link"
    if [ "$got" = 0 ] && [ -c "$tmp/dev/null" ] && [ -L "$tmp/null-link" ] && only_entry "$tmp/dev" "full
null"; then ok
    else bad "as root, --junit onto a null device node and --summary-md onto a link to it: both stay (exit $got)"; fi
    sr report tests/bad/base -o "$tmp/side-r" $R --summary-md "$tmp/dev/null"
    if [ "$got" = 0 ] && [ -c "$tmp/dev/null" ]; then ok; else bad "as root, report --summary-md onto a null device (exit $got)"; fi
    sr $C -o "$tmp/side" --junit "$tmp/dev/full"
    if [ "$got" = 1 ] && has "$tmp/err" "dev/full': cannot write: No space left on device" && [ -c "$tmp/dev/full" ]; then ok
    else bad "as root, --junit onto a full device: exit 1 saying so, the device kept (exit $got)"; fi
    # shellcheck disable=SC2016 # expanded by the inner shell
    if unshare -m --propagation private sh -c '
        mount -t tmpfs -o mode=755 sr-test-dev /dev || exit 90
        mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/full c 1 7 && mknod -m 666 /dev/zero c 1 5 &&
            mknod -m 666 /dev/urandom c 1 9 && ln -s /proc/self/fd /dev/fd && ln -s /proc/self/fd/1 /dev/stdout || exit 91
        cd "$1" || exit 92
        "$2" $4 -o "$3/side" --junit /dev/null --summary-md /dev/stdout >"$3/ns.md" 2>"$3/ns.err"; echo $? >"$3/ns.rc"
        "$2" $4 -o "$3/side" --junit /dev/full 2>"$3/ns-full.err"; echo $? >"$3/ns-full.rc"
        [ -c /dev/null ] && [ -c /dev/full ] && [ -L /dev/stdout ] && [ "$(ls -A /dev | tr "\n" " ")" = "fd full null stdout urandom zero " ]
    ' sh "$root" "$bin" "$tmp" "$C" 2>"$tmp/ns.sh.err"; then
        if [ "$(cat "$tmp/ns.rc")" = 0 ] && cmp -s "$tmp/ns.md" "$tmp/ref.md" && [ "$(cat "$tmp/ns-full.rc")" = 1 ] &&
            has "$tmp/ns-full.err" "No space left on device"; then ok
        else bad "as root, --junit /dev/null --summary-md /dev/stdout, then --junit /dev/full, in a private /dev"; fi
    elif [ -f "$tmp/ns.rc" ]; then
        bad "as root, in a private /dev: --junit /dev/null, /dev/stdout or /dev/full replaced a device or a link"
    else
        echo "outset: skipped the literal /dev names (no private mount namespace: $(head -c 200 "$tmp/ns.sh.err"))"
    fi
else
    echo "outset: skipped the device nodes (not root, or device nodes cannot be made here)"
fi

echo "outset: $pass passed, $fail failed"
[ "$fail" = 0 ]
