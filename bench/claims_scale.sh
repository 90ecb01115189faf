#!/bin/sh
# Issue 37: matching unmatched claim names stays linear. An audit of the
# bundled bucket sample with a claims file of N distinct names no model has
# (the did-you-mean and the each-name-once list run over all of them), at
# N = 10,000, 30,000 and 100,000: CPU seconds (user) and peak RSS of each,
# and the CPU per 1,000 claims, which is flat when the work is linear.
#   sh bench/claims_scale.sh [BIN]     (default ./sweep-report)
set -u
cd "$(dirname "$0")/.." || exit 1
bin=${1:-./sweep-report}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in 10000 30000 100000; do
    python3 -c "
import sys
n = int(sys.argv[1])
with open(sys.argv[2], 'w') as f:
    f.write('model,figure,value\n')
    for i in range(n):
        f.write('Nonexistent Model %06d,GSM8K,0.5\n' % i)
" "$n" "$tmp/claims.csv"
    /usr/bin/time -f "%U %M" -o "$tmp/time" "$bin" audit fixtures/v5e-gemma4-sweep "$tmp/claims.csv" -o "$tmp/out" \
        --resamples 1000 --outputs json >/dev/null 2>&1 # exit 4: the claims name no model, as meant
    read -r cpu rss <<EOT
$(tail -1 "$tmp/time")
EOT
    awk -v n="$n" -v cpu="$cpu" -v rss="$rss" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
        'BEGIN { printf "claims_scale: %6d unmatched names: %6.2f s CPU, %5.1f ms per 1,000, peak %d MiB (load %s)\n", n, cpu, cpu / n * 1e6, rss / 1024, load }'
done
