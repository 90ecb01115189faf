#!/usr/bin/env python3
"""Issue 31: every headline, count and status true on every shape, and the
same in every format. An independent check (not made by the tool): the
facts are derived here from report.json's `models[]` alone (deltas,
verdicts, ratios, statuses, the settings), then looked for in the
Overview's lead sentence and the Summary's first sentence of results.md,
report.html (its DOM text, by html.parser) and report.pdf (pdftotext), in
the overview table's Keeps up and Status cells (results.md and the HTML),
and in the interval level of every Δ heading.

    python3 tests/check_headline.py OUT_DIR [--ready EXPORT_DIR]

With --ready, the bucket layout's run.log files under EXPORT_DIR are read
too: an arm that run.log says served ("serving <model> as <tag>", then
"READY <model>") is never "failed", whether or not its files are there.
Exits 1 naming every disagreement."""
import json
import math
import os
import re
import subprocess
import sys
from html.parser import HTMLParser

out = sys.argv[1]
ready_export = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--ready" else None
report = json.load(open(os.path.join(out, "report.json"), encoding="utf-8"))
problems = []


def check(ok, what):
    if not ok:
        problems.append(what)


# ---- the facts, from report.json's models[] ------------------------------------

settings = report["settings"]
margin = settings.get("equivalence_margin")
margin = margin if isinstance(margin, (int, float)) else None
models = report["models"]
base = next((m for m in models if m.get("is_baseline")), None)
TESTED = ("no measured difference", "higher", "lower")


def deltas(m):
    return {b: a for b, a in (m.get("accuracy") or {}).items() if a.get("delta") is not None}


def ratios(m):
    return {k: s for k, s in (m.get("speed") or {}).items() if s.get("ratio") is not None}


def facts(m):
    d = deltas(m)
    judged = [a for a in d.values() if a["verdict"] in TESTED]
    lower = any(a["verdict"] == "lower" for a in judged)
    unshown = margin is not None and any(a["verdict"] == "no measured difference" and a.get("equivalent") is not True
                                         for a in judged)
    has_results = bool(m.get("accuracy")) or bool(m.get("speed"))
    shares = base is not None and (set(m.get("accuracy") or {}) & set(base.get("accuracy") or {}) or
                                   set(m.get("speed") or {}) & set(base.get("speed") or {}))
    return {
        "compared": bool(d) or bool(ratios(m)),
        "judged": bool(judged),
        "lower": lower,
        "keeps_up": bool(judged) and not lower and not unshown,
        "not_equivalent": bool(judged) and not lower and unshown,
        "delta": bool(d),
        "incomparable": base is not None and has_results and not shares,
    }


counts = dict(entries=0, compared=0, keep_up=0, lower=0, not_equivalent=0, too_few=0, speed_only=0,
              incomparable=0, failed=0, no_results=0, not_compared=0)
for m in models:
    # no results: nothing to report and no failure stated, so no stage either
    check(m["status"] != "no_results" or (m.get("failure") is None and not deltas(m) and not ratios(m)),
          "%s: status no_results with a failure or a figure" % m["id"])
    if m is base:
        continue
    f = facts(m)
    counts["entries"] += 1
    if m["status"] in ("failed", "no_results"):
        counts[m["status"]] += 1
        continue
    # the status word follows the fact: shares nothing with the baseline
    check((m["status"] == "incomparable") == f["incomparable"],
          "%s: status %s, but it %s a benchmark or scenario with the baseline"
          % (m["id"], m["status"], "shares no" if f["incomparable"] else "shares"))
    if f["incomparable"]:
        counts["incomparable"] += 1
    elif not f["compared"]:
        counts["not_compared"] += 1
    else:
        counts["compared"] += 1
        key = ("keep_up" if f["keeps_up"] else "lower" if f["lower"] else "not_equivalent" if f["not_equivalent"]
               else "too_few" if f["delta"] else "speed_only")
        counts[key] += 1
