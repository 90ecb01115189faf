#!/bin/sh
# Bad inputs of `sweep-report survey`, its counterpart of run-bad-inputs.sh:
# each line of tests/survey/bad.tsv damages a copy of fixtures/hub-survey
# (name, args, action, file, content, exit, fragment; actions as in
# run-bad-inputs.sh plus emptydir); a non-zero exit must name the problem on
# stderr and leave OUT_DIR untouched, exit 0 must put the fragment in
# candidates.json. (Its golden cases are in tests/cases/survey/.)
set -u
bin=${1:?usage: run-survey-bad.sh path/to/sweep-report}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
tab=$(printf '\t')

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
echo "survey bad inputs: $pass passed, $fail failed"
[ $fail = 0 ]
