#!/bin/sh
# Check that the build and test dependencies are present; on Debian, install
# what is missing with apt-get (as root), saying what it installs.
# Usage: scripts/ensure-deps.sh [build|test]
set -eu
want=${1:-build}

missing=""
need_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed" || missing="$missing $1"; }

have_header() { [ -f "/usr/include/$1" ] || [ -f "/usr/include/x86_64-linux-gnu/$1" ] || [ -f "/usr/include/aarch64-linux-gnu/$1" ]; }

check() {
    command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
    command -v cc >/dev/null 2>&1 || missing="$missing gcc"
    command -v make >/dev/null 2>&1 || missing="$missing make"
    have_header csv.h || missing="$missing libcsv-dev"
    have_header cjson/cJSON.h || missing="$missing libcjson-dev"
    have_header cairo/cairo.h || missing="$missing libcairo2-dev"
    have_header png.h || missing="$missing libpng-dev"
    have_header hpdf.h || missing="$missing libhpdf-dev"
    have_header gsl/gsl_rng.h || missing="$missing libgsl-dev"
    have_header nettle/sha2.h || missing="$missing nettle-dev"
    have_header simdjson.h || missing="$missing libsimdjson-dev"
    have_header uninorm.h || missing="$missing libunistring-dev"
    have_header zlib.h || missing="$missing zlib1g-dev"
    have_header sqlite3.h || missing="$missing libsqlite3-dev"
    have_header yajl/yajl_parse.h || missing="$missing libyajl-dev"
    have_header isa-l/crc.h || missing="$missing libisal-dev"
    have_header yaml.h || missing="$missing libyaml-dev"              # GuideLLM's benchmarks.yaml
    have_header archive.h || missing="$missing libarchive-dev"        # Inspect's .eval (zip, zstd members)
    command -v g++ >/dev/null 2>&1 || missing="$missing g++"
    [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing="$missing fonts-dejavu-core"
    if [ "$want" = test ]; then
        have_header criterion/criterion.h || missing="$missing libcriterion-dev"
        command -v clang >/dev/null 2>&1 || missing="$missing clang"
        command -v valgrind >/dev/null 2>&1 || missing="$missing valgrind"
        command -v cppcheck >/dev/null 2>&1 || missing="$missing cppcheck"
        command -v python3 >/dev/null 2>&1 || missing="$missing python3"
        # the latency unit tests' reference figures (tests/latency_reference.py)
        /usr/bin/python3 -c 'import numpy' >/dev/null 2>&1 || missing="$missing python3-numpy"
        /usr/bin/python3 -c 'import scipy.stats' >/dev/null 2>&1 || missing="$missing python3-scipy"
        # CRC-32C for the chain of custody's checker and listings (tests/check_provenance.py, tests/make_listing.py)
        /usr/bin/python3 -c 'import crcmod' >/dev/null 2>&1 || missing="$missing python3-crcmod"
        command -v qpdf >/dev/null 2>&1 || missing="$missing qpdf"
        command -v pdftotext >/dev/null 2>&1 || missing="$missing poppler-utils"
        command -v xmllint >/dev/null 2>&1 || missing="$missing libxml2-utils"
        # the installed man page and bash completion (tests/run-install.sh)
        command -v groff >/dev/null 2>&1 || missing="$missing groff-base"
        command -v man >/dev/null 2>&1 || missing="$missing man-db"
        command -v col >/dev/null 2>&1 || missing="$missing bsdextrautils"
        [ -f /usr/share/bash-completion/bash_completion ] || missing="$missing bash-completion"
        command -v cmark-gfm >/dev/null 2>&1 || missing="$missing cmark-gfm"
        ls /usr/lib/llvm-14/lib/clang/14*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 \
            || [ "$(uname -m)" != x86_64 ] || missing="$missing libclang-rt-14-dev"
    fi
}

check
[ -z "$missing" ] && exit 0

echo "ensure-deps: missing:$missing"
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-deps: no apt-get here; install these packages by hand:$missing" >&2
    exit 1
fi
if [ "$(id -u)" != 0 ]; then
    SUDO=sudo
    command -v sudo >/dev/null 2>&1 || { echo "ensure-deps: run as root to install:$missing" >&2; exit 1; }
else
    SUDO=
fi
echo "ensure-deps: apt-get install$missing"
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
missing=""
check
if [ -n "$missing" ]; then
    echo "ensure-deps: still missing after install:$missing" >&2
    exit 1
fi
echo "ensure-deps: done"
