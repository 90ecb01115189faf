#!/bin/sh
# Fuzz every input parser with libFuzzer (clang, ASan + UBSan, leaks count).
#   sh tests/fuzz/run.sh [SECONDS] [TARGET...]     (make fuzz, make fuzz-short)
# Builds the library sources (src/ except main.c) instrumented into
# build-fuzz/, one binary per tests/fuzz/fuzz_*.c, seeds
# build-fuzz/corpus-<target>/ from fixtures/ and tests/bad/base/ files of the
# right kind (the repo is never written), replays tests/fuzz/regress/<target>/
# (inputs that once crashed), then runs each target for SECONDS (default 60),
# FUZZ_JOBS (default 2) at a time. Prints per target the executions done and
# "no crash", or the crash; exits non-zero on any crash, leak or timeout.
# Crash inputs are kept in build-fuzz/artifacts/. FUZZ_OUT=dir replaces build-fuzz.
set -u
seconds=${1:-60}
[ $# -gt 0 ] && shift
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
out=${FUZZ_OUT:-build-fuzz} # another directory keeps a long run apart from make fuzz-short
jobs=${FUZZ_JOBS:-2}
CLANG=${CLANG:-clang}
SANFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

case "$seconds" in '' | *[!0-9]*) echo "usage: run.sh [SECONDS] [TARGET...]" >&2; exit 2 ;; esac

sh scripts/ensure-deps.sh test || exit 2
command -v "$CLANG" >/dev/null 2>&1 || { echo "fuzz: $CLANG not found" >&2; exit 2; }

# ---- build ----------------------------------------------------------------
# The library objects through the project Makefile (its flags and warnings),
# instrumented for coverage but without libFuzzer's main.
# The C++ unit (src/ingest/json_line_fast.cpp, simdjson) is built by clang++.
lib_src=$(find src \( -name '*.c' -o -name '*.cpp' \) ! -path src/main.c | sort)
lib_obj=$(for f in $lib_src; do printf '%s/%s.o ' "$out" "${f%.*}"; done)
# shellcheck disable=SC2086
# (UBSan's vptr check would need the C++ runtime at the C link: off for it.)
make -s -j"$jobs" BUILD="$out" CC="$CLANG" CXX="${CLANGXX:-clang++}" CXXFLAGS="-fno-sanitize=vptr" OPT="-O1 -g" \
    SAN="-fsanitize=fuzzer-no-link $SANFLAGS" LIB_SRC="$lib_src" $lib_obj || {
    echo "fuzz: building the library failed" >&2; exit 2; }
rm -f "$out/libsr-fuzz.a"
# shellcheck disable=SC2086
ar rcs "$out/libsr-fuzz.a" $lib_obj || exit 2
dep_cflags=$(pkg-config --cflags libcjson cairo freetype2 gsl nettle simdjson sqlite3 yajl yaml-0.1 libarchive 2>/dev/null)
dep_libs="$(pkg-config --libs libcjson cairo freetype2 gsl nettle simdjson zlib libisal sqlite3 yajl yaml-0.1 libarchive 2>/dev/null) -lcsv -lhpdf -lunistring -lm -lpthread -lstdc++"

