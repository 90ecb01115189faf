#!/bin/sh
# Makes this case's listing: gcloud storage ls --json of a bucket that held
# fixtures/v5e-gemma4-formats plus one more c=16 run of Qwen3-4B, which the
# copy (the fixture itself) lacks: the run that never downloaded. Run from
# the repository: sh tests/cases/report/provenance-claims/make.sh
set -eu
case=tests/cases/report/provenance-claims
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R fixtures/v5e-gemma4-formats "$tmp/bucket"
run=$tmp/bucket/qwen3-4b/bench/vllm-infqps-concurrency16-Qwen3-4B-20261102-095822.json
sed 's/"output_throughput": [0-9.]*/"output_throughput": 412.5/' \
    fixtures/v5e-gemma4-formats/qwen3-4b/bench/vllm-infqps-concurrency16-Qwen3-4B-20261102-095407.json >"$run"
/usr/bin/python3 tests/make_listing.py "$tmp/bucket" gcloud_ls_json --bucket gemma4-sweep \
    --prefix 2026-11-02/formats/ >"$case/bucket.json"
echo "made $case"
