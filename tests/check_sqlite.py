#!/usr/bin/env python3
"""Independent check of report.sqlite and figures.csv against report.json.

Usage: python3 tests/check_sqlite.py OUT_DIR [EXPORT_DIR]

Opens OUT_DIR/report.sqlite with Python's sqlite3 module (not the tool's
code) and holds every table to report.json, member by member, by its own
reading of the documented layout (docs/report-format.md, "report.sqlite"):
a column is the member's key, nested keys joined by '_' (settings.* and
the few renamed ones below), and any member no column holds must be in the
row's `extra` JSON; nothing else may be filled. Then:
- items: per entry and benchmark as many rows as report.json's n (or the
  excerpt's rows), summing to `correct`; paired with the baseline's rows by
  item id they give each comparison's flipped_better / flipped_worse;
- requests: with EXPORT_DIR, each request recomputed from the bench result
  files speed.<scenario>.sources names (TTFT, E2EL = TTFT + sum of ITLs,
  TPOT, mean ITL, lengths, the error), and the pooled TTFT / TPOT / E2EL
  percentiles (numpy's linear rule, failed requests out) against
  report.json's latency where its source is "requests";
- figures: every row is the number at its path in report.json, and
  figures.csv (when written) holds the same rows;
- the views: overview against report.json's overview, results' rows.
Exit 1 with the differences listed.
"""
import csv
import json
import math
import os
import sqlite3
import sys

out = sys.argv[1]
export = sys.argv[2] if len(sys.argv) > 2 else None
report = json.load(open(os.path.join(out, "report.json"), encoding="utf-8"))
db = sqlite3.connect("file:%s?mode=ro" % os.path.join(out, "report.sqlite"), uri=True)
db.row_factory = sqlite3.Row
problems = []


def problem(msg):
    if len(problems) < 60:
        problems.append(msg)


def csv_decimal_of(text, got, want):
    """A CSV cell against the double it prints (docs/report-format.md,
    results.csv): the very same double, or a decimal of at most 10
    significant digits within 4,096 units in its last place (a result of
    decimal arithmetic written as the decimal it stands for)."""
    if got is None or want is None:
        return got is None and want is None
    if got == want:
        return True
    digits = len(text.lstrip("-").split("e")[0].replace(".", "").lstrip("0"))
    return digits <= 10 and abs(got - want) <= 4096 * math.ulp(want)


def same_number(a, b):
    """report.sqlite holds each number exactly as computed; report.json is
    printed by cJSON, whose "%1.15g" stands for the number when it reads
    back within DBL_EPSILON of it (relative): equal, or that close."""
    return a == b or abs(a - b) <= max(abs(a), abs(b)) * sys.float_info.epsilon


def equal(a, b):
    """A value from SQLite against one from report.json."""
    if isinstance(b, bool):
        return a == (1 if b else 0)
    if isinstance(b, (list, dict)):
        return isinstance(a, str) and same_json(json.loads(a), b)
    if isinstance(b, (int, float)) and isinstance(a, (int, float)) and not isinstance(a, bool):
        return same_number(float(a), float(b))
    return a == b


