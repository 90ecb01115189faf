#!/bin/sh
# The command line as a user meets it (make cli, part of make test):
#   sh tests/run-cli.sh path/to/sweep-report
# For every subcommand that `sweep-report --help` lists (so a new one is
# covered as soon as it is in main.c's table): `CMD --help`, `CMD -h` and
# `sweep-report help CMD` print the same help to stdout, nothing to stderr,
# exit 0; an unknown option is a usage error (exit 2) on stderr only, with
# "try 'sweep-report CMD --help'". Then the shared wordings: a bad number,
# a missing value, a missing operand, and the top level.
set -u
bin=${1:?usage: run-cli.sh path/to/sweep-report}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# run NAME EXIT ARGS...: runs the binary, checks the exit code; the output
# is left in $tmp/out and $tmp/err.
run() {
    name=$1 want=$2
    shift 2
    # shellcheck disable=SC2086 # $limit: a command prefix such as "timeout 10"
    (cd "$root" && ${limit:-} "$bin" "$@") >"$tmp/out" 2>"$tmp/err" </dev/null
    got=$?
    if [ "$got" != "$want" ]; then
        echo "FAIL $name: exit $got, expected $want"
        sed 's/^/    /' "$tmp/err" | head -5
        return 1
    fi
}
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
# has FILE TEXT: the file holds TEXT (fixed string)
has() { grep -qF -- "$2" "$1"; }

# ---- the top level -----------------------------------------------------------
if run top-help 0 --help && [ ! -s "$tmp/err" ] && has "$tmp/out" "usage: sweep-report " &&
    has "$tmp/out" "Exit codes:" && has "$tmp/out" "  4  "; then ok; else bad "--help: usage and exit codes on stdout"; fi
cp "$tmp/out" "$tmp/overview"
# The subcommands: the lines between "Commands:" and the blank line after.
commands=$(awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }' "$tmp/overview" |
    grep -vx help)
[ -n "$commands" ] && ok || bad "--help lists no subcommand"
if run help-alone 0 help && cmp -s "$tmp/out" "$tmp/overview"; then ok; else bad "'help' prints what --help prints"; fi
if run version 0 --version && has "$tmp/out" "sweep-report "; then ok; else bad "--version"; fi
if run no-command 2 && [ ! -s "$tmp/out" ] && has "$tmp/err" "error: no subcommand given" &&
    has "$tmp/err" "try 'sweep-report --help'"; then ok; else bad "no subcommand: exit 2 on stderr"; fi
if run unknown-command 2 frobnicate && [ ! -s "$tmp/out" ] && has "$tmp/err" "unknown subcommand 'frobnicate'"; then
    ok
else bad "unknown subcommand: exit 2 on stderr"; fi
if run help-unknown 2 help frobnicate && has "$tmp/err" "unknown subcommand 'frobnicate'"; then ok; else
    bad "help of an unknown subcommand: exit 2"
fi

# ---- every subcommand ----------------------------------------------------------
for cmd in $commands; do
    has "$tmp/overview" "sweep-report $cmd " || bad "$cmd: no usage line in --help"
    if run "$cmd --help" 0 "$cmd" --help && [ ! -s "$tmp/err" ] && has "$tmp/out" "usage: sweep-report $cmd " &&
        has "$tmp/out" "  -h, --help" && has "$tmp/out" "Exit codes:"; then
        ok
    else bad "$cmd --help: help on stdout, exit 0, stderr empty"; fi
    cp "$tmp/out" "$tmp/help-$cmd"
    if run "$cmd -h" 0 "$cmd" -h && cmp -s "$tmp/out" "$tmp/help-$cmd"; then ok; else bad "$cmd -h differs from --help"; fi
    if run "help $cmd" 0 help "$cmd" && [ ! -s "$tmp/err" ] && cmp -s "$tmp/out" "$tmp/help-$cmd"; then ok; else
        bad "sweep-report help $cmd differs from $cmd --help"
    fi
    if run "$cmd unknown option" 2 "$cmd" --no-such-option && [ ! -s "$tmp/out" ] &&
        has "$tmp/err" "error: unknown option '--no-such-option'" && has "$tmp/err" "try 'sweep-report $cmd --help'"; then
        ok
    else bad "$cmd --no-such-option: exit 2, message and hint on stderr only"; fi
    # Every option the help lists is accepted by name (a value-taking one
    # without its value says it needs one, never "unknown option").
    for opt in $(sed -n 's/^  \(-., \)\{0,1\} *\(--[a-z0-9-]*\).*/\2/p' "$tmp/help-$cmd" | grep -vx -- --help); do
        run "$cmd $opt" 2 "$cmd" "$opt" >/dev/null 2>&1 || true
        if has "$tmp/err" "unknown option"; then bad "$cmd: $opt is listed in --help but unknown"; else ok; fi
    done