if [ $# -gt 0 ]; then targets="$*"; else
    targets=$(for f in tests/fuzz/fuzz_*.c; do basename "$f" .c; done)
fi
for t in $targets; do
    [ -f "tests/fuzz/$t.c" ] || { echo "fuzz: no target tests/fuzz/$t.c" >&2; exit 2; }
    if [ ! -x "$out/$t" ] || [ -n "$(find "tests/fuzz/$t.c" tests/fuzz/*.h "$out/libsr-fuzz.a" -newer "$out/$t")" ]; then
        # shellcheck disable=SC2086
        "$CLANG" -std=c17 -D_DEFAULT_SOURCE -O1 -g -fsanitize=fuzzer $SANFLAGS -Wall -Wextra -Werror \
            -Isrc $dep_cflags "tests/fuzz/$t.c" "$out/libsr-fuzz.a" $dep_libs -o "$out/$t" || {
            echo "fuzz: building $t failed" >&2; exit 2; }
    fi
done

# ---- seed corpora ---------------------------------------------------------
# Files of each kind; big line-oriented files are cut to whole lines under
# the fuzzer's max_len so the seeds stay valid.
max_len=65536
seed_len=16384
# The real third-party files (../shared/realdata), as tests/real/check.py finds them, for seeds.
realdata=${SR_REALDATA:-$root/../shared/realdata} # small seeds run faster; inputs may still grow to max_len
seed_files() {
    case "$1" in
        fuzz_server_log) find fixtures tests/bad/base -name '*.log' -path '*server*' ;;
        fuzz_bench_text) find fixtures tests/bad/base -name '*.log' -path '*bench*' ;;
        fuzz_bench_json | fuzz_bench_stream) find fixtures tests/bad/base -name '*.json' -path '*bench*'; find tests/cases/report/per-request -name '*.json*' ;;
        fuzz_lmeval_samples) find fixtures tests/bad/base -name 'samples_*.jsonl' ;;
        fuzz_lmeval_results) find fixtures tests/bad/base -name 'results_*.json' ;;
        fuzz_scores_csv) find fixtures tests/bad/base -name '*.scores.csv' ;;
        fuzz_scores_jsonl) find fixtures tests/bad/base -name '*.scores.jsonl' ;;
        fuzz_hf_config) find fixtures tests/bad/base -name 'config.json' ;;
        fuzz_manifest) find fixtures tests/bad/base -name 'sweep.json' ;;
        fuzz_classify_json) find fixtures tests/bad/base \( -name '*.json' -o -name '*.jsonl' \) ;;
        fuzz_arms) find fixtures tests/bad/base -name '*.arms' ;;
        fuzz_claims_md) find fixtures tests/claims reports -name '*.md' ;;
        fuzz_claims_csv) find tests/claims -name '*.csv' ;;
        fuzz_hub_record) find fixtures tests/cases/survey -name '*model_info.json' ;;
        fuzz_survey_candidates) find fixtures tests/cases -name 'candidates.json' ;;
        fuzz_stream_lines) find fixtures tests/bad/base -name '*.log' ;;
        fuzz_decode) find tests/bad/base -name '*.json' -o -name '*.jsonl' | head -4 ;;
        fuzz_guidellm) find tests/cases/report/other-tools -name 'benchmarks.yaml' ;;
        fuzz_aiperf) find tests/cases/report/other-tools -name 'profile_export*' ;;
        fuzz_llmperf) find "$realdata/other-tools" -path '*llmperf*' -name '*.json' 2>/dev/null ;;
        fuzz_mlperf) find tests/cases/report/other-tools -name 'mlperf_log_*.txt' ;;
        fuzz_inspect) find tests/cases/report/inspect-pairing -name '*.eval' ;;
        fuzz_listing_text) find fixtures/listings tests/cases/report/provenance-* -maxdepth 1 -name '*.txt' ;;
        fuzz_author_files) find fixtures/v5e-gemma4-sweep tests/cases/report -path '*-gen/*.jsonl' -o -name '*.gen-*.json' -o -name '*.load.c*.json' -o -name '*.long*.c*.json' ;;
    esac
}
# Whole lines of $1 up to $2 bytes.
head_lines() { awk -v max="$2" '{ n += length($0) + 1; if (n > max) exit; print }' "$1"; }

seed() {
    t=$1 dir="$out/corpus-$t"
    mkdir -p "$dir"
    if [ "$t" = fuzz_walk ]; then
        # Operations building a tree (fuzz_walk.c): a model directory with a
        # bench file and a link "loop" to ".."; a link "zz" to "." at the top
        # beside a FIFO; a deep chain with a link to the export at its end.
        printf '\001\000\001\001\042\002\126' >"$dir/seed-loop-parent"
        printf '\000\002\007\000\001\003\010\001\042' >"$dir/seed-self-fifo"
        printf '\001\004\077\004\077\002\361\006\000\001\016' >"$dir/seed-deep"
        return
    fi
    if [ "$t" = fuzz_inspect ]; then
        # Zip archives: whole, never cut at a line (the real logs where they lie, when there).
        { seed_files "$t"; find "$realdata/other-tools" -name '*.eval' -size -64k 2>/dev/null; } | while read -r f; do
            key=$(printf '%s' "$f" | cksum | cut -d' ' -f1)
            head -c $max_len "$f" >"$dir/seed-$key"
        done
        return
    fi
    if [ "$t" = fuzz_outset_record ]; then
        # A manifest as the writer makes it (two kinds, a chart below charts/), and the lock
        # file's line while a run is under way.
        sha=ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb
        printf 'sweep-report manifest 1\n# a comment\nreport %s 1 report.json\nreport %s 1 charts/speed_ratio.png\ncompare %s 1 compare.json\n' \
            $sha $sha $sha >"$dir/seed-manifest"
        printf 'sweep-report staging .sweep-report.new.AbC12345 2049 131073\n' >"$dir/seed-staging"
        return
    fi
    if [ "$t" = fuzz_bfcl ]; then
        # A result file, the byte 0xFF, its score file.
        find fixtures tests/bad/base -name 'BFCL_v*_result.json' | while read -r r; do
            s=$(printf '%s' "$r" | sed 's,/result/,/score/,; s,_result\.json$,_score.json,')
            [ -f "$s" ] || s=
            key=$(printf '%s' "$r" | cksum | cut -d' ' -f1)
            { head_lines "$r" 12000; printf '\377'; [ -n "$s" ] && head_lines "$s" 8000; } >"$dir/seed-$key"
        done
        return
    fi
    seed_files "$t" | while read -r f; do
        key=$(printf '%s' "$f" | cksum | cut -d' ' -f1)
        head_lines "$f" $seed_len >"$dir/seed-$key"
        [ -s "$dir/seed-$key" ] || head -c $max_len "$f" >"$dir/seed-$key"
        # The end of a long file too (a server log's traceback is at its end).
        if [ "$(wc -c <"$f")" -gt $seed_len ]; then
            tail -c $seed_len "$f" | sed 1d >"$dir/seed-tail-$key"
        fi
    done
    if [ "$t" = fuzz_decode ]; then
        # The first byte picks the piece size; then each file gzip-compressed,
        # in UTF-16LE, and in UTF-16 inside gzip.
        seed_files "$t" | while read -r f; do
            key=$(printf '%s' "$f" | cksum | cut -d' ' -f1)
            { printf '\003'; head_lines "$f" 4000 | gzip -c; } >"$dir/seed-gz-$key"
            { printf '\007\377\376'; head_lines "$f" 4000 | iconv -f UTF-8 -t UTF-16LE; } >"$dir/seed-u16-$key"
            { printf '\013'; { printf '\376\377'; head_lines "$f" 4000 | iconv -f UTF-8 -t UTF-16BE; } | gzip -c; } \
                >"$dir/seed-gz-u16-$key"
        done
    fi
    if [ "$t" = fuzz_listing_json ]; then
        # The first byte picks the piece size.
        find fixtures/listings tests/cases/report/provenance-* -maxdepth 1 -name '*.json' | while read -r f; do
            key=$(printf '%s' "$f" | cksum | cut -d' ' -f1)
            { printf '\006'; head -c $seed_len "$f"; } >"$dir/seed-$key"
        done
    fi
    if [ "$t" = fuzz_scores_jsonl ]; then
        # No .scores.jsonl among the fixtures: convert the CSV ones.
        find fixtures -name '*.scores.csv' | while read -r f; do
            key=$(printf '%s' "$f" | cksum | cut -d' ' -f1)
            awk -F, 'NR > 1 { printf "{\"item_id\": \"%s\", \"score\": %s}\n", $1, $2 }' "$f" |
                head -c $seed_len | awk '{ print }' >"$dir/seed-jsonl-$key"
        done
    fi
    return 0
}