if base is None:
    counts = {k: (v if k in ("entries", "failed", "no_results") else 0) for k, v in counts.items()}

# report.json's own headline agrees with what its models say
if "headline" in report:
    for k, v in counts.items():
        if base is None and k not in ("entries", "failed", "no_results"):
            continue
        check(report["headline"].get(k) == v, "report.json headline.%s is %s, models[] give %d"
              % (k, report["headline"].get(k), v))

# keeps_up in the overview: true/false only where judged, null for the baseline, failed, incomparable
by_label = {m.get("label") or m["id"]: m for m in models}
for row in report["overview"]:
    m = by_label.get(row["model"])
    if m is None:
        continue
    f = facts(m)
    want = None if (m is base or base is None or m["status"] in ("failed", "no_results", "incomparable") or
                    not f["judged"]) \
        else f["keeps_up"]
    check(row["keeps_up"] == want, "overview %s: keeps_up %s, want %s" % (row["model"], row["keeps_up"], want))

# ---- the sentences -----------------------------------------------------------------


def num(text):
    return int(text.replace(",", ""))


def found(pattern, text):
    m = re.search(pattern, text)
    return num(m.group(1)) if m else 0


N = r"(\d[\d,]*)"
# the overview's keeps-up column: never a word that reads as equivalence (issue 37)
KEEPS_UP = ("Not measurably lower", "Keeps up (equivalent)")


def check_lead(where, lead):
    lead = " ".join(lead.split())
    if base is None:
        check(lead.startswith("No baseline was named"), "%s: the lead does not say no baseline was named: %s"
              % (where, lead))
        check(found(N + r" failed", lead) == counts["failed"], "%s: %d failed, the lead says: %s"
              % (where, counts["failed"], lead))
        check(found(N + r" (?:has|have) no results", lead) == counts["no_results"],
              "%s: %d with no results, the lead says: %s" % (where, counts["no_results"], lead))
        return
    if counts["entries"] == 0:
        check(lead.startswith("The export holds only the baseline"), "%s: only the baseline, the lead says: %s"
              % (where, lead))
    if base["status"] == "failed":
        # nothing can be compared with a baseline without results: said first
        said = "The baseline %s failed" % (base.get("label") or base["id"])
        check(lead.startswith(said), "%s: the baseline failed, and the lead does not begin so: %s" % (where, lead))
        lead = lead[len(said):] if lead.startswith(said) else lead
    if base["status"] == "no_results":
        said = "The baseline %s has no results" % (base.get("label") or base["id"])
        check(lead.startswith(said) or counts["entries"] == 0,
              "%s: the baseline has no results, and the lead does not begin so: %s" % (where, lead))
        lead = lead[len(said):] if lead.startswith(said) else lead
    got = {
        "lower": found(N + r" (?:is|are) measurably lower", lead),
        "not_equivalent": found(N + r" (?:is|are) not shown equivalent", lead),
        "too_few": found(N + r" (?:has|have) too few items", lead) or
        found(N + r" entr(?:y shares|ies share) too few items", lead),
        "speed_only": found(N + r"(?: of [\d,]+ entr(?:y|ies))? (?:was|were) compared on speed only", lead),
        "incomparable": found(N + r" (?:is|are) incomparable", lead),
        "not_compared": found(N + r" could not be compared", lead),
        "failed": found(N + r" failed", lead),
        "no_results": found(N + r" (?:has|have) no results", lead),
    }
    keep = re.search(N + r" of " + N + r" compared entr(?:y|ies) keeps? up", lead)
    if keep:
        got["keep_up"], got["compared"] = num(keep.group(1)), num(keep.group(2))
    else:
        got["keep_up"] = 0
        got["compared"] = got["speed_only"] + got["too_few"]
    for k, v in got.items():
        check(v == counts[k], "%s: %s is %d, the lead says %d: %s" % (where, k, counts[k], v, lead))
    # a benchmark others have and the baseline has not: the lead names it
    if base["status"] not in ("failed", "no_results"):
        others = set().union(*[set(m.get("accuracy") or {}) for m in models if m is not base])
        missing = sorted(others - set(base.get("accuracy") or {}))
        said = re.search(r"no entry was compared on (.*?), for which the baseline has no scores", lead)
        check(bool(said) == bool(missing), "%s: the baseline has no %s, the lead says: %s"
              % (where, ", ".join(missing) or "benchmark missing", lead))
        if said and missing:
            named = {bench_of(t) for t in re.split(r", | and ", said.group(1))}
            check(named == set(missing), "%s: the lead names %s without the baseline, report.json %s"
                  % (where, sorted(named), missing))
    # nothing judged: the lead must not claim anyone keeps up
    if counts["keep_up"] + counts["lower"] + counts["not_equivalent"] == 0:
        check(not keep, "%s: nothing was judged on accuracy, yet the lead counts who keeps up: %s" % (where, lead))