done

# ---- the shared wordings -------------------------------------------------------
export_dir=fixtures/v5e-gemma4-formats
if run bad-whole 2 report "$export_dir" --resamples 10k &&
    has "$tmp/err" "error: --resamples takes a whole number from 1 to 100000000, not '10k'"; then ok; else
    bad "report --resamples 10k: wording"
fi
if run bad-number 2 report "$export_dir" --confidence 95 &&
    has "$tmp/err" "error: --confidence takes a number greater than 0 and less than 1, not '95'"; then ok; else
    bad "report --confidence 95: wording"
fi
if run bad-choice 2 report "$export_dir" --ci-method bca &&
    has "$tmp/err" "error: --ci-method takes percentile or exact, not 'bca'"; then ok; else
    bad "report --ci-method bca: wording"
fi
if run kv-bad-number 2 kv fixtures/configs/Qwen3-4B/config.json --backend tpu --available-gib 3 --tp 0 &&
    has "$tmp/err" "error: --tp takes a whole number from 1 to 4096, not '0'" &&
    has "$tmp/err" "try 'sweep-report kv --help'"; then ok; else
    bad "kv --tp 0: the same wording as report's"
fi
if run missing-value 2 report "$export_dir" --seed && has "$tmp/err" "error: option '--seed' needs a value"; then ok; else
    bad "report --seed without a value"
fi
if run missing-operand 2 report -o "$tmp/never" && has "$tmp/err" "error: missing EXPORT_DIR" && [ ! -e "$tmp/never" ]; then
    ok
else bad "report without EXPORT_DIR: exit 2, nothing written"; fi
if run extra-operand 2 report "$export_dir" more && has "$tmp/err" "error: unexpected argument 'more'"; then ok; else
    bad "report with two EXPORT_DIRs"
fi
# issue 22: a config.json relying on transformers' defaults (LLaVA's text_config is LlamaConfig)
printf '{"model_type": "llava", "text_config": {"hidden_size": 2048, "num_attention_heads": 16}}\n' >"$tmp/llava.json"
if run kv-class-defaults 0 kv "$tmp/llava.json" --backend tpu --available-gib 3 &&
    has "$tmp/out" "layers           32 of 32 hold KV" &&
    has "$tmp/out" "not in config.json, LlamaConfig's defaults for model type 'llama' (transformers): num_hidden_layers 32, max_position_embeddings 2048"; then
    ok
else bad "kv on a LLaVA config without text sizes: LlamaConfig's defaults, named"; fi
printf '{"model_type": "weird", "hidden_size": 2048}\n' >"$tmp/weird.json"
if run kv-no-default 3 kv "$tmp/weird.json" --backend tpu --available-gib 3 &&
    has "$tmp/err" "field 'num_hidden_layers' is missing, and model type 'weird' has no known default"; then ok; else
    bad "kv on a config whose missing field has no default: an input error naming it"
fi
if run kv-missing-operand 2 kv --backend tpu && has "$tmp/err" "error: missing CONFIG_JSON"; then ok; else
    bad "kv without CONFIG_JSON"
fi
if run kv-required 2 kv fixtures/configs/Qwen3-4B/config.json --available-gib 3 &&
    has "$tmp/err" "error: --backend tpu|gpu is required"; then ok; else bad "kv without --backend"; fi
