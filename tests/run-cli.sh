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
# --generate: the man page and the completion on stdout; a bad kind is a usage error
if run generate-man 0 --generate man && has "$tmp/out" ".TH SWEEP\-REPORT 1" && [ ! -s "$tmp/err" ]; then ok; else
    bad "--generate man"
fi
if run generate-bash 0 --generate=complete-bash && has "$tmp/out" "complete -F _sweep_report sweep-report"; then ok; else
    bad "--generate=complete-bash"
fi
if run generate-none 2 --generate && has "$tmp/err" "error: option '--generate' needs a value"; then ok; else
    bad "--generate without a kind"
fi
if run generate-bad 2 --generate pdf && has "$tmp/err" "error: --generate takes man or complete-bash, not 'pdf'"; then ok
else bad "--generate pdf: the shared wording"; fi
# did you mean: a mistyped subcommand or option gets the nearest names (git's way)
if run typo-command 2 reprot && has "$tmp/err" "error: unknown subcommand 'reprot'; did you mean 'report'?" &&
    has "$tmp/err" "try 'sweep-report --help'"; then ok; else bad "reprot: did you mean 'report'"; fi
if run typo-help 2 help comapre && has "$tmp/err" "unknown subcommand 'comapre'; did you mean 'compare'?"; then ok
else bad "help comapre: did you mean 'compare'"; fi
if run typo-short 2 report fixtures/v5e-gemma4-sweep -O x && has "$tmp/err" "error: unknown option '-O'; did you mean '-o'?" &&
    [ ! -e "$root/x" ]; then ok
else bad "report -O x: did you mean '-o'"; fi
if run typo-top-option 2 --verison && has "$tmp/err" "unknown option '--verison'; did you mean '--version'?"; then ok
else bad "--verison: did you mean '--version'"; fi
if run typo-option 2 report fixtures/v5e-gemma4-formats --basline x &&
    has "$tmp/err" "error: unknown option '--basline'; did you mean '--baseline'?" &&
    has "$tmp/err" "try 'sweep-report report --help'"; then ok; else bad "report --basline: did you mean '--baseline'"; fi
if run typo-alias 2 kv x --gpu-memory-utilisation 0.9 &&
    has "$tmp/err" "did you mean '--gpu-memory-utilization'?"; then ok; else bad "kv: an alias is suggested too"; fi

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
    for opt in $(sed -n 's/^  \(-., \)\{0,1\} \{0,4\}\(--[a-z0-9-]*\).*/\2/p' "$tmp/help-$cmd" | grep -vx -- --help); do
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
# issue 28: the fewest resamples the percentile method is read from, for every command that bootstraps
if run compare-few-resamples 2 compare "$export_dir" fixtures/v5e-gemma4-rerun -o "$tmp/never-c" --resamples 2 &&
    has "$tmp/err" "error: --resamples 2 is too few for 95% intervals: the percentile method needs at least 1000" &&
    [ ! -e "$tmp/never-c" ]; then ok; else bad "compare --resamples 2: usage error naming the minimum, nothing written"; fi
if run audit-few-resamples 2 audit "$export_dir" "$export_dir/claims.md" -o "$tmp/never-a" --resamples 500 &&
    has "$tmp/err" "needs at least 1000"; then ok; else bad "audit --resamples 500: usage error naming the minimum"; fi
if run simultaneous-few-resamples 2 report fixtures/v5e-gemma4-sweep -o "$tmp/never-s" --resamples 5000 --simultaneous &&
    has "$tmp/err" "--resamples 5000 is too few for --simultaneous: the 6 comparisons on" &&
    has "$tmp/err" "which needs at least 6000 resamples" && [ ! -e "$tmp/never-s" ]; then ok; else
    bad "report --simultaneous over 6 comparisons with 5000 resamples: usage error naming 6000, nothing written"
fi
if run report-confidence-90 0 report tests/bad/base -o "$tmp/c90" --resamples 500 --confidence 0.9; then ok; else
    bad "report --confidence 0.9 --resamples 500: the minimum follows the confidence (500 at 90%)"
fi
# --slo ttft=MS,tpot=MS[,e2el=MS] (issue 32): each bound a positive number once; anything else a usage error
for slo in "ttft=0" "ttft=300,ttft=200" "latency=300" "ttft=300," "tpot=abc" ""; do
    if run "slo-$slo" 2 report "$export_dir" -o "$tmp/never-slo" --slo "$slo" &&
        has "$tmp/err" "--slo" && [ ! -e "$tmp/never-slo" ]; then ok; else bad "report --slo '$slo': usage error naming --slo"; fi
done
if run slo-ok 0 report "$export_dir" -o "$tmp/slo" --slo ttft=300,tpot=40,e2el=5000 &&
    has "$tmp/slo/report.json" '"e2el_ms": 5000'; then ok; else bad "report --slo with three bounds: in settings.slo"; fi
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
# issue 28: a huge max_position_embeddings is a number, named, never "missing"
printf '{"num_hidden_layers": 2, "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 8, "max_position_embeddings": 4294967296}\n' >"$tmp/huge-positions.json"
if run kv-huge-positions 2 kv "$tmp/huge-positions.json" --backend gpu --available-gib 1 &&
    has "$tmp/err" "the config's max_position_embeddings, 4294967296, is more than" && ! has "$tmp/err" "has no"; then ok
else bad "kv on max_position_embeddings 2^32: a usage error naming the number"; fi
if run kv-huge-positions-given 0 kv "$tmp/huge-positions.json" --backend gpu --available-gib 1 --max-model-len 4096 &&
    has "$tmp/out" "tokens "; then ok; else bad "kv on max_position_embeddings 2^32 with --max-model-len: read"; fi
