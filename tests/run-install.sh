#!/bin/sh
# The installed program (make cli, part of make test):
#   sh tests/run-install.sh BUILD_DIR
# make install into a fresh DESTDIR with PREFIX=/usr/local, then:
#   - the tree holds the program, sweep-report.1 and the bash completion, nothing else;
#   - the man page renders without a warning (groff -man -ww -z), man finds it by
#     MANPATH, and it lists every option every --help lists, with the same defaults;
#   - the completion is valid bash, and completes what a user types (rep<TAB>,
#     options, their values, operands), alone and loaded on demand by bash-completion
#     through XDG_DATA_DIRS as an installed completion is;
#   - the installed program, run from another directory with the source tree out of
#     reach (a tmpfs over it in a private mount namespace; in a container that refuses
#     namespaces, the tree closed to the user running it; else renamed for the run),
#     renders a full report of a copied fixture, byte-identical to the build's own.
set -u
build=${1:?usage: run-install.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
case $build in /*) ;; *) build=$root/$build ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
has() { grep -qF -- "$2" "$1"; }

dest=$tmp/dest
prefix=/usr/local
if ! make -s --no-print-directory -C "$root" install BUILD="$build" DESTDIR="$dest" PREFIX="$prefix" >"$tmp/make.log" 2>&1
then
    cat "$tmp/make.log"
    echo "install: make install failed"
    exit 1
fi
bin=$dest$prefix/bin/sweep-report
man1=$dest$prefix/share/man/man1/sweep-report.1
comp=$dest$prefix/share/bash-completion/completions/sweep-report

# ---- the tree ---------------------------------------------------------------
(cd "$dest" && find . -type f | sort) >"$tmp/tree"
printf '%s\n' ".$prefix/bin/sweep-report" ".$prefix/share/bash-completion/completions/sweep-report" \
    ".$prefix/share/man/man1/sweep-report.1" >"$tmp/tree.want"
if cmp -s "$tmp/tree" "$tmp/tree.want"; then ok; else bad "the install tree: $(tr '\n' ' ' <"$tmp/tree")"; fi
if [ -x "$bin" ] && [ "$(stat -c %a "$man1")" = 644 ] && [ "$(stat -c %a "$comp")" = 644 ]; then ok; else
    bad "modes: the program executable, the man page and completion 644"
fi
cp -R "$dest" "$tmp/other" && mkdir -p "$tmp/other$prefix/bin/keep" && touch "$tmp/other$prefix/share/man/man1/other.1"
uninstall() { make -s --no-print-directory -C "$root" uninstall BUILD="$build" DESTDIR="$1" PREFIX="${2:-$prefix}" >/dev/null 2>&1; }
if uninstall "$tmp/other" && uninstall "$tmp/other" && [ "$(cd "$tmp/other" && find . -type f)" = ".$prefix/share/man/man1/other.1" ] &&
    [ -d "$tmp/other$prefix/bin/keep" ]; then ok; else
    bad "make uninstall removes the three files and nothing else (and is fine when they are gone)"
fi

# PREFIX and DESTDIR are paths as written: a space, $(...), `...`, quotes and make's
# $(shell ...) in them are characters of the path, never run
odd_prefix="/p re\$(touch $tmp/pwned-1)\`touch $tmp/pwned-2\`'q\"x\$(shell touch $tmp/pwned-3)"
odd_dest="$tmp/de st\$(touch $tmp/pwned-4)'"
make -s --no-print-directory -C "$root" install BUILD="$build" DESTDIR="$odd_dest" PREFIX="$odd_prefix" >"$tmp/odd.log" 2>&1
odd_rc=$?
if [ "$odd_rc" = 0 ] && [ -x "$odd_dest$odd_prefix/bin/sweep-report" ] &&
    [ -f "$odd_dest$odd_prefix/share/man/man1/sweep-report.1" ] &&
    [ -f "$odd_dest$odd_prefix/share/bash-completion/completions/sweep-report" ] && ! ls "$tmp"/pwned-* >/dev/null 2>&1 &&
    uninstall "$odd_dest" "$odd_prefix" && [ -z "$(find "$tmp/de st"* -type f)" ]; then
    ok
else
    bad "make install with PREFIX and DESTDIR holding spaces, \$(...), backquotes and quotes: the files under that literal path, nothing run (exit $odd_rc; $(ls "$tmp" | grep pwned | tr '\n' ' '))"
fi

# ---- the man page -------------------------------------------------------------
if groff -man -ww -z "$man1" >"$tmp/groff.out" 2>&1 && [ ! -s "$tmp/groff.out" ]; then ok; else
    bad "groff -man -ww -z: $(head -3 "$tmp/groff.out")"
fi
if [ "$(LC_ALL=C.UTF-8 MANPATH=$dest$prefix/share/man man -w sweep-report 2>/dev/null)" = "$man1" ]; then ok; else
    bad "man -w finds sweep-report.1 under the prefix's share/man"
fi
LC_ALL=C.UTF-8 MANWIDTH=200 MAN_KEEP_FORMATTING= man -l "$man1" 2>"$tmp/man.err" | col -b >"$tmp/man.txt"
for section in NAME SYNOPSIS DESCRIPTION REPORT AUDIT COMPARE KV SURVEY VERIFY "EXIT STATUS" FILES "SEE ALSO"; do
    if grep -qx "$section" "$tmp/man.txt"; then ok; else bad "man page: no $section section"; fi
done
[ ! -s "$tmp/man.err" ] && ok || bad "man -l: $(head -3 "$tmp/man.err")"
# Each command's section lists the options its --help lists, with the same help (defaults included).
for cmd in report audit compare kv survey verify; do
    upper=$(echo "$cmd" | tr a-z A-Z)
    awk -v s="$upper" '$0 == s { on = 1; next } on && /^[A-Z][A-Z ]*$/ { exit } on' "$tmp/man.txt" >"$tmp/man-$cmd"
    "$bin" "$cmd" --help >"$tmp/help-$cmd"
    missing=""
    # an option line starts with 2 to 6 spaces; a help text wrapped onto "--goodput" is no option
    for opt in $(sed -n 's/^  \(-., \)\{0,1\} \{0,4\}\(--[a-z0-9-]*\).*/\2/p' "$tmp/help-$cmd"); do
        grep -q -- "^ *\(-., \)\{0,1\}$opt\( \|$\)" "$tmp/man-$cmd" || missing="$missing $opt"
    done
    [ -z "$missing" ] && ok || bad "man page, $cmd: options of --help missing:$missing"
    # the help texts, joined into one line each side, agree word for word
    tr -s ' \n' '  ' <"$tmp/help-$cmd" >"$tmp/help-flat"
    tr -s ' \n' '  ' <"$tmp/man-$cmd" >"$tmp/man-flat"
    for text in "paired bootstrap resamples (default 10000)" "interval level (default 0.95)" \
        "(default 20261130;" "where U is --mem-util (default 0.9 on gpu" "device memory (default 15.75,"; do
        if has "$tmp/help-flat" "$text" && ! has "$tmp/man-flat" "$text"; then bad "man page, $cmd: no '$text'"; fi
    done
done
tr -s ' \n' '  ' <"$tmp/man.txt" >"$tmp/man-flat"
if has "$tmp/man-flat" "0 success" && has "$tmp/man-flat" "4 a check the subcommand makes failed" &&
    has "$tmp/man-flat" "Examples:" && has "$tmp/man-flat" "sweep-report compare before/ after/"; then ok; else
    bad "man page: exit status and examples"
fi

# ---- the completion -----------------------------------------------------------
if bash -n "$comp"; then ok; else bad "bash -n on the completion"; fi
# completes FILE WORDS...: the completions bash's function gives for the last word, as
# bash calls it on <TAB>: found through complete -p, with COMP_WORDS split as bash
# splits (--name=value is three words: --name, =, value).
completes() {
    script=$1
    shift
    (cd "$tmp/cwd" && bash --norc --noprofile -c '
        . "$1" || exit 3
        shift
        spec=$(complete -p sweep-report) || exit 4
        fn=${spec##*-F }
        fn=${fn%% *}
        COMP_WORDS=("$@")
        COMP_CWORD=$(($# - 1))
        COMP_LINE="$*"
        COMP_POINT=${#COMP_LINE}
        "$fn" sweep-report "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
        printf "%s\n" "${COMPREPLY[@]}" | LC_ALL=C sort' _ "$script" "$@")
}
mkdir -p "$tmp/cwd/export-a/m1" "$tmp/cwd/exp-b" && touch "$tmp/cwd/claims.md" "$tmp/cwd/config.json"
# want NAME EXPECTED WORDS...: the completions of WORDS, one per line, are EXPECTED (space separated)
want() {
    name=$1 expected=$2
    shift 2
    got=$(completes "$comp" "$@" | tr '\n' ' ' | sed 's/ $//')
    if [ "$got" = "$expected" ]; then ok; else bad "completion $name: '$got', expected '$expected'"; fi
}
want "rep<TAB>" "report" sweep-report rep
want "<TAB>" "--generate --help --version -h audit compare help kv report survey verify" sweep-report ""
want "help c<TAB>" "compare" sweep-report help c
want "--generate <TAB>" "complete-bash man" sweep-report --generate ""
want "report --ci<TAB>" "--ci-method" sweep-report report --ci
want "report --ci-method <TAB>" "exact percentile" sweep-report report --ci-method ""
want "report --ci-method=ex<TAB>" "exact" sweep-report report --ci-method = ex
want "report --ci-method=<TAB>" "exact percentile" sweep-report report --ci-method =
want "compare --gsm8k-filter <TAB>" "flexible-extract strict-match" sweep-report compare x y --gsm8k-filter ""
want "kv --backend <TAB>" "gpu tpu" sweep-report kv config.json --backend ""
want "survey --backend g<TAB>" "gpu" sweep-report survey --backend g
want "kv --kv-cache-dtype <TAB>" "auto fp8" sweep-report kv --kv-cache-dtype ""
want "kv --gpu-memory-utilization <TAB> (a number)" "" sweep-report kv --gpu-memory-utilization ""
want "report -o <TAB> (directories)" "exp-b export-a" sweep-report report -o ""
want "report e<TAB> (the export: a directory)" "exp-b export-a" sweep-report report e
want "report export-a --resamples 10 e<TAB>" "" sweep-report report export-a --resamples 10 e
want "audit export-a c<TAB> (claims files)" "claims.md config.json" sweep-report audit export-a c
want "audit export-a claims.md c<TAB> (more claims files)" "claims.md config.json" sweep-report audit export-a claims.md c
want "kv c<TAB> (a file)" "claims.md config.json" sweep-report kv c
want "compare a b --fail<TAB>" "--fail-on-regression" sweep-report compare a b --fail
want "report --baseline x -- -<TAB> (after --, operands)" "" sweep-report report --baseline x -- -
# what is offered is never globbed nor split: directories named g*, g[ab], ga, gb
mkdir -p "$tmp/cwd/globs/g*" "$tmp/cwd/globs/g[ab]" "$tmp/cwd/globs/ga" "$tmp/cwd/globs/gb" "$tmp/cwd/globs/g c"
want "report globs/g<TAB> (names with * [ ] and a space)" "globs/g c globs/g* globs/g[ab] globs/ga globs/gb" \
    sweep-report report globs/g
want "report -o globs/g[<TAB>" "globs/g[ab]" sweep-report report -o "globs/g["
# --outputs: a comma-separated list; compare's has no tex
want "report --outputs <TAB>" "csv html json md pdf png svg tex" sweep-report report --outputs ""
want "report --outputs j<TAB>" "json" sweep-report report --outputs j
want "report --outputs json,p<TAB>" "json,pdf json,png" sweep-report report --outputs json,p
want "audit x y --outputs=json,csv,<TAB> (each once)" "json,csv,html json,csv,md json,csv,pdf json,csv,png json,csv,svg json,csv,tex" \
    sweep-report audit x y --outputs = json,csv,
want "compare a b --outputs t<TAB> (compare writes no tex)" "" sweep-report compare a b --outputs t
# bash-completion loads an installed completion on demand from XDG_DATA_DIRS
if [ -f /usr/share/bash-completion/bash_completion ]; then
    got=$(cd "$tmp/cwd" && XDG_DATA_DIRS=$dest$prefix/share bash --norc --noprofile -c '
        . /usr/share/bash-completion/bash_completion
        __load_completion sweep-report || exit 5
        spec=$(complete -p sweep-report) || exit 4
        fn=${spec##*-F }
        fn=${fn%% *}
        COMP_WORDS=(sweep-report rep)
        COMP_CWORD=1
        COMP_LINE="sweep-report rep"
        COMP_POINT=${#COMP_LINE}
        "$fn" sweep-report rep sweep-report
        printf "%s\n" "${COMPREPLY[@]}"' 2>&1)
    [ "$got" = report ] && ok || bad "bash-completion loading it from XDG_DATA_DIRS: '$got'"
else
    echo "install: bash-completion is not installed; its on-demand loading not tested"
fi

# ---- the installed program with the source tree out of reach ----------------
export_dir=$tmp/elsewhere/export
mkdir -p "$tmp/elsewhere/run"
cp -R "$root/fixtures/v5e-gemma4-sweep" "$export_dir"
run_args="report $export_dir -o out --resamples 1000 --threads 2"
# the build's own program, from the checkout, for the expected bytes
# shellcheck disable=SC2086
(cd "$tmp/elsewhere/run" && "$build/sweep-report" $run_args -o "$tmp/expected") >/dev/null 2>"$tmp/expected.err" ||
    { bad "the build's program on the copied fixture"; cat "$tmp/expected.err"; }
hidden=""
cat >"$tmp/installed-run.sh" <<EOF
cd "$tmp/elsewhere/run" || exit 9
if [ -r "$root/Makefile" ] || [ -d "$root/templates" ]; then echo "the checkout is still readable"; exit 8; fi
exec "$bin" $run_args
EOF
# The ways to put the source tree out of reach, the least intrusive first: a tmpfs over it in
# a private mount namespace (as root, or in a user namespace); as root where namespaces are
# refused (a container), the tree closed to everyone (mode 700) and the program run as nobody;
# else the tree renamed for the run. Each puts back what it changed.
if unshare -m sh -c "mount -t tmpfs -o size=1m none '$root' && sh '$tmp/installed-run.sh'" >"$tmp/run.out" 2>"$tmp/run.err"; then
    hidden="hidden by a tmpfs in a private mount namespace"
elif unshare -r -m sh -c "mount -t tmpfs -o size=1m none '$root' && sh '$tmp/installed-run.sh'" >"$tmp/run.out" 2>"$tmp/run.err"; then
    hidden="hidden by a tmpfs in a user and mount namespace"
elif [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 && [ "$(stat -c %u "$root")" = 0 ]; then
    mode=$(stat -c %a "$root")
    chmod 755 "$tmp" && chown -R 65534:65534 "$tmp/elsewhere"
    trap 'chmod "$mode" "$root"; rm -rf "$tmp"' EXIT
    chmod 700 "$root" && setpriv --reuid=65534 --regid=65534 --clear-groups sh "$tmp/installed-run.sh" \
        >"$tmp/run.out" 2>"$tmp/run.err" && hidden="closed to the user running the program (mode 700)"
    chmod "$mode" "$root"
    trap 'rm -rf "$tmp"' EXIT
elif mv "$root" "$root.moved-away-by-run-install" 2>/dev/null; then
    trap 'mv "$root.moved-away-by-run-install" "$root" 2>/dev/null; rm -rf "$tmp"' EXIT
    sh "$tmp/installed-run.sh" >"$tmp/run.out" 2>"$tmp/run.err" && hidden="renamed for the run"
    mv "$root.moved-away-by-run-install" "$root"
    trap 'rm -rf "$tmp"' EXIT
fi
if [ -n "$hidden" ]; then
    out=$tmp/elsewhere/run/out
    if [ -s "$out/report.html" ] && [ -s "$out/report.pdf" ] && [ -s "$out/results.md" ] &&
        [ -s "$out/charts/tradeoff.png" ] && diff -r "$tmp/expected" "$out" >"$tmp/diff" 2>&1; then
        ok
    else
        bad "the installed program with the source tree $hidden: not the build's report ($(head -3 "$tmp/diff"))"
        head -5 "$tmp/run.err"
    fi
else
    bad "the installed program could not be run with the source tree out of reach: $(head -3 "$tmp/run.err")"
fi

echo "install: $pass passed, $fail failed${hidden:+ (the source tree $hidden)}"
[ "$fail" = 0 ]