# kv's memory options are optional one by one: --available-gib alone is enough.
if run kv-available-only 0 kv fixtures/configs/Qwen3-4B/config.json --backend tpu --available-gib 3 --max-model-len 4096 &&
    has "$tmp/out" "tokens "; then ok; else bad "kv with --available-gib only"; fi
# ---- audit: claims files as operands, exit 4 when one differs ------------------
if run audit-holds 0 audit "$export_dir" "$export_dir/claims.md" -o "$tmp/audit-ok" --resamples 1000 &&
    has "$tmp/err" "32 claims: 32 reproduced" && has "$tmp/audit-ok/results.md" "## Claims checked"; then ok; else
    bad "audit of the published claims: exit 0, all reproduced"
fi
if run audit-differs 4 audit "$export_dir" tests/claims/every-verdict.md -o "$tmp/audit-bad" --resamples 1000 &&
    has "$tmp/err" "claims differ from the export or name no model" && [ -s "$tmp/audit-bad/report.pdf" ]; then ok; else
    bad "audit with wrong claims: exit 4 after writing the report"
fi
if run report-claims-differ 0 report "$export_dir" --claims tests/claims/every-verdict.md -o "$tmp/report-claims" \
    --resamples 1000 && has "$tmp/report-claims/results.md" "| differs |"; then ok; else
    bad "report --claims: differing claims are reported, exit 0"
fi
if run audit-no-claims 2 audit "$export_dir" && has "$tmp/err" "error: missing CLAIMS_FILE"; then ok; else
    bad "audit without a claims file: usage error"
fi
if run audit-bad-claims 3 audit "$export_dir" README.md -o "$tmp/never2" && has "$tmp/err" "no claims" &&
    [ ! -e "$tmp/never2" ]; then ok; else
    bad "audit of a file whose tables are not claims: input error, nothing written"
fi
if run audit-unreadable 3 audit "$export_dir" "$tmp/none.md" -o "$tmp/never3" && has "$tmp/err" "none.md" &&
    [ ! -e "$tmp/never3" ]; then ok; else bad "audit of a missing claims file: input error naming it"; fi

if run timings 0 report "$export_dir" -o "$tmp/out-dir" --resamples 10 --timings &&
    has "$tmp/err" "sweep-report: seconds: load " && [ ! -s "$tmp/out" ]; then ok; else
    bad "report --timings: the steps on stderr"
fi

# ---- --baseline by id, label or tag (the bucket layout's arms) --------------------
bucket=tests/cases/report/bucket-prefix/export
if run baseline-label 0 report "$bucket" -o "$tmp/b1" --resamples 10 --baseline "small (2026-10-02-a-v5e1)" &&
    has "$tmp/b1/report.json" '"baseline": "org/small-it"'; then ok; else bad "--baseline by label"; fi
if run baseline-shared-id 2 report "$bucket" -o "$tmp/b2" --baseline org/small-it &&
    has "$tmp/err" "names 2 entries: 'small (2026-10-02-a-v5e1)', 'small (2026-10-03-b-v5e1)'" && [ ! -e "$tmp/b2" ]; then
    ok
else bad "--baseline naming an id two entries share: usage error listing their labels"; fi
if run baseline-shared-tag 2 report "$bucket" -o "$tmp/b3" --baseline small && has "$tmp/err" "names 2 entries"; then ok
else bad "--baseline naming a tag two runs share: usage error"; fi
if run baseline-tag 0 report tests/cases/report/bucket-run/export -o "$tmp/b4" --resamples 10 --baseline SMALL-BF16 &&
    has "$tmp/b4/report.json" '"baseline": "org/small-it"'; then ok; else bad "--baseline by tag, case-insensitive"; fi
if run baseline-unknown 3 report tests/cases/report/bucket-run/export -o "$tmp/b5" --baseline small-it-w8 &&
    has "$tmp/err" "baseline 'small-it-w8' (--baseline) is not in the export; nearest ids: 'small-it-w8a8'"; then ok
