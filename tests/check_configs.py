#!/usr/bin/env python3
"""Independent check of `report --configs DIR` (not made by the tool): every
entry whose model has a <name>/config.json in DIR shows that file as its
config, recorded among the inputs with the file's own SHA-256 and size, and
its logged KV count is recomputed; every entry without one keeps "not
recomputed" with a reason naming --configs.

usage: check_configs.py REPORT_JSON CONFIGS_DIR"""
import hashlib
import json
import os
import sys


def main():
    report, configs = sys.argv[1], sys.argv[2]
    with open(report, encoding="utf-8") as f:
        doc = json.load(f)
    inputs = {i["path"]: i for i in doc["inputs"]}
    problems, recomputed = [], 0
    for m in doc["models"]:
        name = m["id"].rstrip("/").split("/")[-1]
        path = os.path.join(configs, name, "config.json")
        kv = m["kv_cache"] or {}
        if os.path.isfile(path):
            with open(path, "rb") as f:
                data = f.read()
            if m["config"] != path:
                problems.append(f"{m['id']}: config {m['config']!r}, expected {path!r}")
                continue
            rec = inputs.get(path)
            if not rec or rec["kind"] != "hf_config" or rec["sha256"] != hashlib.sha256(data).hexdigest() \
                    or rec["size"] != len(data):
                problems.append(f"{m['id']}: {path} not recorded with its SHA-256 and size: {rec}")
            if kv.get("logged_tokens") is not None:
                if kv.get("recomputed_tokens") is None:
                    problems.append(f"{m['id']}: logged KV not recomputed from {path}")
                else:
                    recomputed += 1
        elif kv.get("logged_tokens") is not None:
            if m["config"] is not None or "--configs" not in (kv.get("note") or ""):
                problems.append(f"{m['id']}: no config in {configs}, but config {m['config']!r}, "
                                f"note {kv.get('note')!r}")
    if recomputed == 0:
        problems.append("no entry's KV was recomputed")
    for p in problems:
        print("check_configs:", p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
