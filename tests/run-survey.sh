#!/bin/sh
# `sweep-report survey` cases, the survey's counterpart of run-golden.sh and
# run-bad-inputs.sh.
# Golden: each tests/survey/<case>/ names a METADATA_DIR (metadata_path),
# optional extra arguments (args) and expected/ files compared byte for
# byte; every case runs twice and all outputs (PNG, SVG included) must be
# identical, --json must print candidates.json, and an optional check
# script (check) verifies the split independently of the tool.
# Bad inputs: each line of tests/survey/bad.tsv damages a copy of
# fixtures/hub-survey (name, args, action, file, content, exit, fragment;
# actions as in run-bad-inputs.sh plus emptydir); a non-zero exit must name
# the problem on stderr and leave OUT_DIR untouched, exit 0 must put the
# fragment in candidates.json.
# UPDATE_GOLDEN=1 rewrites expected/ from the current binary (review the diff).
set -u
bin=${1:?usage: run-survey.sh path/to/sweep-report}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
tab=$(printf '\t')

for case in "$root"/tests/survey/*/; do
    name=$(basename "$case")
    [ -f "$case/metadata_path" ] || continue
    meta="$root/$(cat "$case/metadata_path")"
    args=$(cat "$case/args" 2>/dev/null || true)
    ok=1
    for run in 1 2; do
        # shellcheck disable=SC2086
        (cd "$root" && "$bin" survey "$meta" -o "$tmp/$name-$run" --json $args) >"$tmp/$name-$run.json" 2>"$tmp/$name-$run.log"
        code=$?
        [ $code = 0 ] || { echo "FAIL $name: exit $code"; sed 's/^/    /' "$tmp/$name-$run.log" | head; ok=0; }
    done
    if [ $ok = 1 ]; then
        diff -r "$tmp/$name-1" "$tmp/$name-2" >/dev/null || { echo "FAIL $name: two runs differ"; ok=0; }
        cmp -s "$tmp/$name-1.json" "$tmp/$name-1/candidates.json" || { echo "FAIL $name: --json differs from candidates.json"; ok=0; }
        for f in candidates.md candidates.html candidates.pdf candidates.csv candidates.json sweep.arms kv_tokens.png kv_tokens.svg; do
            [ -s "$tmp/$name-1/$f" ] || { echo "FAIL $name: $f missing or empty"; ok=0; }
        done
        if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
            mkdir -p "$case/expected"
            for f in candidates.md candidates.csv candidates.json sweep.arms; do cp "$tmp/$name-1/$f" "$case/expected/$f"; done
            echo "updated $name"
        fi
        expect_files "$name" "$case" "$tmp/$name-1" || ok=0
        if [ -f "$case/check" ] && ! python3 "$root/$(cat "$case/check")" "$tmp/$name-1" "$root"; then
            echo "FAIL $name: $(cat "$case/check")"; ok=0
        fi
    fi
    if [ $ok = 1 ]; then pass=$((pass + 1)); echo "ok   $name"; else fail=$((fail + 1)); fi
done

while IFS="$tab" read -r name args action file content code fragment; do
    case "$name" in ''|'#'*) continue ;; esac
    [ "$args" = - ] && args=
    [ "$content" = - ] && content=
    work="$tmp/bad-$name"
    mkdir -p "$work"
    cp -R "$root/fixtures/hub-survey" "$work/meta"
    target="$work/meta/$file"
    case "$action" in
        write) printf '%b' "$content" >"$target" ;;
        remove) for f in $file; do rm -rf "${work:?}/meta/$f"; done ;;
        symlink) rm -rf "$target"; ln -s "$content" "$target" ;;
        mkdir) mkdir -p "$target" ;;
        big) head -c $((content * 1024 * 1024)) /dev/zero | tr '\0' ' ' >>"$target" ;;
        copy) cp -R "$work/meta/$content" "$target" ;;
        emptydir) rm -rf "$work/meta"; mkdir "$work/meta" ;;
        *) echo "bad action $action in case $name"; fail=$((fail + 1)); continue ;;
    esac
    mkdir -p "$work/out"
    echo keep >"$work/out/existing.txt"
    # shellcheck disable=SC2086
    (cd "$work" && "$bin" survey meta -o out $args) >"$work/stdout" 2>"$work/stderr" </dev/null
    if judge_bad "$name" "$code" $? "$work" "$fragment" candidates.json; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done <"$root/tests/survey/bad.tsv"
echo "survey: $pass passed, $fail failed"
[ $fail = 0 ]
