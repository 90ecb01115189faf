#!/usr/bin/python3
"""Check report.json's provenance (or `verify --json`'s output) against the
inputs, independently of sweep-report: the listings are parsed here (every
format docs/provenance.md names), the copy walked and hashed with hashlib and
crcmod, each file's state derived by the documented rules, and every file's
status, hash compared and counts held to the tool's.

  check_provenance.py REPORT_JSON EXPORT_DIR LISTING... [--prefix P]
                      [--expect status=N ...]

--expect also pins counts the case was built to have (a state a bug could
drop everywhere at once would pass the comparison alone).
"""
import argparse
import base64
import json
import os
import re
import sys

import crcmod.predefined
import hashlib

CRC32C = crcmod.predefined.mkCrcFun("crc-32c")


def fail(msg):
    print("check_provenance: " + msg)
    sys.exit(1)


# ---- listings -------------------------------------------------------------------

def obj(name, size=None, crc=None, md5=None, sha256=None, sha1=None, gen=None, gzip=False, nohash=None,
        placeholder=False):
    return dict(name=name, size=size, crc=crc, md5=md5, sha256=sha256, sha1=sha1, gen=gen, gzip=gzip,
                nohash=nohash, placeholder=placeholder)


def parse_blocks(lines):
    out, cur = [], None
    acl = 0
    for line in lines:
        if acl:
            acl += line.count("[") + line.count("{") - line.count("]") - line.count("}")
            continue
        if not line.strip() or line.startswith("TOTAL:"):
            continue
        if not line[0].isspace() and "://" in line and line.rstrip().endswith(":"):
            if cur and cur["fields"]:
                out.append(cur)
            cur = {"name": line.rstrip()[:-1], "fields": {}, "indent": None}
            continue
        indent = len(line) - len(line.lstrip())
        if cur["indent"] is not None and indent > cur["indent"]:
            continue
        cur["indent"] = indent
        label, _, value = line.strip().partition(":")
        key = label.lower().replace(" ", "").replace("-", "")
        value = value.strip()
        if key == "acl":
            acl = value.count("[") + value.count("{") - value.count("]") - value.count("}")
        cur["fields"].setdefault(key, value)
    if cur and cur["fields"]:
        out.append(cur)
    objs = []
    for b in out:
        f = b["fields"]
        name = b["name"]
        gen = f.get("generation")
        if gen and name.endswith("#" + gen):
            name = name[: -len(gen) - 1]
        crc = f.get("hash(crc32c)")
        md5 = f.get("hash(md5)")
        nohash = "encrypted" if crc == "encrypted" or md5 == "encrypted" else None
        objs.append(obj(name, int(f["contentlength"]),
                        base64.b64decode(crc) if crc and not nohash else None,
                        base64.b64decode(md5) if md5 and not nohash else None, gen=gen,
                        gzip=f.get("contentencoding", "").lower().startswith("gzip"), nohash=nohash,
                        placeholder=name.endswith("/") and int(f["contentlength"]) == 0))
    return objs


def parse_sizes(lines):
    objs = []
    for line in lines:
        m = re.match(r"\s*(\d+)\s+\S+\s+(\S+://.*)$", line)
        if not m:
            continue
        name = m.group(2)
        gen = None
        mm = re.match(r"(.*)#(\d+)\s+metageneration=\S+.*$", name)
        if mm:
            name, gen = mm.group(1), mm.group(2)
        objs.append(obj(name, int(m.group(1)), gen=gen, placeholder=name.endswith("/") and m.group(1) == "0"))
    return objs


def parse_sums(lines):
    objs = []
    for line in lines:
        if not line.strip():
            continue
        m = re.match(r"^(MD5|SHA1|SHA256) \((.*)\) = ([0-9a-fA-F]+)$", line)
        if m:
            h, name = m.group(3), m.group(2)
        else:
            esc = line.startswith("\\")
            body = line[1:] if esc else line
            m = re.match(r"^([0-9a-fA-F]+)( [ *]|[ \t]+)(.*)$", body)
            h, name = m.group(1), m.group(3)
            if esc:
                name = name.replace("\\\\", "\0").replace("\\n", "\n").replace("\\r", "\r").replace("\0", "\\")
        raw = bytes.fromhex(h)
        kw = {16: "md5", 20: "sha1", 32: "sha256"}[len(raw)]
        objs.append(obj(name, **{kw: raw}))
    return objs


def gcs_meta(m):
    name = ("gs://%s/" % m["bucket"] if m.get("bucket") else "") + m["name"]
    return obj(name, int(m["size"]),
               base64.b64decode(m["crc32c"]) if m.get("crc32c") else None,
               base64.b64decode(m["md5Hash"]) if m.get("md5Hash") else None,
               gen=str(m["generation"]) if m.get("generation") is not None else None,
               gzip=str(m.get("contentEncoding", "")).lower().startswith("gzip"))