printf '{"num_hidden_layers": 2, "num_attention_heads": 16, "num_key_value_heads": 32, "head_dim": 8, "max_position_embeddings": 4096}\n' >"$tmp/kv-over.json"
if run kv-heads-over 3 kv "$tmp/kv-over.json" --backend gpu --available-gib 1 &&
    has "$tmp/err" "field 'num_key_value_heads' 32 is more than num_attention_heads 16"; then ok; else
    bad "kv with 32 KV heads for 16 query heads: an input error, as vLLM refuses it"
fi
if run kv-missing-operand 2 kv --backend tpu && has "$tmp/err" "error: missing CONFIG_JSON"; then ok; else
    bad "kv without CONFIG_JSON"
fi
if run kv-required 2 kv fixtures/configs/Qwen3-4B/config.json --available-gib 3 &&
    has "$tmp/err" "error: --backend tpu|gpu is required"; then ok; else bad "kv without --backend"; fi
# kv's memory options are optional one by one: --available-gib alone is enough.
if run kv-available-only 0 kv fixtures/configs/Qwen3-4B/config.json --backend tpu --available-gib 3 --max-model-len 4096 &&
    has "$tmp/out" "tokens "; then ok; else bad "kv with --available-gib only"; fi
# issue 37 (ux 5, 17): planning figures vLLM would never produce. A length beyond the config's
# max_position_embeddings is "-" with the limit named, never a token count; below 1x says vLLM
# will not start; --backend gpu defaults --mem-util to vLLM's 0.90 and the assumptions say so.
smol=fixtures/hub-survey/HuggingFaceTB--SmolLM2-1.7B-Instruct.config.json
if run kv-beyond-positions 0 kv "$smol" --backend gpu --available-gib 20 --max-model-len 131072 &&
    has "$tmp/out" "tokens           - (131,072 exceeds the model's 8,192, its max_position_embeddings: vLLM refuses" &&
    has "$tmp/out" "max concurrency  - for 131,072 tokens" && ! grep -q "^tokens  *[0-9]" "$tmp/out"; then ok
else bad "kv --max-model-len beyond max_position_embeddings: '-', the limit named, no count"; fi
if run kv-beyond-positions-json 0 kv "$smol" --backend gpu --available-gib 20 --max-model-len 131072 --json &&
    has "$tmp/out" '"tokens": null' && has "$tmp/out" '"vllm_starts": false' &&
    has "$tmp/out" '"derived_max_model_len": 8192'; then ok
else bad "kv --json beyond max_position_embeddings: tokens null, vllm_starts false"; fi
if run kv-below-one 0 kv "$smol" --backend gpu --available-gib 1 --max-model-len 8192 &&
    has "$tmp/out" "max concurrency  0.67x for 8,192 tokens per request: not one request of this length fits, so vLLM will not start"
then ok; else bad "kv below 1x: says vLLM will not start"; fi
if run kv-gpu-default-util 0 kv fixtures/configs/Qwen3-4B/config.json --backend gpu --hbm-gib 80 --used-gib 10 --max-model-len 4096 &&
    has "$tmp/out" "80.00 GiB x 0.9000 - 10.000 GiB = 62.000 GiB available" &&
    has "$tmp/out" "assumptions      mem-util 0.90, the default (vLLM's gpu_memory_utilization default"; then ok
else bad "kv --backend gpu: --mem-util defaults to vLLM's 0.90, named in the assumptions"; fi
if run kv-given-util 0 kv fixtures/configs/Qwen3-4B/config.json --backend gpu --hbm-gib 80 --mem-util 0.92 --used-gib 10 --max-model-len 4096 &&
    ! has "$tmp/out" "the default"; then ok
else bad "kv --mem-util given: no default named"; fi
# A rope_scaling factor raises the limit as vLLM derives it (YaRN: original x factor).
printf '{"num_hidden_layers": 2, "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 8, "max_position_embeddings": 32768, "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}\n' >"$tmp/yarn.json"
if run kv-yarn 0 kv "$tmp/yarn.json" --backend gpu --available-gib 1 --max-model-len 131072 && has "$tmp/out" "tokens           2,097,152" &&
    run kv-yarn-beyond 0 kv "$tmp/yarn.json" --backend gpu --available-gib 1 --max-model-len 262144 &&
    has "$tmp/out" "exceeds the model's 131,072, its max_position_embeddings times its rope_scaling factor"; then ok
else bad "kv with YaRN x4: 131,072 counted, 262,144 refused"; fi
if run survey-beyond-positions 0 survey fixtures/hub-survey -o "$tmp/survey-lengths" &&
    has "$tmp/survey-lengths/candidates.md" "| HuggingFaceTB/SmolLM2-1.7B-Instruct | 53,248 (13.00x) | 53,248 (6.50x) | \- (exceeds 8,192) | \- (exceeds 8,192) |" &&
    has "$tmp/survey-lengths/candidates.md" "| allenai/OLMo-2-0425-1B | 83,456 (20.38x) | \- (exceeds 4,096) |" &&
    has "$tmp/survey-lengths/candidates.md" "47,616 (0.36x, will not start)" &&
    has "$tmp/survey-lengths/candidates.md" "blocks of 256 tokens at 4,096, 256 at 8,192, 64 at 32,768 and 256 at 131,072" &&
    grep -q '"exceeds_max_model_len":.true' "$tmp/survey-lengths/candidates.json"; then ok
