#!/usr/bin/python3
"""Write a bucket listing of a directory, as the cloud tools print one.

  make_listing.py DIR FORMAT [--bucket B] [--prefix P] [--composite PATH]...
                  [--gzip PATH]... [--multipart PATH]... [--generation N] > LISTING

DIR's files are the bucket's objects, named gs://B/P<path>. FORMAT is one of
gsutil_ls_L, gcloud_ls_L, ls_l, gcloud_ls_json, gcloud_objects_list,
gcs_json_api, rclone_lsjson, s3api, md5sum, sha256sum, bagit. Each shape follows
its tool's own printing code or documentation (docs/provenance.md names them):
gsutil's gslib/utils/ls_helper.py (MakeMetadataLine: 4-space indent, label and
colon padded to 28 columns), gcloud's 2-space variant ("Hash (CRC32C):"), gsutil
ls -l's '%10s  %s  %s', the Cloud SDK's cloud_list_task test for ls --json,
rclone's lsjson docs, the AWS CLI's list-objects-v2 output, coreutils' md5sum,
RFC 8493 for BagIt.

Hashes come from Python's hashlib and crcmod (what gsutil itself uses for
CRC-32C), never from sweep-report. A --composite object is listed without MD5
and with a component count; a --gzip object with Content-Encoding gzip and the
size and hashes of its gzip-compressed bytes (as `gsutil cp -Z` stores it); a
--multipart object (s3api) with an ETag "<hex>-2".
"""
import argparse
import base64
import gzip
import hashlib
import json
import os
import sys

import crcmod.predefined

CRC32C = crcmod.predefined.mkCrcFun("crc-32c")


def files_of(root):
    out = []
    for top, dirs, names in os.walk(root):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(top, n)
            if os.path.isfile(p) and not os.path.islink(p):
                out.append(os.path.relpath(p, root))
    return sorted(out, key=lambda s: s.encode())


def stored_bytes(root, rel, gz):
    data = open(os.path.join(root, rel), "rb").read()
    if gz and not data.startswith(b"\x1f\x8b"):
        data = gzip.compress(data, mtime=0)
    return data


