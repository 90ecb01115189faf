#!/usr/bin/env python3
"""Issue 23's measurement: sweep-report against the Python peer (bench/peer.py)
on the same export, as interleaved pairs (report, peer, report, peer, ...,
the order swapped every other pair), after one uncounted warm-up of each.
Each process is timed by the kernel (os.wait4): CPU = user + sys of the
process and its threads, and peak RSS. Wall time is printed too but means
little on a shared machine; the ratio is per pair, CPU report / CPU peer,
and the figures are medians (min-max). The load average (1 minute) at the
start and end of each export's batch is printed beside it.

usage: pairs.py --bin ./sweep-report --python /usr/bin/python3 [--pairs 5]
                [--check] [--report-only] [--no-peer] [--floor BIN]
                [--warmup N] [--report-args 'ARGS'] EXPORT [EXPORT...]
--report-only (or --no-peer) runs no peer (the memory and scaling cases).
--floor BIN runs issue 33's floor (build/simd-floor: read, SHA-256 and
simdjson-parse every file of the export, nothing else) in each round too,
and prints the report's CPU over the floor's. --warmup 0 skips the
uncounted warm-up (a big export just written is in the page cache).
--check cross-checks the last report's intervals with the peer's
(bench/check_intervals.py). Prints two lines per export; exits 1 when
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


def load_average():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exports", nargs="+")
    ap.add_argument("--bin", default="./sweep-report")
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--floor", default=None)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--label", default=None, help="the row's name (default: the export's folder)")
    ap.add_argument("--report-args", default="",
                    help="more arguments for the report, one string (issue 42: --report-args '--outputs json,csv')")
    args = ap.parse_args()
    no_peer = args.report_only or args.no_peer
    tmp = tempfile.mkdtemp(prefix="sweep-pairs.")
    ok = True
    try:
        print("%-28s %5s  %-24s %-24s %-22s %-9s %-9s" % ("export", "pairs", "report CPU s", "peer CPU s",
                                                          "report / peer CPU", "rep. MiB", "peer MiB"))
        for ex in args.exports:
            out = os.path.join(tmp, "out")
            report = [args.bin, "report", ex, "-o", out] + args.report_args.split()
            peer_json = os.path.join(tmp, "peer.json")
            peer = [args.python, os.path.join(HERE, "peer.py"), ex, "--json", peer_json]
            runs = {"report": [], "peer": [], "floor": []}
            order = ["report"] if no_peer else ["report", "peer"]
            if args.floor:
                order.append("floor")
            cmds = {"report": report, "peer": peer, "floor": [args.floor, ex] if args.floor else None}
            for _ in range(args.warmup):  # page cache, numpy's import
                for name in order:
                    if run(cmds[name]) is None:
                        ok = False
            load0 = load_average()
            for i in range(args.pairs):
                for name in order if i % 2 == 0 else order[::-1]:
                    r = run(cmds[name])
                    if r is None:
                        ok = False
                        continue
                    runs[name].append(r)
            load1 = load_average()
            rep = runs["report"]
            if not rep:
                continue
            cpu = [r["cpu"] for r in rep]
            rss = [r["rss"] for r in rep]
            label = args.label or os.path.basename(ex.rstrip("/"))
            line = "%-28s %5d  %-24s" % (label, len(rep), summary(cpu))
            if not no_peer and runs["peer"]:
                pc = [r["cpu"] for r in runs["peer"]]
                ratios = [a["cpu"] / b["cpu"] for a, b in zip(rep, runs["peer"])]
                line += " %-24s %-22s %-9.1f %-9.1f" % (summary(pc), summary(ratios), max(rss),
                                                     max(r["rss"] for r in runs["peer"]))
            else:
                line += " %-24s %-22s %-9.1f" % ("", "", max(rss))
            print(line)
            extra = "wall s: report %s%s" % (summary([r["wall"] for r in rep]),
                                            "" if no_peer or not runs["peer"] else
                                            ", peer " + summary([r["wall"] for r in runs["peer"]]))
            if runs["floor"]:
                fc = [r["cpu"] for r in runs["floor"]]
                fr = [a["cpu"] / b["cpu"] for a, b in zip(rep, runs["floor"])]
                extra += "; floor CPU s %s, report / floor %s" % (summary(fc), summary(fr))
            extra += "; load average %s -> %s" % (load0, load1)
            print("%-28s        %s" % ("", extra))
            sys.stdout.flush()
            if args.check and not no_peer and os.path.exists(peer_json):
                c = subprocess.run([args.python, os.path.join(HERE, "check_intervals.py"),
                                    os.path.join(out, "report.json"), peer_json], capture_output=True, text=True)
                print("%-28s        %s" % ("", c.stdout.strip().replace("\n", "; ")))
                ok = ok and c.returncode == 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