else bad "survey what-if: '-' beyond a model's positions, 'will not start' below 1x, TPU blocks explained"; fi
# ---- audit: claims files as operands, exit 4 when one differs ------------------
# issue 31: a misspelt name gets the nearest entry; differ and unmatched are counted apart
if run audit-misspelt 4 audit "$export_dir" tests/claims/misspelt-names.md -o "$tmp/audit-typo" --resamples 1000 &&
    has "$tmp/err" "claims name no model of the export: 'Qwen3 4.0B' (nearest: Qwen/Qwen3-4B), 'SmolLM 3B' (nearest: HuggingFaceTB/SmolLM3-3B), 'Llama 3.2 1B' (see" &&
    has "$tmp/audit-typo/results.md" "No model of the export matches 'Qwen3 4.0B' (nearest: Qwen/Qwen3-4B)." &&
    has "$tmp/audit-typo/results.md" "No model of the export matches 'Llama 3.2 1B'."; then ok; else
    bad "audit with misspelt names: the nearest entry named, unmatched counted apart from differ"
fi
if run audit-holds 0 audit "$export_dir" "$export_dir/claims.md" -o "$tmp/audit-ok" --resamples 1000 &&
    has "$tmp/err" "32 claims: 32 reproduced" && has "$tmp/audit-ok/results.md" "## Claims checked"; then ok; else
    bad "audit of the published claims: exit 0, all reproduced"
fi
# report --help names the documents' sections in the order results.md has them
"$bin" report --help | tr -s ' \n' '  ' >"$tmp/report-help-flat"
sections_in_order=1 at=0
while IFS= read -r heading; do
    pos=$(awk -v h="$heading" '{ i = index($0, h); print i }' "$tmp/report-help-flat")
    if [ "$pos" -le "$at" ]; then sections_in_order=0; echo "    '$heading' not in report --help after the one before"; fi
    at=$pos
done <<EOF
$(sed -n 's/^## //p' "$tmp/audit-ok/results.md")
EOF
if [ "$sections_in_order" = 1 ] && [ "$(grep -c '^## ' "$tmp/audit-ok/results.md")" -ge 8 ]; then ok; else
    bad "report --help: the sections of results.md, in its order"
fi
if run audit-differs 4 audit "$export_dir" tests/claims/every-verdict.md -o "$tmp/audit-bad" --resamples 1000 &&
    has "$tmp/err" "claims differ from the export" && [ -s "$tmp/audit-bad/report.pdf" ]; then ok; else
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

if run timings 0 report "$export_dir" -o "$tmp/out-dir" --resamples 1000 --timings &&
    has "$tmp/err" "sweep-report: seconds: load " && [ ! -s "$tmp/out" ]; then ok; else
    bad "report --timings: the steps on stderr"
fi

# ---- --summary-md and --junit: files for CI beside OUT_DIR ----------------------
if run summary-md 0 report "$export_dir" -o "$tmp/sm" --resamples 1000 --summary-md "$tmp/sm.md" &&
    has "$tmp/sm.md" "## Overview" && ! has "$tmp/sm.md" "## Summary" && ! has "$tmp/sm.md" "charts/" &&
    has "$tmp/sm.md" "The whole report: $tmp/sm/report.html"; then ok; else
    bad "report --summary-md FILE: the Overview alone, and where the report is"
fi
if run summary-md-stdout 0 audit "$export_dir" "$export_dir/claims.md" -o "$tmp/sm2" --resamples 1000 --summary-md - &&
    has "$tmp/out" "## Overview" && has "$tmp/out" "Claims checked: 32 of 32 claims reproduced"; then ok; else
    bad "audit --summary-md -: the Overview and the claims' verdicts on standard output"
fi
# --summary-md names only the files the run wrote (--outputs json,csv writes no report.html)
if run summary-md-outputs 0 report "$export_dir" -o "$tmp/smj" --resamples 1000 --outputs json,csv --summary-md - &&
    has "$tmp/out" "The report's data: $tmp/smj/report.json and results.csv (sweep-report " &&
    ! grep -q 'report\.html\|report\.pdf\|results\.md' "$tmp/out" && [ -f "$tmp/smj/report.json" ] &&
    [ -f "$tmp/smj/results.csv" ] && [ ! -e "$tmp/smj/report.html" ]; then ok
else bad "report --outputs json,csv --summary-md -: names report.json and results.csv, no file it did not write"; fi
if run summary-md-outputs-compare 0 compare fixtures/v5e-gemma4-formats fixtures/v5e-gemma4-rerun -o "$tmp/cmj" \
    --resamples 1000 --outputs json,csv --summary-md - &&
    has "$tmp/out" "The comparison's data: $tmp/cmj/compare.json and compare.csv (sweep-report " &&
    ! grep -q 'compare\.html\|compare\.pdf\|compare\.md' "$tmp/out" && [ ! -e "$tmp/cmj/compare.html" ]; then ok
else bad "compare --outputs json,csv --summary-md -: names compare.json and compare.csv only"; fi
if run summary-md-outputs-html 0 report "$export_dir" -o "$tmp/smh" --resamples 1000 --outputs html --summary-md - &&
    has "$tmp/out" "The whole report: $tmp/smh/report.html (sweep-report "; then ok
else bad "report --outputs html --summary-md -: names report.html alone"; fi
echo "not ours" >"$tmp/sm-target"
ln -s "$tmp/sm-target" "$tmp/sm-link"
if run summary-md-symlink 0 report "$export_dir" -o "$tmp/sm3" --resamples 1000 --summary-md "$tmp/sm-link" &&
    [ "$(cat "$tmp/sm-target")" = "not ours" ] && [ ! -L "$tmp/sm-link" ] && has "$tmp/sm-link" "## Overview"; then ok
else bad "--summary-md onto a symbolic link: the link replaced, never written through"; fi
if run junit-empty 2 compare "$export_dir" "$export_dir" -o "$tmp/never9" --junit "" &&
    has "$tmp/err" "error: --junit needs a file (- for standard output)" && [ ! -e "$tmp/never9" ]; then ok; else
    bad "compare --junit '': usage error, nothing written"