dict_for() {
    case "$1" in
        fuzz_server_log | fuzz_bench_text) echo tests/fuzz/log.dict ;;
        fuzz_stream_lines) echo tests/fuzz/lines.dict ;;
        fuzz_scores_csv) echo tests/fuzz/csv.dict ;;
        fuzz_arms) echo tests/fuzz/arms.dict ;;
        fuzz_claims_md | fuzz_claims_csv) echo tests/fuzz/claims.dict ;;
        fuzz_guidellm | fuzz_aiperf | fuzz_llmperf | fuzz_mlperf | fuzz_inspect) echo tests/fuzz/tools.dict ;;
        fuzz_listing_text | fuzz_listing_json) echo tests/fuzz/listing.dict ;;
        *) echo tests/fuzz/json.dict ;;
    esac
}

# ---- run ------------------------------------------------------------------
mkdir -p "$out/artifacts" "$out/logs"
run_one() {
    t=$1 log="$out/logs/$t.log"
    seed "$t"
    regress="tests/fuzz/regress/$t"
    dirs="$out/corpus-$t"
    [ -d "$regress" ] && dirs="$dirs $regress"
    dict=$(dict_for "$t")
    dict_opt=
    [ -f "$dict" ] && dict_opt="-dict=$dict"
    # shellcheck disable=SC2086
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "$out/$t" -max_total_time="$seconds" -max_len=$max_len -rss_limit_mb=2048 -timeout=20 \
        -print_final_stats=1 -artifact_prefix="$out/artifacts/$t-" $dict_opt $dirs >"$log" 2>&1
    echo $? >"$out/logs/$t.rc"
}

start=$(date +%s)
running=0
for t in $targets; do
    run_one "$t" &
    running=$((running + 1))
    if [ $running -ge "$jobs" ]; then wait; running=0; fi
done
wait

fail=0
total=0
printf '%-22s %14s %8s %12s  %s\n' target executions exec/s corpus result
for t in $targets; do
    log="$out/logs/$t.log" rc=$(cat "$out/logs/$t.rc" 2>/dev/null || echo 1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    # The corpus libFuzzer keeps (units/size), not the files on disk (never pruned).
    corpus=$(sed -n 's/.*DONE .* corp: \([^ ]*\).*/\1/p' "$log" | tail -1)
    total=$((total + ${execs:-0}))
    if [ "$rc" = 0 ] && ! grep -q '^==[0-9]*==ERROR\|^SUMMARY: \|runtime error:' "$log"; then
        printf '%-22s %14s %8s %12s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "${corpus:-?}" "no crash"
    else
        what=$(grep -m1 -E '==ERROR|runtime error:|ERROR: libFuzzer|SUMMARY:' "$log")
        printf '%-22s %14s %8s %12s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "${corpus:-?}" "CRASH (exit $rc): ${what:-see log}"
        echo "    log: $log; input: $(ls "$out/artifacts/$t-"* 2>/dev/null | head -1)"
        fail=$((fail + 1))
    fi
done
n=$(echo "$targets" | wc -w)
echo "fuzz: $total executions over $n targets in $(($(date +%s) - start)) s, $seconds s each"
echo "fuzz: $((n - fail)) passed, $fail failed"
[ $fail = 0 ]