def check_summary(where, text):
    text = " ".join(text.split())
    if base is None:
        return
    if counts["entries"] == 0:
        check("holds only the baseline" in text, "%s: only the baseline, and the summary does not say so: %s"
              % (where, text[:300]))
        return
    if base["status"] == "failed":
        check("The baseline %s failed" % (base.get("label") or base["id"]) in text and
              "so no model was compared with it" in text and counts["compared"] == 0,
              "%s: the baseline failed, and the summary does not say so: %s" % (where, text[:300]))
        return
    if base["status"] == "no_results":
        check("The baseline %s has no results" % (base.get("label") or base["id"]) in text and counts["compared"] == 0,
              "%s: the baseline has no results, and the summary does not say so: %s" % (where, text[:300]))
        return
    # an entry paired on too few items was compared, without a verdict: never listed as "not compared"
    for seg in re.findall(r"not compared: (.*?)(?:;|\.(?: |$))", text):
        for mm in models:
            if mm is base:
                continue
            lbl = mm.get("label") or mm["id"]
            too_few = any(a.get("verdict") == "too few items" and a.get("delta") is not None
                          for a in (mm.get("accuracy") or {}).values())
            check(not (too_few and lbl in seg), "%s: %s was paired on too few items, yet the summary says it was not "
                  "compared: %s" % (where, lbl, seg))
    m = re.search(N + r" (?:models?|entr(?:y|ies)) (?:was|were) compared with the baseline", text)
    check(m is not None and num(m.group(1)) == counts["compared"],
          "%s: the summary says %s compared, models[] give %d" % (where, m.group(1) if m else "nothing",
                                                                    counts["compared"]))


def level_text(level):
    """The fewest decimals that tell the level apart from its neighbours: two
    significant digits of 1 - level."""
    pct = 100 * level
    rest = 100 - pct
    dec = max(0, math.ceil(-math.log10(rest)) + 1) if rest > 0 else 1
    s = "%.*f" % (dec, pct)
    return s.rstrip("0").rstrip(".") if "." in s else s


def bench_of(title):
    t = title.strip().lower()
    return {"gsm8k": "gsm8k", "bfcl": "bfcl_simple"}.get(t, t)


def check_levels(where, headers):
    """Each Δ heading names the level its benchmark's intervals were made at."""
    levels = {}
    for m in models:
        for b, a in (m.get("accuracy") or {}).items():
            if a.get("ci_level") is not None and a.get("ci_low") is not None:
                levels.setdefault(b, set()).add(level_text(a["ci_level"]))
    for h in headers:
        mm = re.search(r"Δ (.+?) \[([\d.]+)% (?:simultaneous )?CI\]", h)
        if not mm:
            continue
        check(mm.group(2) not in ("100", "100.0"), "%s: heading '%s' prints a level of 100%%" % (where, h))
        used = levels.get(bench_of(mm.group(1)))
        if mm.group(1) == "points":  # a benchmark's own table: any benchmark's level
            used = set().union(*levels.values()) if levels else None
        if used:
            check(mm.group(2) in used, "%s: heading '%s' names a level its intervals were not made at (%s)"
                  % (where, h, ", ".join(sorted(used))))