fi
if run junit-stdout 0 compare "$export_dir" "$export_dir" -o "$tmp/cj" --resamples 1000 --junit - &&
    has "$tmp/out" "<testsuites name=\"sweep-report compare: " && has "$tmp/out" 'failures="0"'; then ok; else
    bad "compare --junit -: JUnit XML on standard output"
fi
if run junit-unwritable 1 compare "$export_dir" "$export_dir" -o "$tmp/cj2" --resamples 1000 \
    --junit "$tmp/no-such-dir/junit.xml" && has "$tmp/err" "no-such-dir/junit.xml" && [ -s "$tmp/cj2/compare.json" ]; then
    ok
else bad "compare --junit into a missing directory: exit 1 naming it, after OUT_DIR"; fi

# ---- --baseline by id, label or tag (the bucket layout's arms) --------------------
bucket=tests/cases/report/bucket-prefix/export
if run baseline-label 0 report "$bucket" -o "$tmp/b1" --resamples 1000 --baseline "small (2026-10-02-a-v5e1)" &&
    has "$tmp/b1/report.json" '"baseline": "org/small-it"'; then ok; else bad "--baseline by label"; fi
if run baseline-shared-id 2 report "$bucket" -o "$tmp/b2" --baseline org/small-it &&
    has "$tmp/err" "names 2 entries: 'small (2026-10-02-a-v5e1)', 'small (2026-10-03-b-v5e1)'" && [ ! -e "$tmp/b2" ]; then
    ok
else bad "--baseline naming an id two entries share: usage error listing their labels"; fi
if run baseline-shared-tag 2 report "$bucket" -o "$tmp/b3" --baseline small && has "$tmp/err" "names 2 entries"; then ok
else bad "--baseline naming a tag two runs share: usage error"; fi
if run baseline-tag 0 report tests/cases/report/bucket-run/export -o "$tmp/b4" --resamples 1000 --baseline SMALL-BF16 &&
    has "$tmp/b4/report.json" '"baseline": "org/small-it"'; then ok; else bad "--baseline by tag, case-insensitive"; fi
if run baseline-unknown 3 report tests/cases/report/bucket-run/export -o "$tmp/b5" --baseline small-it-w8 &&
    has "$tmp/err" "baseline 'small-it-w8' (--baseline) is not in the export (an id, label, tag or directory); did you mean 'small-it-w8a8' (id)?"; then ok
else bad "--baseline naming nothing: says where the name came from and the nearest names"; fi
# issue 37: the did-you-mean draws on tags (in the bucket layout the names people type), labels,
# directories and ids alike
if run baseline-typo-tag 3 report fixtures/v5e-gemma4-sweep -o "$tmp/b6" --baseline e2b-bf61 &&
    has "$tmp/err" "did you mean 'e2b-bf16' (tag)?"; then ok
else bad "--baseline e2b-bf61: did you mean the tag e2b-bf16"; fi
if run baseline-typo-dir 3 report fixtures/v5e-gemma4-formats -o "$tmp/b7" --baseline qwen3-1.7 &&
    has "$tmp/err" "did you mean 'qwen3-1.7b' (directory)?"; then ok
else bad "--baseline qwen3-1.7: did you mean the directory qwen3-1.7b"; fi
if run baseline-far 3 report fixtures/v5e-gemma4-sweep -o "$tmp/b8" --baseline zzz &&
    has "$tmp/err" "; nearest: 'e2b-bf16' (tag)"; then ok
else bad "--baseline far from every name: the nearest, with their kind"; fi
# ---- issue 21: hostile exports ---------------------------------------------------
hostile="$tmp/hostile"
cp -R tests/bad/base "$hostile" 2>/dev/null || cp -R "$root/tests/bad/base" "$hostile"
(cd "$root" && "$bin" report "$hostile" -o "$tmp/h-clean" --resamples 1000) >/dev/null 2>&1
# figures: the models' accuracy and speed, for comparing two runs
figures() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
print(json.dumps([(m["id"], m["accuracy"], m["speed"]) for m in r["models"]], sort_keys=True))' "$1"; }
ln -s .. "$hostile/other/loop"
ln -s . "$hostile/zz"
ln -s ../.. "$hostile/other/bench/up"
if limit="timeout 30" run link-loops 0 report "$hostile" -o "$tmp/h-loops" --resamples 1000 &&
    [ "$(figures "$tmp/h-loops/report.json")" = "$(figures "$tmp/h-clean/report.json")" ]; then ok; else
    bad "symbolic links back up the export: the same figures, no hang"
fi
rm "$hostile/other/loop" "$hostile/zz" "$hostile/other/bench/up"
# issue 28: byte-identical copies of a bench file (a browser's "(1)") are not more runs: the figures of a clean run
for c in 1 2 3; do cp "$hostile/other/bench/vllm-infqps-concurrency4-other.json" "$hostile/other/bench/vllm-infqps-concurrency4-other ($c).json"; done
if run bench-copies 0 report "$hostile" -o "$tmp/h-copies" --resamples 1000 &&
    [ "$(figures "$tmp/h-copies/report.json")" = "$(figures "$tmp/h-clean/report.json")" ] &&
    has "$tmp/err" "3 files are byte-identical to another file read there, each counted once"; then ok; else
    bad "byte-identical copies of a bench file: counted once, the figures of a clean run, one warning"