def same_json(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return same_number(float(a), float(b))
    return a == b


def flatten(obj, prefix=""):
    """Leaves of a JSON object, nested objects' keys joined by '.'."""
    for k, v in obj.items():
        key = prefix + k
        if isinstance(v, dict) and v:
            yield from flatten(v, key + ".")
        else:
            yield key, v


def table(name):
    cur = db.execute('SELECT * FROM "%s" ORDER BY rowid' % name)
    cols = [d[0] for d in cur.description]
    return cols, [dict(zip(cols, r)) for r in cur.fetchall()]


def check_row(what, row, cols, obj, column_of, keys=()):
    """Every member of obj in its column (a nested object's members in
    theirs, unless a column holds the object whole as JSON) or in extra;
    every other column empty."""
    extra = json.loads(row["extra"]) if row.get("extra") else {}
    used = set(keys) | {"extra"}

    def walk(o, prefix):
        for k, want in o.items():
            key = prefix + k
            col = column_of(key)
            if col in cols:
                used.add(col)
                if isinstance(want, dict) and not want:
                    want = None if row[col] is None else want
                if not equal(row[col], want) and not (want is None and row[col] is None):
                    problem("%s: %s = %r, report.json %s = %r" % (what, col, row[col], key, want))
            elif isinstance(want, dict) and want:
                walk(want, key + ".")
            elif key in extra:
                if not same_json(extra[key], want):
                    problem("%s: extra %s = %r, report.json %r" % (what, key, extra[key], want))
            elif want is not None:
                problem("%s: report.json's %s (%r) is in no column and not in extra" % (what, key, want))

    walk(obj, "")
    for col in cols:
        if col not in used and row[col] is not None:
            problem("%s: column %s = %r has nothing in report.json" % (what, col, row[col]))


def plain(key):
    return key.replace(".", "_")


def pairs(key, renames):
    """A key's column: renamed, [lo, hi] lists split, else its parts joined."""
    return renames.get(key, plain(key))


# ---- the file itself ---------------------------------------------------------------
version = db.execute("PRAGMA user_version").fetchone()[0]
app = db.execute("PRAGMA application_id").fetchone()[0]
if version < 1:
    problem("user_version %d" % version)
if app != 0x53575250:
    problem("application_id %#x, expected 0x53575250" % app)
if db.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
    problem("integrity_check fails")
names = {r[0] for r in db.execute("SELECT name FROM sqlite_schema")}
for want in ("entries", "accuracy", "items", "speed", "requests", "kv", "claims", "inputs", "warnings", "settings",
             "figures", "overview", "results"):
    if want not in names:
        problem("no %s in report.sqlite" % want)

models = report["models"]
overview = report["overview"]

# ---- entries ------------------------------------------------------------------------
cols, rows = table("entries")
if len(rows) != len(models):
    problem("entries: %d rows, report.json has %d models" % (len(rows), len(models)))
entry_renames = {"failure.stage": "failure_stage", "failure.message": "failure_message",
                 "failure.source": "failure_source", "settings.sources": "settings_sources"}


def entry_column(key):
    if key in entry_renames:
        return entry_renames[key]
    return key[len("settings."):] if key.startswith("settings.") else plain(key)


for i, (row, m) in enumerate(zip(rows, models)):
    if row["entry"] != i:
        problem("entries: row %d has entry %r" % (i, row["entry"]))
    obj = {k: v for k, v in m.items() if k not in ("accuracy", "speed", "kv_cache")}
    check_row("entries %d" % i, row, cols, obj, entry_column, keys=("entry", "keeps_up"))
    if overview[i]["id"] != m["id"]:
        problem("overview and models out of step at %d" % i)
    keeps = overview[i]["keeps_up"]
    if not equal(row["keeps_up"], keeps) and not (keeps is None and row["keeps_up"] is None):
        problem("entries %d: keeps_up %r, overview %r" % (i, row["keeps_up"], keeps))

# ---- accuracy -----------------------------------------------------------------------
acc_renames = {"bfcl_versions.model": "bfcl_version", "bfcl_versions.baseline": "baseline_bfcl_version"}
cols, rows = table("accuracy")
want_rows = [(i, b, obj) for i, m in enumerate(models) for b, obj in m["accuracy"].items()]
if len(rows) != len(want_rows):
    problem("accuracy: %d rows, report.json has %d" % (len(rows), len(want_rows)))
for row, (i, b, obj) in zip(rows, want_rows):
    if (row["entry"], row["benchmark"]) != (i, b):
        problem("accuracy: row (%r, %r), expected (%d, %r)" % (row["entry"], row["benchmark"], i, b))
        continue
    check_row("accuracy %d %s" % (i, b), row, cols, obj, lambda k: pairs(k, acc_renames), ("entry", "benchmark"))

# ---- items --------------------------------------------------------------------------
items = {}
for r in db.execute("SELECT entry, benchmark, item, score, line FROM items ORDER BY rowid"):
    items.setdefault((r[0], r[1]), []).append((r[2], r[3]))
for (i, b) in items:
    if i >= len(models) or b not in models[i]["accuracy"]:
        problem("items of entry %r %r: no such accuracy in report.json" % (i, b))
base = next((i for i, m in enumerate(models) if m.get("is_baseline")), None)
for i, m in enumerate(models):
    for b, a in m["accuracy"].items():
        got = items.get((i, b), [])
        if a.get("excerpt"):
            want_n = a["excerpt"]["rows"]
        elif a.get("recomputed") is False:
            want_n = 0
        else:
            want_n = a["n"]
        if len(got) != want_n:
            problem("items %d %s: %d rows, report.json says %r" % (i, b, len(got), want_n))
            continue
        if want_n and a.get("correct") is not None and not a.get("excerpt"):
            s = math.fsum(x for _, x in got)
            if abs(s - a["correct"]) > 1e-9 * max(1, abs(a["correct"])):
                problem("items %d %s: scores sum to %r, correct is %r" % (i, b, s, a["correct"]))
        if base is not None and i != base and a.get("flipped_better") is not None and (base, b) in items:
            mine = dict(got)
            theirs = dict(items[(base, b)])
            better = sum(1 for k, x in mine.items() if k in theirs and x > theirs[k])
            worse = sum(1 for k, x in mine.items() if k in theirs and x < theirs[k])
            if (better, worse) != (a["flipped_better"], a["flipped_worse"]):
                problem("items %d %s: paired with the baseline's %d better / %d worse, report.json %d / %d"
                        % (i, b, better, worse, a["flipped_better"], a["flipped_worse"]))

# ---- speed --------------------------------------------------------------------------
def speed_column(key):
    parts = key.split(".")
    if parts[0] == "latency" and len(parts) == 3:
        metric = parts[1][:-3]  # ttft_ms -> ttft
        return "%s_%s_ms" % (metric, parts[2]) if parts[2].startswith("p") else "%s_%s" % (metric, parts[2])
    if parts[0] == "latency" and len(parts) == 2:  # a metric that is null
        return None
    if parts[0] == "latency_ratio" and len(parts) == 3:
        return parts[1] + "_ratio" + ("" if parts[2] == "ratio" else "_" + parts[2])
    return plain(key)


cols, rows = table("speed")
want_rows = [(i, k, obj) for i, m in enumerate(models) for k, obj in m["speed"].items()]
if len(rows) != len(want_rows):
    problem("speed: %d rows, report.json has %d" % (len(rows), len(want_rows)))
for row, (i, k, obj) in zip(rows, want_rows):
    if (row["entry"], row["scenario"]) != (i, k):
        problem("speed: row (%r, %r), expected (%d, %r)" % (row["entry"], row["scenario"], i, k))
        continue
    flat = {kk: v for kk, v in obj.items() if not (kk in ("latency", "latency_ratio") and v is None)}
    if isinstance(flat.get("latency"), dict):
        flat["latency"] = {kk: v for kk, v in flat["latency"].items() if v is not None}
    if isinstance(flat.get("latency_ratio"), dict):
        flat["latency_ratio"] = {kk: v for kk, v in flat["latency_ratio"].items() if v is not None}
    for kk in ("latency", "latency_ratio"):
        if flat.get(kk) == {}:
            del flat[kk]
    check_row("speed %d %s" % (i, k), row, cols, flat, speed_column, ("entry", "scenario", "n_runs"))
    if row["n_runs"] != len(obj["runs"]):
        problem("speed %d %s: n_runs %r, runs %d" % (i, k, row["n_runs"], len(obj["runs"])))

# ---- kv ------------------------------------------------------------------------------
def kv_column(key):
    if key.startswith("layers."):
        return "layers_" + key[len("layers."):]
    if key.startswith("log."):
        return "log_" + key[len("log."):]
    return plain(key)


cols, rows = table("kv")
if len(rows) != len(models):
    problem("kv: %d rows, %d models" % (len(rows), len(models)))
for i, (row, m) in enumerate(zip(rows, models)):
    obj = dict(m["kv_cache"])
    ranges = {"recomputed_range": ("recomputed_low", "recomputed_high")}
    for k in ("implied_available_gib", "implied_utilization", "implied_resident_gib"):
        ranges[k] = (k + "_low", k + "_high")
    for k, (lo, hi) in ranges.items():
        v = obj.pop(k, None)
        if not equal(row[lo], v[0] if v else None) or not equal(row[hi], v[1] if v else None):
            problem("kv %d: %s/%s = %r/%r, report.json %s = %r" % (i, lo, hi, row[lo], row[hi], k, v))
    check_row("kv %d" % i, row, cols, obj, kv_column, ("entry",) + sum(ranges.values(), ()))

# ---- claims -------------------------------------------------------------------------
cols, rows = table("claims")
claims = report.get("claims", [])
if len(rows) != len(claims):
    problem("claims: %d rows, report.json has %d" % (len(rows), len(claims)))
for i, (row, c) in enumerate(zip(rows, claims)):
    obj = dict(c)
    mc = obj.pop("monte_carlo_test", None)
    if mc:
        pos = mc["position"]
        for col, want in (("mc_nominal_quantile", mc["nominal_quantile"]), ("mc_position_low", pos[0]),
                          ("mc_position_high", pos[1]), ("mc_standard_error", mc["standard_error"]),
                          ("mc_resamples", mc["resamples"])):
            if not equal(row[col], want):
                problem("claims %d: %s %r, report.json %r" % (i, col, row[col], want))
    mc_cols = ("mc_nominal_quantile", "mc_position_low", "mc_position_high", "mc_standard_error", "mc_resamples")
    check_row("claims %d" % i, row, cols, obj, plain, ("claim",) + (mc_cols if mc else ()))

# ---- inputs, warnings, settings -----------------------------------------------------------
cols, rows = table("inputs")
if len(rows) != len(report["inputs"]):
    problem("inputs: %d rows, report.json has %d" % (len(rows), len(report["inputs"])))
for i, (row, f) in enumerate(zip(rows, report["inputs"])):
    check_row("inputs %d" % i, row, cols, f, plain)
kinds = {}
for g in report["warning_groups"]:
    for k in g["members"]:
        kinds[k] = g["kind"]
rows = db.execute("SELECT warning, text, kind FROM warnings ORDER BY rowid").fetchall()
if [tuple(r) for r in rows] != [(i, w, kinds.get(i)) for i, w in enumerate(report["warnings"])]:
    problem("warnings differ from report.json's warnings and warning_groups")
settings = {(r[0], r[1]): r[2] for r in db.execute("SELECT section, key, value FROM settings")}
want_settings = {("report", "schema_version"): report["schema_version"], ("report", "baseline"): report["baseline"]}
for section in ("tool", "settings", "sweep", "headline", "claims_summary"):
    if section in report:
        for k, v in flatten(report[section]):
            want_settings[(section, k)] = v
for key, want in want_settings.items():
    if key not in settings:
        problem("settings: no %s.%s" % key)
    elif not equal(settings[key], want) and not (want is None and settings[key] is None):
        problem("settings %s.%s = %r, report.json %r" % (key[0], key[1], settings[key], want))

# ---- figures ------------------------------------------------------------------------
def at(obj, path):
    for p in path.split("."):
        if not isinstance(obj, dict) or p not in obj:
            return "absent"
        obj = obj[p]
    return obj


figures = db.execute("SELECT entry, section, name, figure, value, ci_low, ci_high, source FROM figures "
                     "ORDER BY rowid").fetchall()
numbers = 0
for f in figures:
    entry, section, name, figure, value, lo, hi, source = f
    obj = models[entry][section] if section == "kv_cache" else models[entry][section].get(name)
    if value is not None:
        if not equal(value, at(obj, figure)):
            problem("figures: %s %s %s = %r, report.json %r" % (section, name, figure, value, at(obj, figure)))
        numbers += 1
    stem, _, leaf = figure.rpartition(".")
    parent = at(obj, stem) if stem else obj
    if leaf in ("delta", "ratio") and isinstance(parent, dict) and "ci_low" in parent and \
            leaf + "_ci_low" not in parent:
        want_lo, want_hi = parent.get("ci_low"), parent.get("ci_high")
    elif leaf.endswith("_ci") and value is None:
        want_lo, want_hi = parent.get(leaf + "_low"), parent.get(leaf + "_high")
    elif leaf == "ci" and value is None:
        want_lo, want_hi = parent.get("ci_low"), parent.get("ci_high")
    else:
        want_lo, want_hi = parent.get(leaf + "_ci_low"), parent.get(leaf + "_ci_high")
    if not (equal(lo, want_lo) or lo is want_lo) or not (equal(hi, want_hi) or hi is want_hi):
        problem("figures: %s %s %s interval [%r, %r], report.json [%r, %r]" % (section, name, figure, lo, hi,
                                                                                want_lo, want_hi))
# every number of accuracy and speed is a row (its interval's bounds ride along)
want_numbers = 0
for m in models:
    for section in ("accuracy", "speed"):
        for obj in m[section].values():
            for k, v in flatten(obj):
                leaf = k.rpartition(".")[2]
                if isinstance(v, (int, float)) and not isinstance(v, bool) and not (
                        leaf.endswith("_ci_low") or leaf.endswith("_ci_high") or leaf in ("ci_low", "ci_high")):
                    want_numbers += 1
    for k, v in flatten(m["kv_cache"]):
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            want_numbers += 1
if numbers != want_numbers:
    problem("figures: %d rows with a value, report.json has %d numbers (beside interval bounds)" % (numbers,
                                                                                                    want_numbers))
path = os.path.join(out, "figures.csv")
if os.path.exists(path):
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    if rows[0] != ["entry", "section", "name", "figure", "value", "ci_low", "ci_high", "source"]:
        problem("figures.csv header %r" % rows[0])
    if len(rows) - 1 != len(figures):
        problem("figures.csv: %d rows, report.sqlite's figures %d" % (len(rows) - 1, len(figures)))
    for r, f in zip(rows[1:], figures):
        label = models[f[0]]["label"] or models[f[0]]["id"]
        nums = [None if x == "" else float(x) for x in r[4:7]]
        if r[0].lstrip("'") != label or r[1:4] != [f[1], f[2] or "", f[3]] or \
                not all(csv_decimal_of(c, n, d) for c, n, d in zip(r[4:7], nums, f[4:7])) or \
                (r[7].lstrip("'") or None) != f[7]:
            problem("figures.csv row %r differs from report.sqlite's %r" % (r, tuple(f)))
            break

# ---- views ----------------------------------------------------------------------------
for row, o in zip(db.execute("SELECT * FROM overview ORDER BY entry"), overview):
    row = dict(zip(row.keys(), row))
    if row["model"] != o["model"] or row["id"] != o["id"] or row["status"] != o["status"]:
        problem("overview %r: model/id/status differ from report.json's" % row["entry"])
    for b, v in o["benchmarks"].items():
        verdict = row.get(b + "_verdict")
        if v["verdict"] not in ("no result", "not compared") and verdict != v["verdict"]:
            problem("overview %r %s: verdict %r, report.json %r" % (row["entry"], b, verdict, v["verdict"]))
        for f in ("delta", "ci_low", "ci_high"):
            want = v[f + "_points"]
            got = row.get("%s_%s" % (b, f))
            if want is not None and (got is None or abs(got * 100 - want) > 1e-9 * max(1, abs(want))):
                problem("overview %r %s: %s %r, report.json %s_points %r" % (row["entry"], b, f, got, f, want))
    for f, key in (("speed_ratio_min", ("speed_ratio", "min")), ("speed_ratio_max", ("speed_ratio", "max")),
                   ("output_tok_s_min", ("output_throughput_tok_s", "min")),
                   ("output_tok_s_max", ("output_throughput_tok_s", "max"))):
        if not equal(row[f], o[key[0]][key[1]]) and not (row[f] is None and o[key[0]][key[1]] is None):
            problem("overview %r: %s %r, report.json %r" % (row["entry"], f, row[f], o[key[0]][key[1]]))
    if row["kv_cache_tokens"] != o["kv_cache_tokens"]:
        problem("overview %r: kv_cache_tokens %r, report.json %r" % (row["entry"], row["kv_cache_tokens"],
                                                                     o["kv_cache_tokens"]))
n_results = db.execute("SELECT count(*) FROM results").fetchone()[0]
if n_results != sum(len(m["accuracy"]) + len(m["speed"]) for m in models):
    problem("results: %d rows" % n_results)

# ---- requests, from the export's own files ---------------------------------------------------
def percentile(sorted_v, p):
    """numpy's default (linear) percentile of sorted values."""
    if not sorted_v:
        return None
    x = (len(sorted_v) - 1) * p / 100
    lo = int(math.floor(x))
    hi = min(lo + 1, len(sorted_v) - 1)
    return sorted_v[lo] + (sorted_v[hi] - sorted_v[lo]) * (x - lo)


def load_run(source):
    """The bench result a source names ("path", or "path:line" where an object
    of several starts); None for other sources (run.log lines, the author's
    speed passes, printed stdout)."""
    path, _, line = source.rpartition(":")
    if not path or not line.isdigit():
        path, line = source, None
    full = os.path.join(export, path)
    if not os.path.isfile(full):
        return None
    with open(full, encoding="utf-8", errors="replace") as fh:
        text = fh.read()
    at = 0
    if line is not None:
        for _ in range(int(line) - 1):
            at = text.find("\n", at) + 1
            if at == 0:
                return None
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    try:
        value, _ = json.JSONDecoder().raw_decode(text, at)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


req_rows = {}
for r in db.execute("SELECT * FROM requests ORDER BY rowid"):
    req_rows.setdefault((r["entry"], r["scenario"], r["run"]), []).append(dict(zip(r.keys(), r)))
checked_requests = 0
for i, m in enumerate(models):
    for k, sc in m["speed"].items():
        runs = [load_run(s) for s in sc["sources"]] if export else None
        ttft, tpot, e2el = [], [], []
        for r, source in enumerate(sc["sources"]):
            got = req_rows.pop((i, k, r), [])
            data = runs[r] if runs else None
            if data is None or "ttfts" not in data:
                if data is not None and got and sc.get("definition") in (None, "vllm"):
                    problem("requests %d %s run %d: rows for a file without per-request arrays" % (i, k, r))
                continue
            n = len(data["ttfts"])
            if len(got) != n:
                problem("requests %d %s run %d: %d rows, the file has %d requests" % (i, k, r, len(got), n))
                continue
            for q, row in enumerate(got):
                itls = data["itls"][q]
                t0 = data["ttfts"][q]
                s = 0.0
                for x in itls:
                    s += x
                e = t0 + s
                err = data["errors"][q] or None
                out_len = data["output_lens"][q]
                want = {"request": q, "ttft_s": t0, "e2el_s": e, "output_len": out_len,
                        "itl_mean_s": s / len(itls) if itls else None,
                        "tpot_s": (e - t0) / (out_len - 1) if not err and out_len > 1 else None,
                        "input_len": data["input_lens"][q] if "input_lens" in data else None,
                        "error": err[:200] if err and len(err.encode()) <= 200 else (row["error"] if err else None)}
                for col, w in want.items():
                    if not equal(row[col], w) and not (w is None and row[col] is None):
                        problem("requests %d %s run %d request %d: %s %r, the file gives %r" % (i, k, r, q, col,
                                                                                                 row[col], w))
                if not err:
                    ttft.append(t0)
                    e2el.append(e)
                    if out_len > 1:
                        tpot.append((e - t0) / (out_len - 1))
                checked_requests += 1
        lat = sc.get("latency") or {}
        for name, values in (("ttft_ms", ttft), ("tpot_ms", tpot), ("e2el_ms", e2el)):
            # recomputed only from vLLM's own per-request files (other tools'
            # records are held to their files by check_other_tools.py)
            if lat.get(name) and lat[name]["source"] == "requests" and runs and \
                    all(d is not None and "ttfts" in d for d in runs):
                values.sort()
                for p in ("p50", "p90", "p99"):
                    want = percentile(values, float(p[1:])) * 1000
                    if abs(lat[name][p] - want) > 1e-9 * abs(want):
                        problem("requests %d %s: %s %s from the rows' files %r, report.json %r" % (
                            i, k, name, p, want, lat[name][p]))
if req_rows:
    problem("requests: rows of runs report.json does not list: %r" % sorted(req_rows)[:3])

if problems:
    print("check_sqlite: %d problem(s):" % len(problems))
    for p in problems:
        print("  " + p)
    sys.exit(1)
print("check_sqlite: ok (%d entries, %d figures, %d items, %d requests checked against the files)" % (
    len(models), len(figures), sum(len(v) for v in items.values()), checked_requests))
