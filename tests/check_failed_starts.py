#!/usr/bin/env python3
"""Failed starts that never printed vLLM's banner (golden case report/failed-starts), derived
from the inputs: a directory whose only log is a Python traceback through vllm (its package or
its entry script) or a shell's "vllm: command not found" is a failed entry at load, its failure
the log's last line with text, at that line; a directory with a bench result beside a bench
client's traceback is not failed.

usage: check_failed_starts.py REPORT_JSON EXPORT_DIR
"""
import glob
import json
import os
import sys


def main(argv):
    report = json.load(open(argv[1]))
    export = argv[2]
    by_dir = {m["directory"]: m for m in report["models"]}
    fails = []
    for d in sorted(os.listdir(export)):
        path = os.path.join(export, d)
        if not os.path.isdir(path):
            continue
        logs = sorted(glob.glob(os.path.join(path, "*.log")))
        texts = [open(f).read() for f in logs]
        result = any("Serving Benchmark Result" in t for t in texts)
        m = by_dir.get(d)
        if m is None:
            fails.append("%s: no entry (the directory vanished from the report)" % d)
            continue
        if result:
            if m["status"] == "failed":
                fails.append("%s: failed, but it has a bench result" % d)
            continue
        lines = [ln.rstrip() for ln in texts[0].split("\n")]
        last = max(i for i, ln in enumerate(lines) if ln.strip())
        want = lines[last].strip()
        f = m.get("failure") or {}
        if m["status"] != "failed" or f.get("stage") != "load":
            fails.append("%s: status %s stage %s, want failed at load" % (d, m["status"], f.get("stage")))
        if f.get("message") != want:
            fails.append("%s: failure %r, want %r" % (d, f.get("message"), want))
        where = "%s/%s:%d" % (d, os.path.basename(logs[0]), last + 1)
        if f.get("source") != where:
            fails.append("%s: source %r, want %r" % (d, f.get("source"), where))
    for x in fails:
        print("FAIL", x)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
