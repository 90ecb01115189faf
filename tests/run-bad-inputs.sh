#!/bin/sh
# Bad-input suite. Each line of tests/bad/cases.tsv damages a copy of the
# small valid export tests/bad/base and states what must happen:
#   name <TAB> args <TAB> action <TAB> file <TAB> content <TAB> exit code <TAB> message fragment
# action: write (file gets printf %b of content), append, remove (file may
# list several paths, space-separated), mkdir (file becomes a directory),
# symlink (file links to content), fifo (file becomes a named pipe), hugeline (a line of content MiB
# appended), nul (a NUL byte after the first byte of line content),
# duplicate-line (line content repeated right after it), delete-line (line
# content removed), deepjson (file becomes a bench result whose "deep"
# value nests content arrays). "-" stands for an empty field.
# A non-zero exit must print the fragment on stderr and leave OUT_DIR
# untouched; exit 0 (--keep-going) must put the fragment in report.json.
set -u
bin=${1:?usage: run-bad-inputs.sh path/to/sweep-report}
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
    work="$tmp/$name"
    mkdir -p "$work"
    cp -R "$root/tests/bad/base" "$work/export"
    target="$work/export/$file"
    case "$action" in
        write) printf '%b' "$content" >"$target" ;;
        append) printf '%b' "$content" >>"$target" ;;
        remove) for f in $file; do rm -rf "${work:?}/export/$f"; done ;;
        mkdir) rm -rf "$target"; mkdir -p "$target" ;;
        symlink) rm -rf "$target"; ln -s "$content" "$target" ;;
        fifo) rm -rf "$target"; mkfifo "$target" ;;
        hugeline) head -c $((content * 1024 * 1024)) /dev/zero | tr '\0' 'x' >>"$target" ;;
        nul) sed "${content}s/^\\(.\\)/\\1\\x00/" "$target" >"$target.tmp" && mv "$target.tmp" "$target" ;;
        duplicate-line) sed "${content}p" "$target" >"$target.tmp" && mv "$target.tmp" "$target" ;;
        delete-line) sed "${content}d" "$target" >"$target.tmp" && mv "$target.tmp" "$target" ;;
        deepjson) awk -v n="$content" 'BEGIN { printf "{\"output_throughput\": 1.0, \"deep\": ";
            for (i = 0; i < n; i++) printf "["; for (i = 0; i < n; i++) printf "]"; print "}" }' >"$target" ;;
        *) echo "bad action $action in case $name"; fail=$((fail + 1)); continue ;;
    esac
    mkdir -p "$work/out"
    echo keep >"$work/out/existing.txt"
    # shellcheck disable=SC2086
    (cd "$work" && "$bin" report export -o out $args) >"$work/stdout" 2>"$work/stderr" </dev/null
    if judge_bad "$name" "$code" $? "$work" "$fragment" report.json; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done <"$root/tests/bad/cases.tsv"
echo "bad inputs: $pass passed, $fail failed"
[ $fail = 0 ]
