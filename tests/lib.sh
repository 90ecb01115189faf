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