def parse_json(data):
    objs = []
    if isinstance(data, dict):
        if "Contents" in data:
            for c in data["Contents"]:
                etag = c.get("ETag", "").strip('"')
                if "-" in etag:
                    objs.append(obj(c["Key"], c.get("Size"), nohash="multipart"))
                else:
                    objs.append(obj(c["Key"], c.get("Size"), md5=bytes.fromhex(etag) if etag else None))
            return objs
        return [gcs_meta(m) for m in data["items"]]
    for r in data:
        if "url" in r and "type" in r:
            if r["type"] != "cloud_object":
                continue
            objs.append(gcs_meta(r["metadata"]))
        elif "Path" in r:
            if r.get("IsDir"):
                continue
            h = {k.lower().replace("-", ""): v for k, v in r.get("Hashes", {}).items() if v}
            objs.append(obj(r["Path"], r["Size"] if r["Size"] >= 0 else None,
                            md5=bytes.fromhex(h["md5"]) if "md5" in h else None,
                            sha1=bytes.fromhex(h["sha1"]) if "sha1" in h else None,
                            sha256=bytes.fromhex(h["sha256"]) if "sha256" in h else None))
        else:
            name = ("gs://%s/" % r["bucket"] if r.get("bucket") else "") + r["name"]
            objs.append(obj(name, int(r["size"]),
                            base64.b64decode(r["crc32c_hash"]) if r.get("crc32c_hash") else None,
                            base64.b64decode(r["md5_hash"]) if r.get("md5_hash") else None,
                            gen=str(r["generation"]) if r.get("generation") is not None else None,
                            gzip=str(r.get("content_encoding", "")).lower().startswith("gzip")))
    return objs


def parse_listing(path):
    raw = open(path, "rb").read().decode("utf-8")
    if raw.lstrip().startswith(("[", "{")):
        objs = parse_json(json.loads(raw))
    else:
        lines = raw.splitlines()
        first = next(l for l in lines if l.strip())
        if "://" in first and first.rstrip().endswith(":") and not first[0].isspace():
            objs = parse_blocks(lines)
        elif re.match(r"\s*(\d+\s+\d{4}-|\S+://)", first):
            objs = parse_sizes(lines)
        else:
            objs = parse_sums(lines)
    for o in objs:
        if o["name"].endswith("_$folder$"):
            o["placeholder"] = True
    return objs


# ---- the copy ---------------------------------------------------------------------

def walk(root):
    files = {}
    for top, dirs, names in os.walk(root):
        for n in names + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
            p = os.path.join(top, n)
            rel = os.path.relpath(p, root)
            files[rel] = "link" if os.path.islink(p) else "file" if os.path.isfile(p) else "other"
    return files


def strip_bucket(name):
    m = re.match(r"^[A-Za-z0-9]+://[^/]*/?(.*)$", name, re.S)
    return m.group(1) if m else name


def prefix_of(objs, files, given):
    if given is not None:
        return strip_bucket(given) if "://" in given else given
    votes = {}
    for o in objs:
        if o["placeholder"]:
            continue
        n = strip_bucket(o["name"])
        for i in range(len(n)):
            if (i == 0 or n[i - 1] == "/") and n[i:] in files:
                votes[n[:i]] = votes.get(n[:i], 0) + 1
    if not votes:
        fail("no prefix: no name matches a file")
    best = max(votes.items(), key=lambda kv: (kv[1], -len(kv[0])))
    return best[0]