fi
rm "$hostile/other/bench/vllm-infqps-concurrency4-other ("*").json"
# issue 37 (ux 15): a bench stdout block beside its own --save-result file is the same run, counted once:
# a note (results.md's Notes, report.json "notes"), not a warning to act on
twin="$tmp/twin"
mkdir -p "$twin/m/bench"
printf '%s\n' '{"backend": "vllm", "model_id": "org/m", "num_prompts": 16, "input_len": "128", "output_len": "256", "request_rate": "inf", "max_concurrency": 4, "duration": 40.96, "completed": 16, "failed": 0, "total_input_tokens": 2048, "total_output_tokens": 4096, "output_throughput": 100.0, "total_token_throughput": 150.0}' >"$twin/m/bench/run.json"
printf '%s\n' "Namespace(backend='vllm', model='org/m', max_concurrency=4, request_rate=inf, num_prompts=16)" \
    '============ Serving Benchmark Result ============' 'Successful requests:                     16' \
    'Failed requests:                         0' 'Maximum request concurrency:             4' \
    'Benchmark duration (s):                  40.96' 'Total input tokens:                      2048' \
    'Total generated tokens:                  4096' 'Output token throughput (tok/s):         100.00' \
    '==================================================' >"$twin/m/bench/run.log"
if run stdout-twin 0 report "$twin" -o "$tmp/twin-out" --resamples 1000 &&
    has "$tmp/err" "1 model (0 failed), 1 warning (and 1 note); wrote" && ! has "$tmp/err" "counted once" &&
    has "$tmp/twin-out/results.md" "### Notes" && has "$tmp/twin-out/results.md" "(its --save-result file); counted once" &&
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(not (len(r["notes"]) == 1 and not any("counted once" in w for w in r["warnings"])))' "$tmp/twin-out/report.json"; then
    ok