# results.md
md = open(os.path.join(out, "results.md"), encoding="utf-8").read()
overview_md = md.split("## Overview", 1)[1].split("\n## ", 1)[0]
lead_md = next((l.strip("* ") for l in overview_md.splitlines() if l.startswith("**")), "")
check_lead("results.md", lead_md)
summary_md = md.split("## Summary", 1)[1].split("\n## ", 1)[0] if "## Summary" in md else ""
check_summary("results.md", summary_md)
rows = [l for l in overview_md.splitlines() if l.startswith("| ") and not l.startswith("| Model")]
head = next((l for l in overview_md.splitlines() if l.startswith("| Model")), "")
cols = [c.strip() for c in head.strip("|").split("|")]
check("Keeps up" not in cols, "results.md: the overview's column 'Keeps up' reads as equivalence (say 'Not measurably "
                              "lower', or show equivalence with a margin)")
# a benchmark known only as a summary's or run.log's own figure is shown in the overview, flagged, not hidden
for m in models:
    for b, a in (m.get("accuracy") or {}).items():
        if a.get("summary_delta") is not None and m is not base:
            lbl = m.get("label") or m["id"]
            row = next((r for r in overview_md.splitlines() if r.startswith("| " + lbl)), "")
            check("no interval)" in row, "results.md overview: %s's %s figure (summary, no interval) is not shown: %s"
                  % (lbl, b, row))
check_levels("results.md", re.findall(r"Δ [^|\[\n]+ \[[\d.]+% (?:simultaneous )?CI\]", md))
status_md = {}
for r in rows:
    cells = [c.strip() for c in r.strip("|").split("|")]
    if len(cells) != len(cols):
        continue
    row = dict(zip(cols, cells))
    status_md[row["Status"]] = status_md.get(row["Status"], 0) + 1
    keep = next((c for c in KEEPS_UP if c in row), None)
    if keep and row["Status"] in ("failed", "no results", "incomparable"):
        check(row[keep] in ("—", ""), "results.md: '%s' is %s but %s says '%s'"
              % (row["Model"], row["Status"], keep, row[keep]))
want_status = {}
for m in models:  # the tables' word for a status: report.json's, "no results" for no_results
    word = "no results" if m["status"] == "no_results" else m["status"]
    want_status[word] = want_status.get(word, 0) + 1
check(status_md == want_status, "results.md overview statuses %s, report.json %s" % (status_md, want_status))


# report.html: the DOM's text
class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.section, self.texts = [], None, {}
        self.cells, self.row, self.in_overview_table, self.headers = [], None, False, []
        self.para = None
        self.sub = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "h2":
            self.para = "h2"
            self.h2 = ""
        if tag == "table" and a.get("id") == "overview":
            self.in_overview_table = True
        if self.in_overview_table and tag == "tr":
            self.row = []
        if self.in_overview_table and tag in ("td", "th"):
            self.row.append("")
            self.sub = False
        if self.in_overview_table and tag == "span" and "small" in (a.get("class") or ""):
            self.sub = True  # a heading's second line: not part of its title
        if tag == "p" and self.section in ("Overview", "Summary"):
            self.para = "p"
            self.texts.setdefault(self.section, []).append("")

    def handle_endtag(self, tag):
        if tag == "h2" and self.para == "h2":
            self.section = self.h2.strip()
            self.para = None
        if tag == "p" and self.para == "p":
            self.para = None
        if tag == "table" and self.in_overview_table:
            self.in_overview_table = False
        if tag == "span":
            self.sub = False
        if self.in_overview_table and tag == "tr" and self.row is not None:
            self.cells.append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.para == "h2":
            self.h2 += data
        elif self.para == "p":
            self.texts[self.section][-1] += data
        if self.in_overview_table and self.row and not self.sub:
            self.row[-1] += data


