#!/bin/sh
# The golden cases of every subcommand, one runner. A case is a folder
# tests/cases/<subcommand>/<case>/ holding:
#   cmd       the arguments after the binary, on one line; @OUT@ is the
#             output directory, @CASE@ the case's folder (paths are relative
#             to the repository, where the command runs)
#   exit      the exit code expected (default 0)
#   stderr    lines that must each appear on standard error
#   expected/ files compared byte for byte with the outputs of that name
#   check     an independent check (not made by the tool), a command line
#             with the same @OUT@ and @CASE@, run from the repository
# A folder without cmd is input data for other cases. Every case runs twice,
# the second time on one thread where the subcommand takes --threads: the
# outputs must be identical. OUT_DIR starts holding one file of ours: after a
# usage or input error (exit 2 or 3) it must hold only that. With --json, a
# survey prints candidates.json on standard output.
# UPDATE_GOLDEN=1 rewrites the files of expected/ from the current binary
# (review the diff). ONLY=<subcommand>/<case> runs one case.
set -u
bin=${1:?usage: run-cases.sh path/to/sweep-report}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# Files each subcommand writes whenever it succeeds (exit 0, or 4 after writing).
required() {
    case "$1" in
    report | audit) case " $2 " in
        *" --outputs "*) echo report.json ;; # only what --outputs names (at least json in the cases)
        *) echo report.json results.csv results.md report.html report.pdf report.sqlite figures.csv ;;
        esac ;;
    compare) echo compare.json compare.csv compare.md compare.html compare.pdf charts/accuracy_change.png \
        charts/accuracy_change.svg charts/speed_change.png charts/speed_change.svg ;;
    survey) echo candidates.md candidates.html candidates.pdf candidates.csv candidates.json sweep.arms \
        kv_tokens.png kv_tokens.svg ;;
    esac
}

subst() { # subst TEXT OUT CASE
    printf '%s\n' "$1" | sed -e "s|@OUT@|$2|g" -e "s|@CASE@|$3|g"
}

for case in "$root"/tests/cases/*/*/; do
    [ -f "$case/cmd" ] || continue
    rel=${case#"$root"/}
    rel=${rel%/}
    name=${rel#tests/cases/}
    [ -n "${ONLY:-}" ] && [ "$ONLY" != "$name" ] && continue
    line=$(cat "$case/cmd")
    sub=${line%% *}
    want=$(cat "$case/exit" 2>/dev/null || echo 0)
    key=$(echo "$name" | tr / -)
    ok=1
    for run in 1 2; do
        out="$tmp/$key-$run"
        mkdir -p "$out" && echo keep >"$out/existing.txt"
        threads=
        case "$sub" in report | audit | compare) [ $run = 2 ] && threads="--threads 1" ;; esac
        argv=$(subst "$line" "$out" "$rel")
        # shellcheck disable=SC2086
        (cd "$root" && "$bin" $argv $threads) >"$tmp/$key-$run.stdout" 2>"$tmp/$key-$run.log" </dev/null
        code=$?
        if [ "$code" != "$want" ]; then
            echo "FAIL $name: exit $code, expected $want"; sed 's/^/    /' "$tmp/$key-$run.log" | head -20; ok=0
        fi
    done
    out="$tmp/$key-1"
    if [ "$want" = 2 ] || [ "$want" = 3 ]; then
        [ "$(ls "$out")" = existing.txt ] || { echo "FAIL $name: OUT_DIR was written to on error"; ok=0; }
    fi
    if [ $ok = 1 ] && { [ "$want" = 0 ] || [ "$want" = 4 ]; }; then
        for f in $(required "$sub" "$line"); do
            [ -s "$out/$f" ] || { echo "FAIL $name: $f not written"; ok=0; }
        done
        if ! diff -r "$out" "$tmp/$key-2" >/dev/null; then
            echo "FAIL $name: two runs differ:"; diff -rq "$out" "$tmp/$key-2" | head; ok=0
        fi
        case " $line " in *" --json "*)
            cmp -s "$tmp/$key-1.stdout" "$out/candidates.json" || { echo "FAIL $name: --json differs from candidates.json"; ok=0; } ;;
        esac
        if [ "${UPDATE_GOLDEN:-0}" = 1 ] && [ -d "$case/expected" ]; then
            for f in "$case"/expected/*; do [ -f "$f" ] && cp "$out/$(basename "$f")" "$f"; done
            echo "updated $name"
        fi
        expect_files "$name" "$case" "$out" || ok=0
        if [ -f "$case/check" ]; then
            check=$(subst "$(cat "$case/check")" "$out" "$rel")
            # shellcheck disable=SC2086
            (cd "$root" && $check) || { echo "FAIL $name: $(cat "$case/check")"; ok=0; }
        fi
    fi
    if [ -f "$case/stderr" ]; then
        while IFS= read -r want_line; do
            [ -n "$want_line" ] || continue
            grep -qF -- "$want_line" "$tmp/$key-1.log" || {
                echo "FAIL $name: stderr lacks '$want_line':"; sed 's/^/    /' "$tmp/$key-1.log" | head; ok=0; }
        done <"$case/stderr"
    fi
    if [ $ok = 1 ]; then pass=$((pass + 1)); echo "ok   $name"; else fail=$((fail + 1)); fi
done
echo "cases: $pass passed, $fail failed"
[ $fail = 0 ]