def b64(raw):
    return base64.b64encode(raw).decode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("format")
    ap.add_argument("--bucket", default="sweep-bucket")
    ap.add_argument("--prefix", default="")
    ap.add_argument("--composite", action="append", default=[])
    ap.add_argument("--gzip", action="append", default=[])
    ap.add_argument("--multipart", action="append", default=[])
    ap.add_argument("--generation", type=int, default=1764000000000000)
    a = ap.parse_args()
    objs = []
    for i, rel in enumerate(files_of(a.dir)):
        data = stored_bytes(a.dir, rel, rel in a.gzip)
        objs.append({
            "rel": rel,
            "name": a.prefix + rel,
            "size": len(data),
            "md5": hashlib.md5(data).digest(),
            "sha256": hashlib.sha256(data).hexdigest(),
            "crc": CRC32C(data).to_bytes(4, "big"),
            "gen": str(a.generation + i),
            "composite": rel in a.composite,
            "gzip": rel in a.gzip,
            "multipart": rel in a.multipart,
        })
    w = sys.stdout.write
    f = a.format
    url = lambda o: "gs://%s/%s" % (a.bucket, o["name"])
    if f in ("gsutil_ls_L", "gcloud_ls_L"):
        gc = f == "gcloud_ls_L"
        ind = "  " if gc else "    "

        def line(label, value):
            if gc:
                w(("  " + label + ":").ljust(31) + str(value) + "\n")
            else:
                w(("    " + label + ":").ljust(28) + str(value) + "\n")

        total = 0
        for o in objs:
            w(url(o) + ":\n")
            line("Creation Time" if gc else "Creation time", "Tue, 02 Dec 2025 10:00:00 GMT")
            line("Update Time" if gc else "Update time", "Tue, 02 Dec 2025 10:00:00 GMT")
            line("Storage Class" if gc else "Storage class", "STANDARD")
            if o["gzip"]:
                line("Content-Encoding", "gzip")
            line("Content-Length", o["size"])
            line("Content-Type", "application/octet-stream")
            if o["composite"]:
                line("Component Count" if gc else "Component-Count", 2)
            if not gc:
                w("    Metadata:\n")
                w("        Content-Length:     999\n")  # a user metadata key named like a field
            line("Hash (CRC32C)" if gc else "Hash (crc32c)", b64(o["crc"]))
            if not o["composite"]:
                line("Hash (MD5)" if gc else "Hash (md5)", b64(o["md5"]))
            line("ETag", "CP+G9snS/ogDEAE=")
            line("Generation", o["gen"])
            line("Metageneration", 1)
            if not gc:
                line("ACL", "[")
                w('  {\n    "entity": "project-owners-1",\n    "role": "OWNER"\n  }\n]\n')
            total += o["size"]
        w("TOTAL: %d objects, %d bytes (%.2f KiB)\n" % (len(objs), total, total / 1024))
    elif f == "ls_l":
        total = 0
        for o in objs:
            w("%10s  %s  %s\n" % (o["size"], "2025-12-02T10:00:00Z", url(o)))
            total += o["size"]
        w("TOTAL: %d objects, %d bytes (%.2f KiB)\n" % (len(objs), total, total / 1024))
    elif f in ("gcloud_ls_json", "gcs_json_api"):
        recs = []
        for o in objs:
            m = {"bucket": a.bucket, "contentType": "application/octet-stream", "crc32c": b64(o["crc"]),
                 "etag": "CP+G9snS/ogDEAE=", "generation": o["gen"], "id": "%s/%s/%s" % (a.bucket, o["name"], o["gen"]),
                 "kind": "storage#object", "metageneration": "1", "name": o["name"], "size": str(o["size"]),
                 "storageClass": "STANDARD"}
            if not o["composite"]:
                m["md5Hash"] = b64(o["md5"])
            else:
                m["componentCount"] = 2
            if o["gzip"]:
                m["contentEncoding"] = "gzip"
            recs.append(m)
        if f == "gcs_json_api":
            w(json.dumps({"kind": "storage#objects", "items": recs}, indent=2) + "\n")
        else:
            out = [{"url": "gs://%s/%s#%s" % (a.bucket, m["name"], m["generation"]), "type": "cloud_object",
                    "metadata": m} for m in recs]
            w("[\n" + ",\n".join(json.dumps(x, indent=2) for x in out) + "\n]\n")
    elif f == "gcloud_objects_list":
        recs = []
        for o in objs:
            r = {"bucket": a.bucket, "content_type": "application/octet-stream", "crc32c_hash": b64(o["crc"]),
                 "creation_time": "2025-12-02T10:00:00+0000", "generation": o["gen"], "metageneration": 1,
                 "name": o["name"], "size": o["size"], "storage_class": "STANDARD",
                 "storage_url": "gs://%s/%s#%s" % (a.bucket, o["name"], o["gen"])}
            if not o["composite"]:
                r["md5_hash"] = b64(o["md5"])
            else:
                r["component_count"] = 2
            if o["gzip"]:
                r["content_encoding"] = "gzip"
            recs.append(r)
        w(json.dumps(recs, indent=2) + "\n")
    elif f == "rclone_lsjson":
        out = []
        dirs = set()
        for o in objs:
            parts = o["name"].split("/")[:-1]
            for i in range(1, len(parts) + 1):
                dirs.add("/".join(parts[:i]))
        for d in sorted(dirs):
            out.append({"Path": d, "Name": d.split("/")[-1], "Size": -1, "MimeType": "inode/directory",
                        "ModTime": "2025-12-02T10:00:00.000000000Z", "IsDir": True})
        for o in objs:
            out.append({"Path": o["name"], "Name": o["name"].split("/")[-1], "Size": o["size"],
                        "MimeType": "application/octet-stream", "ModTime": "2025-12-02T10:00:00.000000000Z",
                        "IsDir": False, "Hashes": {"md5": o["md5"].hex(),
                                                   "sha1": hashlib.sha1(stored_bytes(a.dir, o["rel"], o["gzip"])).hexdigest()}})
        w("[\n" + ",\n".join(json.dumps(x, separators=(",", ":")) for x in out) + "\n]\n")
    elif f == "s3api":
        cont = []
        for o in objs:
            etag = o["md5"].hex() + ("-2" if o["multipart"] else "")
            cont.append({"Key": o["name"], "LastModified": "2025-12-02T10:00:00+00:00", "ETag": '"%s"' % etag,
                         "ChecksumAlgorithm": ["CRC32"], "Size": o["size"], "StorageClass": "STANDARD"})
        w(json.dumps({"Contents": cont, "RequestCharged": None}, indent=4) + "\n")
    elif f in ("md5sum", "sha256sum"):
        for o in objs:
            h = o["md5"].hex() if f == "md5sum" else o["sha256"]
            w("%s  %s\n" % (h, o["name"]))
    elif f == "bagit":
        for o in objs:
            w("%s %s\n" % (o["sha256"], o["name"]))
    else:
        sys.exit("unknown format " + f)


if __name__ == "__main__":
    main()