dom = Dom()
dom.feed(open(os.path.join(out, "report.html"), encoding="utf-8").read())
paras = [p for p in dom.texts.get("Overview", []) if p.strip()]
check(bool(paras), "report.html: no lead sentence under Overview")
check_lead("report.html", paras[0] if paras else "")
check_summary("report.html", " ".join(dom.texts.get("Summary", [])))
if dom.cells:
    hcols = [c.strip() for c in dom.cells[0]]
    check_levels("report.html", hcols)
    html_text = re.sub(r"<[^>]+>", " ", open(os.path.join(out, "report.html"), encoding="utf-8").read())
    check_levels("report.html", re.findall(r"Δ [^|\[\n<]+ \[[\d.]+% (?:simultaneous )?CI\]", html_text))
    check(hcols == cols, "report.html overview columns %s, results.md %s" % (hcols, cols))
    status_html = {}
    for r in dom.cells[1:]:
        row = dict(zip(hcols, [c.strip() for c in r]))
        status_html[row.get("Status")] = status_html.get(row.get("Status"), 0) + 1
        keep = next((c for c in KEEPS_UP if c in row), None)
        if keep and row.get("Status") in ("failed", "no results", "incomparable"):
            check(row[keep] in ("—", ""), "report.html: '%s' is %s but %s says '%s'"
                  % (row.get("Model"), row.get("Status"), keep, row[keep]))
    check(status_html == want_status, "report.html overview statuses %s, report.json %s"
          % (status_html, want_status))
else:
    check(False, "report.html: no overview table")

# report.pdf: pdftotext's text (the lead between the heading and the table's first column)
pdf = subprocess.run(["pdftotext", "-enc", "UTF-8", os.path.join(out, "report.pdf"), "-"], capture_output=True,
                     text=True).stdout
pdf = pdf.replace("\x0c", "\n")  # a new page's form feed starts a line
m = re.search(r"\nOverview\n(.*?)\nModel\n", pdf, re.S)
check(m is not None, "report.pdf: no Overview heading followed by its lead and table")
if m:
    check_lead("report.pdf", m.group(1))
m = re.search(r"\nSummary\n(.*?)(?:\n[A-Z][A-Za-z ]+\n|$)", pdf, re.S)
check_summary("report.pdf", m.group(1) if m else "")
pdf_flat = " ".join(pdf.split())
check_levels("report.pdf", re.findall(r"Δ [A-Za-z0-9_ ]+ \[[\d.]+% (?:simultaneous )?CI\]", pdf_flat))

# READY arms: served by run.log's word, so never failed
if ready_export:
    ready_tags = set()
    for root, _, files in os.walk(ready_export):
        if "run.log" not in files:
            continue
        serving = None
        for line in open(os.path.join(root, "run.log"), encoding="utf-8", errors="replace"):
            m = re.search(r"serving (\S+) as (\S+) \(", line)
            if m:
                serving = (m.group(1), m.group(2))
            m = re.search(r"READY (\S+) after", line)
            if m and serving and m.group(1) == serving[0]:
                ready_tags.add(serving[1])
    check(bool(ready_tags), "--ready: no READY arm in the run.log files of %s" % ready_export)
    for m in models:
        if m.get("tag") in ready_tags:
            check(m["status"] != "failed", "%s: run.log says it served, yet its status is failed" % m["tag"])
            f = facts(m)
            if not (m.get("accuracy") or m.get("speed")):  # served, nothing here: not compared, never a failure
                check(not f["compared"], "%s: no results, yet counted as compared" % m["tag"])

for p in problems:
    print("FAIL headline: " + p)
sys.exit(1 if problems else 0)