else bad "--baseline naming nothing: says where the name came from and the nearest ids"; fi
# ---- issue 21: hostile exports ---------------------------------------------------
hostile="$tmp/hostile"
cp -R tests/bad/base "$hostile" 2>/dev/null || cp -R "$root/tests/bad/base" "$hostile"
(cd "$root" && "$bin" report "$hostile" -o "$tmp/h-clean" --resamples 100) >/dev/null 2>&1
# figures: the models' accuracy and speed, for comparing two runs
figures() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
print(json.dumps([(m["id"], m["accuracy"], m["speed"]) for m in r["models"]], sort_keys=True))' "$1"; }
ln -s .. "$hostile/other/loop"
ln -s . "$hostile/zz"
ln -s ../.. "$hostile/other/bench/up"
if limit="timeout 30" run link-loops 0 report "$hostile" -o "$tmp/h-loops" --resamples 100 &&
    [ "$(figures "$tmp/h-loops/report.json")" = "$(figures "$tmp/h-clean/report.json")" ]; then ok; else
    bad "symbolic links back up the export: the same figures, no hang"
fi
rm "$hostile/other/loop" "$hostile/zz" "$hostile/other/bench/up"
mkfifo "$hostile/claims.md" "$tmp/config.fifo"
if limit="timeout 10" run fifo-claims 3 audit "$hostile" "$hostile/claims.md" -o "$tmp/never4" &&
    has "$tmp/err" "claims.md': not a regular file" && [ ! -e "$tmp/never4" ]; then ok; else
    bad "audit of a FIFO claims file: input error naming it, no hang"
fi
if limit="timeout 10" run fifo-kv 3 kv "$tmp/config.fifo" --backend tpu --available-gib 3 &&
    has "$tmp/err" "config.fifo': not a regular file"; then ok; else bad "kv of a FIFO: input error naming it, no hang"; fi
rm "$hostile/claims.md"
# a claims file inside the export that links outside it is refused like the walk refuses it
cp fixtures/v5e-gemma4-sweep/claims.md "$tmp/outside-claims.md" 2>/dev/null || cp "$root/fixtures/v5e-gemma4-sweep/claims.md" "$tmp/outside-claims.md"
ln -s "$tmp/outside-claims.md" "$hostile/claims.md"
if run claims-link-outside 3 audit "$hostile" "$hostile/claims.md" -o "$tmp/never5" &&
    has "$tmp/err" "symbolic link leads outside the export" && [ ! -e "$tmp/never5" ]; then ok; else
    bad "a claims file in the export linking outside it: refused"
fi
rm "$hostile/claims.md"
# terminal escapes in input text reach stderr escaped
cp "$hostile/sweep.json" "$tmp/sweep.json.orig"
printf '{"baseline": "\\u001b]0;pwned\\u0007\\u001b[2J"}\n' >"$hostile/sweep.json"
if run terminal-escapes 3 report "$hostile" -o "$tmp/never6" && ! grep -q "$(printf '\033')" "$tmp/err" &&
    has "$tmp/err" '\x1B]0;pwned\x07\x1B[2J'; then ok; else bad "control characters of a baseline name printed escaped"; fi
cp "$tmp/sweep.json.orig" "$hostile/sweep.json"
# a BOM on the run plan adds no phantom model
models() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["models"]))' "$1"; }
{ printf '\357\273\277'; cat "$root/tests/bad/base/sweep.arms"; } >"$hostile/sweep.arms"
if run bom-arms 0 report "$hostile" -o "$tmp/h-bom" --resamples 100 &&
    [ "$(models "$tmp/h-bom/report.json")" = "$(models "$tmp/h-clean/report.json")" ]; then ok; else
    bad "a UTF-8 BOM on sweep.arms: no phantom model"