else bad "a stdout block and its --save-result twin: one run, a note, not a warning"; fi
# issue 28: every result file gzip-compressed under its own name (gsutil cp -Z), or in UTF-16: the figures of a clean run
cp -R "$hostile" "$tmp/h-enc"
n=0
for f in $(cd "$tmp/h-enc" && find . -type f \( -name '*.json' -o -name '*.jsonl' -o -name '*.log' -o -name '*.csv' \) | sort); do
    n=$((n + 1))
    if [ $((n % 2)) = 0 ]; then gzip -c "$tmp/h-enc/$f" >"$tmp/enc" && mv "$tmp/enc" "$tmp/h-enc/$f"
    else { printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$tmp/h-enc/$f"; } >"$tmp/enc" && mv "$tmp/enc" "$tmp/h-enc/$f"; fi
done
if run encodings 0 report "$tmp/h-enc" -o "$tmp/h-enc-out" --resamples 1000 &&
    [ "$(figures "$tmp/h-enc-out/report.json")" = "$(figures "$tmp/h-clean/report.json")" ]; then ok; else
    bad "gzip-compressed and UTF-16 result files: read, the figures of a clean run"
fi
rm -rf "$tmp/h-enc" "$tmp/h-enc-out"
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
if run bom-arms 0 report "$hostile" -o "$tmp/h-bom" --resamples 1000 &&
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
if run bad-utf8-names 0 report "$hostile" -o "$tmp/h-utf8" --resamples 1000 --keep-going && valid_outputs "$tmp/h-utf8" &&
    has "$tmp/h-utf8/report.json" 'dir\\xFFx'; then ok; else
    bad "names that are not UTF-8 or hold a noncharacter: valid outputs, charts drawn, bytes shown as \\xHH"
fi
rm -rf "$hostile/$(printf 'dir\377x')" "$hostile/other/$(printf 'x\357\277\276').scores.csv"

# issue 28: names. An id written in NFC and in NFD is one id (its two entries told apart by their
# directories, whose names differ only in the accent's form: " #2"), and so is a benchmark's name
# (two models' café.scores.csv, one in each form, are one benchmark); emoji the PDF cannot print are
# their code points, so two names stay two; a 1 MB id is cut on paper, whole in report.json.
names="$tmp/names"
cp -R "$root/tests/bad/base" "$names"
python3 - "$names" <<'PY'
import json, os, sys, unicodedata
root = sys.argv[1]
runs = [json.loads(l) for l in open(root + "/other/bench/vllm-infqps-concurrency4-other.json")]
def put(d, mid):
    os.makedirs(os.path.join(root, d))
    with open(os.path.join(root, d, "run.json"), "w", encoding="utf-8") as f:
        for r in runs:
            f.write(json.dumps(dict(r, model_id=mid), ensure_ascii=False) + "\n")
put(unicodedata.normalize("NFC", "café"), unicodedata.normalize("NFC", "org/café"))
put(unicodedata.normalize("NFD", "café"), unicodedata.normalize("NFD", "org/café"))
put("smile", "org/m-\U0001F600")
put("grin", "org/m-\U0001F601")
put("long", "org/" + "m" * 1000000)
for d, form in (("base-model", "NFC"), ("other", "NFD")):  # one benchmark, its name written two ways
    with open(os.path.join(root, d, unicodedata.normalize(form, "café") + ".scores.csv"), "w") as f:
        f.write("item_id,score\n" + "".join("%d,%d\n" % (i, i % 2) for i in range(30)))
PY
if run names 0 report "$names" -o "$tmp/names-out" --resamples 1000 && python3 - "$tmp/names-out/report.json" <<'PY'
import json, sys, unicodedata
r = json.load(open(sys.argv[1], encoding="utf-8"))
ids = [m["id"] for m in r["models"]]
labels = [m["label"] for m in r["models"]]
cafe = unicodedata.normalize("NFC", "org/café")
assert ids.count(cafe) == 2 and unicodedata.normalize("NFD", "org/café") not in ids, ids
assert len(set(labels)) == len(labels), labels
assert all(unicodedata.normalize("NFC", l) == l for l in labels), labels
assert "org/" + "m" * 1000000 in ids
benches = [set(m["accuracy"]) for m in r["models"] if m["id"] in ("org/base-model", "org/other-model")]
assert all(unicodedata.normalize("NFC", "café") in b and unicodedata.normalize("NFD", "café") not in b
           for b in benches), benches
PY
then ok; else bad "ids in NFC and NFD: one id, two distinct labels; a 1 MB id: exit 0, whole in report.json"; fi
if command -v pdftotext >/dev/null 2>&1; then
    pdftotext "$tmp/names-out/report.pdf" "$tmp/names.txt" 2>/dev/null
    if has "$tmp/names.txt" "org/m-U+1F600" && has "$tmp/names.txt" "org/m-U+1F601" &&
        has "$tmp/names.txt" "org/mmmmmmmmmm" && ! grep -q "m\{5000\}" "$tmp/names.txt"; then ok; else
        bad "report.pdf: emoji as code points (two names stay two), the 1 MB id cut"
    fi
fi
rm -rf "$names"

# issue 28: names that are Markdown. results.md rendered by GitHub's own cmark-gfm (with its table,
# autolink and strikethrough extensions) shows every name as written: no heading, quote, list, code
# block, link, emphasis or strikethrough made of a model or benchmark name ("http://example.org/x" is
# a path as a model id: "example.org/x").
if command -v cmark-gfm >/dev/null 2>&1; then
    mdn="$tmp/md-names"
    cp -R "$root/tests/bad/base" "$mdn"
    python3 - "$mdn" <<'PY'
import json, os, sys
root = sys.argv[1]
runs = [json.loads(l) for l in open(root + "/other/bench/vllm-infqps-concurrency4-other.json")]
names = ["# heading", "> quote", "1. list", "    code", "- item", "+ plus", "www.example.org", "http://example.org/x",
         "user@example.org", "x *em* y", "~~gone~~", "_under_", "&amp;", "[ref]: /x", "---"]
for i, n in enumerate(names):
    d = os.path.join(root, "m%02d" % i)
    os.makedirs(d)
    with open(os.path.join(d, "run.json"), "w") as f:
        for r in runs:
            f.write(json.dumps(dict(r, model_id=n)) + "\n")
    with open(os.path.join(d, n.strip().replace("/", "_") + ".scores.csv"), "w") as f:
        f.write("item_id,score\n1,1\n2,0\n")
PY
    if run md-names 0 report "$mdn" -o "$tmp/md-out" --resamples 1000 &&
        cmark-gfm -e table -e autolink -e strikethrough "$tmp/md-out/results.md" >"$tmp/md.html" &&
        python3 - "$tmp/md.html" <<'PY'
import html.parser, sys
names = ["# heading", "> quote", "1. list", "code", "- item", "+ plus", "www.example.org", "example.org/x",
         "user@example.org", "x *em* y", "~~gone~~", "_under_", "&amp;", "[ref]: /x", "---"]
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.text, self.stack = [], [], []
    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
    def handle_data(self, data):
        self.text.append(data)
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
bad = [t for t in p.tags if t[0] in ("blockquote", "ol", "pre", "a", "em", "del", "hr")]
assert not bad, bad
heads = [t for t in p.tags if t[0] in ("h1", "h2", "h3", "h4", "h5", "h6")]
text = "".join(p.text)
missing = [n for n in names if n not in text]
assert not missing, missing
PY
    then ok; else bad "results.md under cmark-gfm: model and benchmark names shown as written, never markup"; fi
    rm -rf "$mdn"
else
    echo "cli: cmark-gfm not found (apt-get install cmark-gfm); the Markdown names test skipped"
fi

# issue 28: one Hub repo in two cases is one candidate (with --keep-going, the second left out)
cp -R "$root/fixtures/hub-survey" "$tmp/hub-case"
printf '{"id": "qwen/qwen3-4b", "cardData": {"license": "apache-2.0"}}\n' >"$tmp/hub-case/SmolLM3-3B/model_info.json"
if run survey-case 0 survey "$tmp/hub-case" -o "$tmp/hub-case-out" --keep-going &&
    has "$tmp/err" "Hub ids ignore case" && python3 - "$tmp/hub-case-out/candidates.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c = c["candidates"] if isinstance(c, dict) else c
assert [m["id"].lower() for m in c].count("qwen/qwen3-4b") == 1
PY
then ok; else bad "survey: Qwen/Qwen3-4B and qwen/qwen3-4b are one candidate"; fi
rm -rf "$tmp/hub-case" "$tmp/hub-case-out"

# the output set: a file-size limit, a second run, what looks like a killed run's leftovers (never removed:
# nothing proves this tool made them; tests/run-outset.sh has the writer's other rules)
(cd "$root" && "$bin" report "$hostile" -o "$tmp/h-set" --resamples 1000) >/dev/null 2>&1
cp "$tmp/h-set/report.json" "$tmp/h-set-before.json"
touch "$tmp/h-set/report.json.tmp.AbC123"
mkdir -p "$tmp/h-set/.sweep-report.new.XyZ789/charts" && touch "$tmp/h-set/.sweep-report.new.XyZ789/charts/x.png"
if (cd "$root" && ulimit -f 16 && "$bin" report fixtures/v5e-gemma4-sweep -o "$tmp/h-set" --resamples 1000) \
    >"$tmp/out" 2>"$tmp/err"; then bad "ulimit -f: exit 0"; elif [ $? = 1 ] && has "$tmp/err" "File too large" &&
    cmp -s "$tmp/h-set/report.json" "$tmp/h-set-before.json" && [ -e "$tmp/h-set/report.json.tmp.AbC123" ] &&
    [ -e "$tmp/h-set/.sweep-report.new.XyZ789/charts/x.png" ] &&
    has "$tmp/err" ".sweep-report.new.XyZ789' is named like the staging directory of a run that was killed" &&
    [ "$(find "$tmp/h-set" -name '.sweep-report.new.*' | wc -l)" = 1 ]; then ok; else
    bad "a file-size limit: exit 1 with a message, the previous report whole, nothing of ours left, what we did not make left alone"
fi
rm -rf "$tmp/h-set/report.json.tmp.AbC123" "$tmp/h-set/.sweep-report.new.XyZ789"
if command -v flock >/dev/null 2>&1; then
    flock "$tmp/h-set/.sweep-report.lock" sleep 5 &
    locker=$!
    sleep 0.5
    if run second-run 1 report "$hostile" -o "$tmp/h-set" --resamples 1000 && has "$tmp/err" "another sweep-report run" &&
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
        (ulimit -v 122880 && cd "$root" && "$bin" report "$tmp/h-big" -o "$tmp/never7" --resamples 1000 --threads 1 $kg) \
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
if run path-too-long-keep-going 0 report "$hostile" -o "$tmp/h-long" --resamples 1000 --keep-going &&
    has "$tmp/h-long/report.json" "cannot stat: File name too long; this path left out" &&
    [ "$(figures "$tmp/h-long/report.json")" = "$(figures "$tmp/h-clean/report.json")" ]; then ok; else
    bad "a path longer than PATH_MAX with --keep-going: a warning, exit 0, the figures unchanged"
fi
if run path-too-long 3 report "$hostile" -o "$tmp/never8" --resamples 1000 &&
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
    if setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" report "$pub/e" -o "$pub/out" --resamples 1000 \
        --keep-going >/dev/null 2>"$tmp/err" && has "$pub/out/report.json" "cannot read directory: Permission denied"; then
        ok
    else bad "--keep-going with an unreadable subdirectory: a warning, exit 0"; fi
    if setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" report "$pub/e" -o "$pub/out2" --resamples 1000 \
        >/dev/null 2>"$tmp/err"; then bad "an unreadable subdirectory without --keep-going: exit 0"; elif
        has "$tmp/err" "other/bench': cannot read directory"; then ok; else bad "an unreadable subdirectory: exit 3 naming it"; fi
    chmod 755 "$pub/e/other/bench"
    rm -rf "$pub"
else
    echo "cli: not root or no setpriv; the unreadable-directory test skipped"
fi

# The author's accuracy files: the answer-token limits and a summary without rows are said in the report's notes.
if run gen-notes 0 report tests/cases/report/bucket-gen/export -o "$tmp/g1" --resamples 1000 --baseline base &&
    has "$tmp/g1/report.html" "GSM8K: answers limited to different token limits, so differences mix model and limit: base 2,048, other 768." &&
    has "$tmp/g1/report.html" "other, BFCL: the run&#39;s summary (logs/other.gen-bfcl_simple.json) claims 0.8750, 350 of 400 right; without its per-item rows it is not recomputed and has no interval." &&
    has "$tmp/g1/report.json" "answers limited to 768 tokens here but 2048 in the baseline"; then ok
else bad "gen rows: token limits and an unrecomputed summary in the report's notes"; fi

# ---- --outputs: only the formats asked for are rendered and written (issue 33) ------
mkdir -p "$tmp/os"
printf 'not ours\n' >"$tmp/os/report.pdf"
if run outputs-json-md 0 report fixtures/v5e-gemma4-sweep -o "$tmp/os" --resamples 1000 --outputs json,md &&
    [ -s "$tmp/os/report.json" ] && [ -s "$tmp/os/results.md" ] && [ ! -e "$tmp/os/charts" ] &&
    [ ! -e "$tmp/os/report.html" ] && [ ! -e "$tmp/os/results.csv" ] && [ ! -e "$tmp/os/results.tex" ] &&
    [ "$(cat "$tmp/os/report.pdf")" = "not ours" ]; then ok
else bad "--outputs json,md: report.json and results.md only, an older report.pdf left as it was"; fi
if run outputs-svg-html 0 report fixtures/v5e-gemma4-sweep -o "$tmp/os2" --resamples 1000 --outputs html,svg &&
    [ -s "$tmp/os2/charts/speed_ratio.svg" ] && [ ! -e "$tmp/os2/charts/speed_ratio.png" ] &&
    has "$tmp/os2/report.html" "(also as charts/speed_ratio.svg)" && ! has "$tmp/os2/report.html" "speed_ratio.png"; then ok
else bad "--outputs html,svg: SVG charts only, the HTML names only them"; fi
if run outputs-html 0 report fixtures/v5e-gemma4-sweep -o "$tmp/os3" --resamples 1000 --outputs html &&
    [ ! -e "$tmp/os3/charts" ] && has "$tmp/os3/report.html" "<svg" && ! has "$tmp/os3/report.html" "also as"; then ok
else bad "--outputs html: the charts inlined, no chart files named or written"; fi
if run outputs-compare 0 compare fixtures/v5e-gemma4-formats fixtures/v5e-gemma4-rerun -o "$tmp/os4" \
    --resamples 1000 --outputs png,csv && [ -s "$tmp/os4/compare.csv" ] && [ ! -e "$tmp/os4/compare.json" ] &&
    ls "$tmp/os4/charts/"*.png >/dev/null 2>&1 && ! ls "$tmp/os4/charts/"*.svg >/dev/null 2>&1; then ok
else bad "compare --outputs png,csv: compare.csv and the PNG charts only"; fi
for v in "json,,md" "" "json,docx" "JSON"; do
    if run "outputs-bad-$v" 2 report fixtures/v5e-gemma4-sweep -o "$tmp/os5" --outputs "$v" &&
        has "$tmp/err" "--outputs takes a comma-separated list of json, csv, md, html, pdf, svg, png, tex" &&
        [ ! -e "$tmp/os5" ]; then ok
    else bad "--outputs '$v': a usage error, nothing written"; fi
done
# compare writes no tex: asking for it is a usage error, never "wrote" an empty set
for v in tex json,tex; do
    if run "outputs-compare-$v" 2 compare fixtures/v5e-gemma4-formats fixtures/v5e-gemma4-rerun -o "$tmp/os6" --outputs "$v" &&
        has "$tmp/err" "--outputs takes a comma-separated list of json, csv, md, html, pdf, svg, png, not '$v'" &&
        ! has "$tmp/err" "wrote" && [ ! -e "$tmp/os6" ]; then ok
    else bad "compare --outputs $v: a usage error (compare writes no tex), nothing written"; fi
done

# --slo twice: the bounds of both apply; a kind given in both is refused, naming both values
if run slo-twice 0 report "$export_dir" -o "$tmp/slo2" --resamples 1000 --slo ttft=300 --slo tpot=40,e2el=5000 &&
    has "$tmp/slo2/report.json" '"ttft_ms": 300' && has "$tmp/slo2/report.json" '"tpot_ms": 40' &&
    has "$tmp/slo2/report.json" '"e2el_ms": 5000'; then ok
else bad "report --slo ttft=300 --slo tpot=40,e2el=5000: every bound applies"; fi
if run slo-twice-same 2 report "$export_dir" -o "$tmp/never-slo2" --slo ttft=300,tpot=40 --slo ttft=200 &&
    has "$tmp/err" "--slo: ttft is given twice ('ttft=200' here, ttft=300 in an earlier --slo)" &&
    [ ! -e "$tmp/never-slo2" ]; then ok
else bad "report --slo ttft=300,tpot=40 --slo ttft=200: a usage error naming both"; fi

# ---- verify: the copy against its bucket listings, sha256sum -c's way (issue 38) -----------
pc=tests/cases/report/provenance-statuses
mkdir -p "$tmp/vcopy"
cp -R fixtures/v5e-gemma4-formats/. "$tmp/vcopy"
/usr/bin/python3 "$root/tests/make_listing.py" "$tmp/vcopy" gsutil_ls_L --prefix runs/x/ >"$tmp/vlisting.txt"
/usr/bin/python3 "$root/tests/make_listing.py" "$tmp/vcopy" ls_l --prefix runs/x/ >"$tmp/vsizes.txt"
if run verify-ok 0 verify "$tmp/vcopy" "$tmp/vlisting.txt" && [ ! -s "$tmp/err" ] &&
    [ "$(wc -l <"$tmp/out")" = 1 ] && has "$tmp/out" "sweep-report: 158 files: 158 verified, 0 size only, 0 changed"; then ok
else bad "verify: an exact copy is one summary line on stdout, exit 0"; fi
if run verify-size-only 0 verify "$tmp/vcopy" "$tmp/vsizes.txt" -q && has "$tmp/out" "158 size only" &&
    run verify-size-only-strict 4 verify "$tmp/vcopy" "$tmp/vsizes.txt" --quiet --strict &&
    has "$tmp/err" "--strict: 158 checked by size only"; then ok
else bad "verify: sizes alone pass (exit 0), not under --strict (exit 4)"; fi
if run verify-statuses 4 verify $pc/export $pc/gsutil-ls-L.txt $pc/gsutil-ls-l.txt $pc/s3api.json &&
    has "$tmp/out" "MISSING      other/bench/vllm-infqps-concurrency4-other.json" &&
    has "$tmp/out" "CHANGED      notes/same-size.txt: its crc32c differs from the listing's (crc32c: listed B+Wq1A==, copy wHdMPw==)" &&
    has "$tmp/out" "EXTRA        notes/local-only.txt" && has "$tmp/out" "SIZE ONLY    notes/size-only.txt" &&
    has "$tmp/out" "UNVERIFIABLE notes/transcoded.txt: stored gzip-compressed" &&
    ! grep -q "^VERIFIED" "$tmp/out" && has "$tmp/err" "error: the copy is not the bucket's: 2 missing, 3 changed"; then ok
else bad "verify: a line per file not verified, exit 4 for missing or changed"; fi
if run verify-quiet 4 verify $pc/export $pc/gsutil-ls-L.txt $pc/gsutil-ls-l.txt $pc/s3api.json -q &&
    [ "$(wc -l <"$tmp/out")" = 1 ]; then ok
else bad "verify --quiet: the summary line alone"; fi
if run verify-json 4 verify $pc/export $pc/gsutil-ls-L.txt $pc/gsutil-ls-l.txt $pc/s3api.json --json &&
    /usr/bin/python3 "$root/tests/check_provenance.py" "$tmp/out" $pc/export $pc/gsutil-ls-L.txt $pc/gsutil-ls-l.txt \
        $pc/s3api.json --expect missing=2 >/dev/null; then ok
else bad "verify --json: report.json's provenance object, every file as tests/check_provenance.py derives it"; fi
printf 'hello, bucket\n' >"$tmp/notlisting.txt"
if run verify-bad-listing 3 verify "$tmp/vcopy" "$tmp/notlisting.txt" && [ ! -s "$tmp/out" ] &&
    has "$tmp/err" "notlisting.txt':1: not a bucket listing"; then ok
else bad "verify: an unreadable listing is exit 3 naming it and the line"; fi
if run verify-usage 2 verify "$tmp/vcopy" && has "$tmp/err" "LISTING" &&
    run verify-json-quiet 2 verify "$tmp/vcopy" "$tmp/vlisting.txt" --json -q; then ok
else bad "verify: a missing listing or --json with --quiet is a usage error"; fi
# a hostile object name (an escape sequence) reaches the terminal escaped
printf 'd41d8cd98f00b204e9800998ecf8427e  \033]0;pwned\007.json\n4%s  claims.md\n' \
    "$(md5sum <"$tmp/vcopy/claims.md" | cut -c2-32)" >"$tmp/hostile.txt"
if run verify-hostile 4 verify "$tmp/vcopy" "$tmp/hostile.txt" && ! grep -q "$(printf '\033')" "$tmp/out" &&
    has "$tmp/out" "\x1B]0;pwned\x07.json"; then ok
else bad "verify: a control character in a listed name is shown escaped"; fi

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
