#!/bin/sh
# Makes this case's bucket listings and its copy of the bucket (export/)
# from tests/bad/base, with one file in each state of the chain of custody
# (docs/provenance.md). Run from the repository to rebuild the case:
#   sh tests/cases/report/provenance-statuses/make.sh
# The bucket holds tests/bad/base and notes/ under gs://sweep-bucket/runs/x/;
# the copy differs from it as each file's name says.
set -eu
case=tests/cases/report/provenance-statuses
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bucket=$tmp/bucket
cp -R tests/bad/base "$bucket"
mkdir -p "$bucket/notes"
printf 'read by no reader of the report, hashed for its listing\n' >"$bucket/notes/readme.txt"
printf 'the copy changed one byte of this line, keeping its size\n' >"$bucket/notes/same-size.txt"
printf 'uploaded with gsutil compose: no MD5, a CRC-32C\n' >"$bucket/notes/composite.txt"
printf 'uploaded with cp -Z; the copy was decompressed on download\n' >"$bucket/notes/transcoded.txt"
printf 'uploaded with cp -Z; the copy kept the gzip bytes\n' >"$bucket/notes/kept-gzip.txt"
printf 'a symbolic link stands here in the copy\n' >"$bucket/notes/link.txt"
printf 'listed with its size only (ls -l)\n' >"$bucket/notes/size-only.txt"
printf 'listed by two listings that disagree\n' >"$bucket/notes/disagree.txt"
py=/usr/bin/python3
mk() { $py tests/make_listing.py "$bucket" "$@" --prefix runs/x/; }
# the main listing (gsutil ls -L -r): every object but the two of the others
mkdir -p "$tmp/main"
cp -R "$bucket"/. "$tmp/main"
rm "$tmp/main/notes/size-only.txt"
$py tests/make_listing.py "$tmp/main" gsutil_ls_L --prefix runs/x/ --composite notes/composite.txt \
    --gzip notes/transcoded.txt --gzip notes/kept-gzip.txt >"$case/gsutil-ls-L.txt"
# a folder placeholder and a hostile name, as a bucket may hold them
cat >>"$case/gsutil-ls-L.txt" <<'END'
gs://sweep-bucket/runs/x/notes/:
    Creation time:          Tue, 02 Dec 2025 10:00:00 GMT
    Content-Length:         0
    Content-Type:           application/x-www-form-urlencoded;charset=UTF-8
    Hash (crc32c):          AAAAAA==
    Hash (md5):             1B2M2Y8AsgTpgAmY7PHvCA==
    ETag:                   CLjQ2tbI9okDEAE=
    Generation:             1764000000000099
    Metageneration:         1
gs://sweep-bucket/runs/x/../../etc/passwd:
    Creation time:          Tue, 02 Dec 2025 10:00:00 GMT
    Content-Length:         1
    Content-Type:           text/plain
    Hash (crc32c):          AAAAAA==
    Hash (md5):             1B2M2Y8AsgTpgAmY7PHvCA==
    ETag:                   CLjQ2tbI9okDEAE=
    Generation:             1764000000000098
    Metageneration:         1
END
sed -i '/^TOTAL:/d' "$case/gsutil-ls-L.txt"
# the second listing (gsutil ls -l): size-only.txt, and disagree.txt as
# rewritten in between (3 bytes longer)
mkdir -p "$tmp/sizes/notes"
cp "$bucket/notes/size-only.txt" "$tmp/sizes/notes/"
{ cat "$bucket/notes/disagree.txt"; printf 'new'; } >"$tmp/sizes/notes/disagree.txt"
$py tests/make_listing.py "$tmp/sizes" ls_l --prefix runs/x/ --generation 1764000000009000 >"$case/gsutil-ls-l.txt"
# the third (aws s3api list-objects-v2 of a mirror): a multipart upload
mkdir -p "$tmp/s3/notes"
printf 'uploaded to the S3 mirror in parts\n' >"$tmp/s3/notes/multipart.txt"
$py tests/make_listing.py "$tmp/s3" s3api --prefix mirror/x/ --multipart notes/multipart.txt >"$case/s3api.json"
# the copy
rm -rf "$case/export"
cp -R "$bucket" "$case/export"
cp "$tmp/s3/notes/multipart.txt" "$case/export/notes/"
rm "$case/export/other/bench/vllm-infqps-concurrency4-other.json"    # missing: an input of other
printf 'INFO 11-02 10:00:00 [loggers.py:123] a line the copy has and the bucket lacks\n' \
    >>"$case/export/base-model/server.log"                          # changed: its size
sed -i 's/one byte/One byte/' "$case/export/notes/same-size.txt"      # changed: its CRC-32C
$py -c 'import gzip, sys; sys.stdout.buffer.write(gzip.compress(open(sys.argv[1], "rb").read(), mtime=0))' \
    "$bucket/notes/kept-gzip.txt" >"$case/export/notes/kept-gzip.txt"        # verified: gzip bytes kept
rm "$case/export/notes/link.txt"
ln -s readme.txt "$case/export/notes/link.txt"                        # unverifiable: a link
printf 'in the copy only\n' >"$case/export/notes/local-only.txt"      # extra
echo "made $case"
