#!/usr/bin/env python3
"""Issue 23's measurement: sweep-report against the Python peer (bench/peer.py)
on the same export, as interleaved pairs (report, peer, report, peer, ...,
the order swapped every other pair), after one uncounted warm-up of each.
Each process is timed by the kernel (os.wait4): CPU = user + sys of the
process and its threads, and peak RSS. Wall time is printed too but means
little on a shared machine; the ratio is per pair, CPU report / CPU peer,
and the figures are medians (min-max).

usage: pairs.py --bin ./sweep-report --python /usr/bin/python3 [--pairs 5]
                [--check] [--report-only] EXPORT [EXPORT...]
--report-only runs only the report (the 3,000-model memory case).
--check cross-checks the last report's intervals with the peer's
(bench/check_intervals.py). Prints one table row per export; exits 1 when
a run fails or the check does not hold."""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, stdout=subprocess.DEVNULL):
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.stderr.write("pairs: %s failed (exit %d): %s\n" % (cmd[0], code, err.decode(errors="replace")[:400]))
        return None
    return {"cpu": ru.ru_utime + ru.ru_stime, "wall": wall, "rss": ru.ru_maxrss / 1024.0}


def summary(values, fmt="%.3f"):
    return (fmt + " (" + fmt + "-" + fmt + ")") % (statistics.median(values), min(values), max(values))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exports", nargs="+")
    ap.add_argument("--bin", default="./sweep-report")
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="sweep-pairs.")
    ok = True
    try:
        print("%-28s %5s  %-24s %-24s %-22s %-9s %-9s" % ("export", "pairs", "report CPU s", "peer CPU s",
                                                          "report / peer CPU", "rep. MiB", "peer MiB"))
        for ex in args.exports:
            out = os.path.join(tmp, "out")
            report = [args.bin, "report", ex, "-o", out]
            peer_json = os.path.join(tmp, "peer.json")
            peer = [args.python, os.path.join(HERE, "peer.py"), ex, "--json", peer_json]
            runs = {"report": [], "peer": []}
            order = ["report"] if args.report_only else ["report", "peer"]
            cmds = {"report": report, "peer": peer}
            for name in order:  # warm-up: page cache, numpy's import
                if run(cmds[name]) is None:
                    ok = False
            for i in range(args.pairs):
                for name in order if i % 2 == 0 else order[::-1]:
                    r = run(cmds[name])
                    if r is None:
                        ok = False
                        continue
                    runs[name].append(r)
            rep = runs["report"]
            if not rep:
                continue
            cpu = [r["cpu"] for r in rep]
            rss = [r["rss"] for r in rep]
            line = "%-28s %5d  %-24s" % (os.path.basename(ex.rstrip("/")), len(rep), summary(cpu))
            if not args.report_only and runs["peer"]:
                pc = [r["cpu"] for r in runs["peer"]]
                ratios = [a["cpu"] / b["cpu"] for a, b in zip(rep, runs["peer"])]
                line += " %-24s %-22s %-9.1f %-9.1f" % (summary(pc), summary(ratios), max(rss),
                                                     max(r["rss"] for r in runs["peer"]))
            else:
                line += " %-24s %-22s %-9.1f" % ("", "", max(rss))
            print(line)
            print("%-28s        wall s: report %s%s" % ("", summary([r["wall"] for r in rep]),
                  "" if args.report_only or not runs["peer"] else
                  ", peer " + summary([r["wall"] for r in runs["peer"]])))
            sys.stdout.flush()
            if args.check and not args.report_only and os.path.exists(peer_json):
                c = subprocess.run([args.python, os.path.join(HERE, "check_intervals.py"),
                                    os.path.join(out, "report.json"), peer_json], capture_output=True, text=True)
                print("%-28s        %s" % ("", c.stdout.strip().replace("\n", "; ")))
                ok = ok and c.returncode == 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
