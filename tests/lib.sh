# Shell functions shared by the data-driven test runners (sourced, POSIX sh).

# expect_files NAME CASE_DIR OUT_DIR: every file of CASE_DIR/expected/ must
# equal the one of that name in OUT_DIR, byte for byte; the first lines of
# each difference are printed. Returns 1 when any differs.
expect_files() {
    _ok=0
    for _f in "$2"/expected/*; do
        [ -f "$_f" ] || continue
        if ! cmp -s "$_f" "$3/$(basename "$_f")"; then
            echo "FAIL $1: $(basename "$_f") differs from expected:"
            diff -u "$_f" "$3/$(basename "$_f")" | head -40
            _ok=1
        fi
    done
    return $_ok
}

# judge_bad NAME WANT GOT WORK_DIR FRAGMENT OUTPUT: a hostile-input case.
# The exit code must be WANT; on failure stderr (WORK_DIR/stderr) names
# FRAGMENT and WORK_DIR/out holds only the existing.txt put there before
# (nothing half-written); on success (--keep-going) WORK_DIR/out/OUTPUT
# records FRAGMENT. Returns 1 on a failed check.
judge_bad() {
    if [ "$3" != "$2" ]; then
        echo "FAIL $1: exit $3, expected $2"; sed 's/^/    /' "$4/stderr" | head -5; return 1
    fi
    if [ "$2" != 0 ]; then
        grep -qF -- "$5" "$4/stderr" || { echo "FAIL $1: stderr lacks '$5':"; sed 's/^/    /' "$4/stderr" | head -5; return 1; }
        [ "$(ls "$4/out")" = existing.txt ] || { echo "FAIL $1: OUT_DIR was written to on error"; return 1; }
    else
        grep -qF -- "$5" "$4/out/$6" || { echo "FAIL $1: $6 lacks '$5'"; return 1; }
    fi
}

# damage ROOT FILE ACTION CONTENT: one bad-input case's change to the copy
# of an input at ROOT (run-bad-inputs.sh and run-survey-bad.sh). FILE is
# relative to ROOT ("remove" takes several, space-separated); "-" fields
# arrive empty. Actions: write (FILE gets printf %b of CONTENT), append,
# remove, mkdir (FILE becomes a directory), symlink (FILE links to CONTENT),
# fifo (a named pipe), hugeline and big (CONTENT MiB of x or spaces
# appended), nul (a NUL byte after the first byte of line CONTENT),
# duplicate-line and delete-line (line CONTENT repeated or removed), deepjson
# (a bench result whose "deep" value nests CONTENT arrays), copy (FILE
# becomes a copy of ROOT/CONTENT), emptydir (ROOT emptied), gzip (FILE
# gzip-compressed under its own name), utf16 (FILE converted to UTF-16LE
# with a byte-order mark). Returns 1 on an unknown action.
damage() {
    _t="$1/$2"
    case "$3" in
        write) printf '%b' "$4" >"$_t" ;;
        append) printf '%b' "$4" >>"$_t" ;;
        remove) for _f in $2; do rm -rf "${1:?}/$_f"; done ;;
        mkdir) rm -rf "$_t"; mkdir -p "$_t" ;;
        symlink) rm -rf "$_t"; ln -s "$4" "$_t" ;;
        fifo) rm -rf "$_t"; mkfifo "$_t" ;;
        hugeline) head -c $(($4 * 1024 * 1024)) /dev/zero | tr '\0' 'x' >>"$_t" ;;
        big) head -c $(($4 * 1024 * 1024)) /dev/zero | tr '\0' ' ' >>"$_t" ;;
        nul) sed "${4}s/^\\(.\\)/\\1\\x00/" "$_t" >"$_t.tmp" && mv "$_t.tmp" "$_t" ;;
        duplicate-line) sed "${4}p" "$_t" >"$_t.tmp" && mv "$_t.tmp" "$_t" ;;
        delete-line) sed "${4}d" "$_t" >"$_t.tmp" && mv "$_t.tmp" "$_t" ;;
        deepjson) awk -v n="$4" 'BEGIN { printf "{\"output_throughput\": 1.0, \"deep\": ";
            for (i = 0; i < n; i++) printf "["; for (i = 0; i < n; i++) printf "]"; print "}" }' >"$_t" ;;
        copy) cp -R "$1/$4" "$_t" ;;
        gzip) gzip -c "$_t" >"$_t.tmp" && mv "$_t.tmp" "$_t" ;;
        utf16) { printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$_t"; } >"$_t.tmp" && mv "$_t.tmp" "$_t" ;;
        emptydir) rm -rf "${1:?}"; mkdir "$1" ;;
        *) return 1 ;;
    esac
}

# run_bad_cases TSV SOURCE NAME COMMAND OUTPUT: every case of TSV (name,
# args, action, file, content, exit, fragment; see damage) on a copy of
# SOURCE called NAME (the messages name it), run as `$bin COMMAND NAME -o
# out ARGS` and judged by judge_bad (OUTPUT: the JSON that records a
# fragment under --keep-going). Needs $bin and $tmp; sets $pass and $fail.
run_bad_cases() {
    pass=0 fail=0
    _tab=$(printf '\t')
    while IFS="$_tab" read -r name args action file content code fragment; do
        case "$name" in ''|'#'*) continue ;; esac
        [ "$args" = - ] && args=
        [ "$content" = - ] && content=
        work="$tmp/$name"
        mkdir -p "$work"
        cp -R "$2" "$work/$3"
        if ! damage "$work/$3" "$file" "$action" "$content"; then
            echo "bad action $action in case $name"; fail=$((fail + 1)); continue
        fi
        mkdir -p "$work/out"
        echo keep >"$work/out/existing.txt"
        # shellcheck disable=SC2086
        (cd "$work" && "$bin" "$4" "$3" -o out $args) >"$work/stdout" 2>"$work/stderr" </dev/null
        if judge_bad "$name" "$code" $? "$work" "$fragment" "$5"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
    done <"$1"
}