fi
cp "$root/tests/bad/base/sweep.arms" "$hostile/sweep.arms"
# text that is not UTF-8, or a noncharacter, in names: every output valid, the charts drawn
valid_outputs() { python3 -c 'import json,sys
d=sys.argv[1]
json.load(open(d+"/report.json", encoding="utf-8"))
for f in ("results.csv", "results.md", "report.html"):
    open(d+"/"+f, encoding="utf-8").read()
import os; assert os.path.exists(d+"/charts/accuracy_delta.png")' "$1"; }
mkdir "$hostile/$(printf 'dir\377x')"
cp "$hostile/other/bfcl_simple.scores.csv" "$hostile/$(printf 'dir\377x')/" 2>/dev/null ||
    printf 'item_id,score\n1,1\n' >"$hostile/$(printf 'dir\377x')/gsm8k.scores.csv"
printf 'item_id,score\n1,1\n2,0\n' >"$hostile/other/$(printf 'x\357\277\276').scores.csv"
if run bad-utf8-names 0 report "$hostile" -o "$tmp/h-utf8" --resamples 100 --keep-going && valid_outputs "$tmp/h-utf8" &&
    has "$tmp/h-utf8/report.json" 'dir\\xFFx'; then ok; else
    bad "names that are not UTF-8 or hold a noncharacter: valid outputs, charts drawn, bytes shown as \\xHH"
fi
rm -rf "$hostile/$(printf 'dir\377x')" "$hostile/other/$(printf 'x\357\277\276').scores.csv"

# the output set: a file-size limit, a second run, a killed run's leftovers
(cd "$root" && "$bin" report "$hostile" -o "$tmp/h-set" --resamples 100) >/dev/null 2>&1
cp "$tmp/h-set/report.json" "$tmp/h-set-before.json"
touch "$tmp/h-set/report.json.tmp.AbC123"
mkdir -p "$tmp/h-set/.sweep-report.new.XyZ789/charts" && touch "$tmp/h-set/.sweep-report.new.XyZ789/charts/x.png"
if (cd "$root" && ulimit -f 16 && "$bin" report fixtures/v5e-gemma4-sweep -o "$tmp/h-set" --resamples 100) \
    >"$tmp/out" 2>"$tmp/err"; then bad "ulimit -f: exit 0"; elif [ $? = 1 ] && has "$tmp/err" "File too large" &&
    cmp -s "$tmp/h-set/report.json" "$tmp/h-set-before.json" && [ ! -e "$tmp/h-set/report.json.tmp.AbC123" ] &&
    [ -z "$(find "$tmp/h-set" -name '.sweep-report.new.*')" ]; then ok; else
    bad "a file-size limit: exit 1 with a message, the previous report whole, stale temporaries gone"
fi
if command -v flock >/dev/null 2>&1; then
    flock "$tmp/h-set/.sweep-report.lock" sleep 5 &
    locker=$!
    sleep 0.5
    if run second-run 1 report "$hostile" -o "$tmp/h-set" --resamples 100 && has "$tmp/err" "another sweep-report run" &&
        cmp -s "$tmp/h-set/report.json" "$tmp/h-set-before.json"; then ok; else
        bad "a second run into a locked OUT_DIR: refused, exit 1, the report untouched"
    fi
    kill "$locker" 2>/dev/null
    wait "$locker" 2>/dev/null
else
    echo "cli: flock(1) not found; the second-run test skipped"
fi
# SIGTERM during a run: the OUT_DIR holds one whole set (old or new), no temporaries
(cd "$root" && exec "$bin" report fixtures/v5e-gemma4-sweep -o "$tmp/h-set" --resamples 20000) >/dev/null 2>&1 &
victim=$!
sleep 1
kill -TERM "$victim" 2>/dev/null
wait "$victim" 2>/dev/null
if [ -z "$(find "$tmp/h-set" -name '*.tmp.*' -o -name '.sweep-report.new.*')" ] &&
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/h-set/report.json"; then ok; else
    bad "SIGTERM during a run: no temporary left, report.json whole"
fi

# out of memory in the JSON parser is "out of memory", exit 1: never "invalid json", never a warning
if grep -q __asan_init "$bin" 2>/dev/null; then
    echo "cli: ASan build (ulimit -v cannot hold its shadow memory); the out-of-memory tests skipped"
else
    cp -R "$root/tests/bad/base" "$tmp/h-big"
    big=$(ls "$tmp/h-big"/other/bench/*.json | head -1)
    python3 -c 'import json,sys; f=sys.argv[1]; d=json.loads(open(f).readline()); d["itls"]=[0.0123456]*1200000
open(f,"w").write(json.dumps(d)+"\n")' "$big"
    for kg in "" --keep-going; do
        # shellcheck disable=SC2086
        (ulimit -v 122880 && cd "$root" && "$bin" report "$tmp/h-big" -o "$tmp/never7" --resamples 10 --threads 1 $kg) \
            >"$tmp/out" 2>"$tmp/err"
        got=$?
        if [ "$got" = 1 ] && has "$tmp/err" "error: out of memory" && ! has "$tmp/err" "invalid json" &&
            [ ! -e "$tmp/never7/report.json" ]; then ok; else
            bad "a 13 MB bench JSON under ulimit -v 122880 ${kg:-}: exit $got, expected 1 and 'out of memory'"
            sed 's/^/    /' "$tmp/err" | head -3
        fi
    done
fi

# a path longer than PATH_MAX inside the export: a warning with --keep-going (exit 0), else exit 3 naming it
python3 -c 'import os,sys
os.chdir(sys.argv[1])
for i in range(25):  # 25 x 204 bytes: past PATH_MAX (4096)
    os.mkdir("d%02d" % i + "x" * 200); os.chdir("d%02d" % i + "x" * 200)
open("gsm8k.scores.csv", "w").write("item_id,score\n1,1\n")' "$hostile/other"
if run path-too-long-keep-going 0 report "$hostile" -o "$tmp/h-long" --resamples 100 --keep-going &&
    has "$tmp/h-long/report.json" "cannot stat: File name too long; this path left out" &&
    [ "$(figures "$tmp/h-long/report.json")" = "$(figures "$tmp/h-clean/report.json")" ]; then ok; else
    bad "a path longer than PATH_MAX with --keep-going: a warning, exit 0, the figures unchanged"
fi
if run path-too-long 3 report "$hostile" -o "$tmp/never8" --resamples 100 &&
    has "$tmp/err" "other/d00xx" && has "$tmp/err" "cannot stat: File name too long" && [ ! -e "$tmp/never8" ]; then
    ok
else bad "a path longer than PATH_MAX without --keep-going: exit 3 naming it"; fi
rm -rf "$hostile/other/d00"*
# a duplicate key in kv's config.json: a warning, the first value read
printf '{"num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 8,\n "max_position_embeddings": 4096, "num_hidden_layers": 99}\n' >"$tmp/dup-config.json"
if run kv-duplicate-key 0 kv "$tmp/dup-config.json" --backend gpu --available-gib 1 &&
    has "$tmp/err" "dup-config.json':2: duplicate key \"num_hidden_layers\" in a JSON object; the first value is read"; then
    ok
else bad "kv: a duplicate key in config.json is a warning naming the file, line and key"; fi
# A full disk is not made here: without a root-only mount (tmpfs, loop device) no small filesystem can be
# filled; its failure path is the write error the ulimit -f test above takes (EFBIG there, ENOSPC here).

# --keep-going: an unreadable subdirectory is a warning (as an unprivileged user: root reads anything)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    pub=$(mktemp -d)
    chmod 755 "$pub"
    cp -R "$root/tests/bad/base" "$pub/e"
    chmod -R a+rX "$pub/e"
    mkdir "$pub/out" "$pub/out2" && chown 65534:65534 "$pub/out" "$pub/out2"
    chmod 000 "$pub/e/other/bench"
    if setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" report "$pub/e" -o "$pub/out" --resamples 10 \
        --keep-going >/dev/null 2>"$tmp/err" && has "$pub/out/report.json" "cannot read directory: Permission denied"; then
        ok
    else bad "--keep-going with an unreadable subdirectory: a warning, exit 0"; fi
    if setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" report "$pub/e" -o "$pub/out2" --resamples 10 \
        >/dev/null 2>"$tmp/err"; then bad "an unreadable subdirectory without --keep-going: exit 0"; elif
        has "$tmp/err" "other/bench': cannot read directory"; then ok; else bad "an unreadable subdirectory: exit 3 naming it"; fi
    chmod 755 "$pub/e/other/bench"
    rm -rf "$pub"
else
    echo "cli: not root or no setpriv; the unreadable-directory test skipped"
fi

# The author's accuracy files: the answer-token limits and a summary without rows are said in the report's notes.
if run gen-notes 0 report tests/cases/report/bucket-gen/export -o "$tmp/g1" --resamples 10 --baseline base &&
    has "$tmp/g1/report.html" "GSM8K: answers limited to different token limits, so differences mix model and limit: base 2,048, other 768." &&
    has "$tmp/g1/report.html" "other, BFCL: the run&#39;s summary (logs/other.gen-bfcl_simple.json) claims 0.8750, 350 of 400 right; without its per-item rows it is not recomputed and has no interval." &&
    has "$tmp/g1/report.json" "answers limited to 768 tokens here but 2048 in the baseline"; then ok
else bad "gen rows: token limits and an unrecomputed summary in the report's notes"; fi

# ---- --outputs: only the formats asked for are rendered and written (issue 33) ------
mkdir -p "$tmp/os"
printf 'not ours\n' >"$tmp/os/report.pdf"
if run outputs-json-md 0 report fixtures/v5e-gemma4-sweep -o "$tmp/os" --resamples 10 --outputs json,md &&
    [ -s "$tmp/os/report.json" ] && [ -s "$tmp/os/results.md" ] && [ ! -e "$tmp/os/charts" ] &&
    [ ! -e "$tmp/os/report.html" ] && [ ! -e "$tmp/os/results.csv" ] && [ ! -e "$tmp/os/results.tex" ] &&
    [ "$(cat "$tmp/os/report.pdf")" = "not ours" ]; then ok
else bad "--outputs json,md: report.json and results.md only, an older report.pdf left as it was"; fi
if run outputs-svg-html 0 report fixtures/v5e-gemma4-sweep -o "$tmp/os2" --resamples 10 --outputs html,svg &&
    [ -s "$tmp/os2/charts/speed_ratio.svg" ] && [ ! -e "$tmp/os2/charts/speed_ratio.png" ] &&
    has "$tmp/os2/report.html" "(also as charts/speed_ratio.svg)" && ! has "$tmp/os2/report.html" "speed_ratio.png"; then ok
else bad "--outputs html,svg: SVG charts only, the HTML names only them"; fi
if run outputs-html 0 report fixtures/v5e-gemma4-sweep -o "$tmp/os3" --resamples 10 --outputs html &&
    [ ! -e "$tmp/os3/charts" ] && has "$tmp/os3/report.html" "<svg" && ! has "$tmp/os3/report.html" "also as"; then ok
else bad "--outputs html: the charts inlined, no chart files named or written"; fi
if run outputs-compare 0 compare fixtures/v5e-gemma4-formats fixtures/v5e-gemma4-rerun -o "$tmp/os4" \
    --resamples 10 --outputs png,csv && [ -s "$tmp/os4/compare.csv" ] && [ ! -e "$tmp/os4/compare.json" ] &&
    ls "$tmp/os4/charts/"*.png >/dev/null 2>&1 && ! ls "$tmp/os4/charts/"*.svg >/dev/null 2>&1; then ok
else bad "compare --outputs png,csv: compare.csv and the PNG charts only"; fi
for v in "json,,md" "" "json,docx" "JSON"; do
    if run "outputs-bad-$v" 2 report fixtures/v5e-gemma4-sweep -o "$tmp/os5" --outputs "$v" &&
        has "$tmp/err" "--outputs takes a comma-separated list of json, csv, md, html, pdf, svg, png, tex" &&
        [ ! -e "$tmp/os5" ]; then ok
    else bad "--outputs '$v': a usage error, nothing written"; fi
done

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