def expected_states(export, listings, given):
    files = walk(export)
    for l in listings:  # a listing inside the copy is no file of it
        rel = os.path.relpath(os.path.realpath(l), os.path.realpath(export))
        files.pop(rel, None)
    by_path = {}
    for i, l in enumerate(listings):
        objs = parse_listing(l)
        pre = prefix_of(objs, files, given)
        for o in objs:
            if o["placeholder"]:
                continue
            n = strip_bucket(o["name"])
            if not n.startswith(pre):
                continue
            o["listing"] = i
            by_path.setdefault(n[len(pre):], []).append(o)
    states = {}
    for path in sorted(set(by_path) | set(files), key=lambda s: s.encode()):
        group = by_path.get(path)
        kind = files.get(path)
        if not group:
            states[path] = ("extra", "size" if kind == "file" else None)
            continue
        # per listing, its newest generation; then the first listing's against the others
        per = {}
        for o in group:
            cur = per.get(o["listing"])
            if cur is None or (o["gen"] and (not cur["gen"] or (len(o["gen"]), o["gen"]) > (len(cur["gen"]), cur["gen"]))):
                per[o["listing"]] = o
        picks = [per[k] for k in sorted(per)]
        m = dict(picks[0])
        disagree = None
        for b in picks[1:]:
            if m["size"] is not None and b["size"] is not None and m["size"] != b["size"]:
                disagree = "size"
            for h in ("crc", "md5", "sha1", "sha256"):
                if not disagree and m[h] is not None and b[h] is not None and m[h] != b[h]:
                    disagree = h
            if disagree:
                break
            for k in ("size", "crc", "md5", "sha1", "sha256"):
                if m[k] is None:
                    m[k] = b[k]
            m["gzip"] = m["gzip"] or b["gzip"]
            if m["nohash"] and not b["nohash"]:
                m["nohash"] = None
        check = None if m["nohash"] else next((h for h in ("sha256", "crc", "md5", "sha1") if m[h] is not None), None)
        name = {"crc": "crc32c", "md5": "md5", "sha1": "sha1", "sha256": "sha256", None: None}
        if disagree:
            states[path] = ("changed", name.get(disagree, disagree))
            continue
        compared = name[check] if check else ("size" if m["size"] is not None else None)
        if kind is None:
            states[path] = ("missing", compared)
            continue
        if kind != "file":
            states[path] = ("unverifiable", compared)
            continue
        data = open(os.path.join(export, path), "rb").read()
        if m["gzip"] and not data.startswith(b"\x1f\x8b"):
            states[path] = ("unverifiable", compared)
            continue
        if m["size"] is not None and len(data) != m["size"]:
            states[path] = ("changed", "size")
            continue
        if not check:
            states[path] = ("unverifiable" if m["nohash"] or m["size"] is None else "size_only", compared)
            continue
        got = {"crc": CRC32C(data).to_bytes(4, "big"), "md5": hashlib.md5(data).digest(),
               "sha1": hashlib.sha1(data).digest(), "sha256": hashlib.sha256(data).digest()}[check]
        states[path] = ("verified" if got == m[check] else "changed", compared)
    return states


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("export")
    ap.add_argument("listings", nargs="+")
    ap.add_argument("--prefix")
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--claims-of", action="append", default=[],
                    help="an entry (id) a missing or changed file belongs to: each claim about it must be not "
                         "verifiable for provenance, and no claim about another entry may be")
    a = ap.parse_args()
    doc = json.load(open(a.report))
    prov = doc.get("provenance", doc)
    want = expected_states(a.export, a.listings, a.prefix)
    got = {f["path"]: (f["status"], f["hash"]) for f in prov["files"]}
    if list(got) != list(want):
        fail("files differ: only the tool's %s; only ours %s" % (sorted(set(got) - set(want))[:5],
                                                                  sorted(set(want) - set(got))[:5]))
    bad = [(p, got[p], want[p]) for p in want if got[p] != want[p]]
    if bad:
        fail("%d files differ (path, tool's, ours): %s" % (len(bad), bad[:5]))
    counts = {}
    for s, _ in want.values():
        counts[s] = counts.get(s, 0) + 1
    for s in ("verified", "size_only", "changed", "missing", "extra", "unverifiable"):
        if prov["counts"][s] != counts.get(s, 0):
            fail("count of %s: tool %d, ours %d" % (s, prov["counts"][s], counts.get(s, 0)))
    for e in a.expect:
        s, n = e.split("=")
        if counts.get(s, 0) != int(n):
            fail("the case was built with %s %s, found %d" % (n, s, counts.get(s, 0)))
    if a.claims_of:
        touched = set(a.claims_of)
        named = {f["entry"] for f in prov["files"] if f["status"] in ("missing", "changed") and f.get("entry")}
        ids = {m.get("label") or m["id"]: m["id"] for m in doc["models"]}
        if {ids.get(e, e) for e in named} != touched:
            fail("entries named by missing or changed files: %s, expected %s" % (sorted(named), sorted(touched)))
        for c in doc.get("claims", []):
            mine = c.get("model_id") in touched
            prov_reason = c.get("status") == "not verifiable" and c.get("reason") == "provenance"
            if mine != prov_reason:
                fail("claim %s (%s, %s): %s/%s" % (c.get("source"), c.get("model_id"), c.get("figure"),
                                                   c.get("status"), c.get("reason")))
    print("provenance: %d files, every status and hash as derived from the listings and the copy (%s)"
          % (len(want), ", ".join("%s %d" % kv for kv in sorted(counts.items()))))


if __name__ == "__main__":
    main()
