#!/bin/sh
# report.sqlite and --db FILE (issue 42), as a user meets them (make cli):
# - report.sqlite is byte-identical run to run, and for --threads 1;
# - the independent checker (tests/check_sqlite.py) fails on a doctored copy
#   (a figure changed, a row dropped): it can fail;
# - --db: the same export twice adds one sweep (the same row counts), a copy
#   of it elsewhere too (keyed by content, not path); another export adds
#   its own rows, each table then holding the two reports' rows;
# - two writers at once (different exports, then the same one): both exit
#   0, the file holds what two runs one after the other would (one sweep for
#   the same export), integrity_check ok;
# - refused and left byte for byte as it was (no journal left beside it):
#   a file that is not SQLite (exit 3), a damaged database (exit 1 or 3),
#   another program's database (exit 3), one of a newer schema version
#   (exit 3, the version named), one locked past --db-wait (exit 1), a
#   symbolic link (exit 1, its target untouched), a read-only file (exit 1;
#   run as an unprivileged user, skipped when that cannot be done).
#   sh tests/run-db.sh path/to/sweep-report
set -u
bin=${1:?usage: run-db.sh path/to/sweep-report}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL db: $1"; fail=$((fail + 1)); }
has() { grep -qF -- "$2" "$1"; }
PY=python3
A="$root/fixtures/v5e-gemma4-formats"
B="$root/fixtures/v5e-gemma4-rerun"
R="--resamples 1000 --outputs json,csv,sqlite"
sr() { (cd "$root" && "$bin" report "$@" $R) >"$tmp/out" 2>"$tmp/err" </dev/null; got=$?; }
# counts DB: "table rows" for every table, sorted
counts() { $PY - "$1" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for (t,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"):
    print(t, db.execute('SELECT count(*) FROM "%s"' % t).fetchone()[0])
EOF
}
# sum_counts DB1 DB2: the tables of two report.sqlite files, rows added up
sum_counts() { $PY - "$1" "$2" <<'EOF'
import sqlite3, sys
total = {}
for f in sys.argv[1:]:
    db = sqlite3.connect(f)
    for (t,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'"):
        total[t] = total.get(t, 0) + db.execute('SELECT count(*) FROM "%s"' % t).fetchone()[0]
total["sweeps"] = len(sys.argv) - 1
for t in sorted(total):
    print(t, total[t])
EOF
}
sql() { $PY -c 'import sqlite3, sys; print("\n".join("|".join(map(str, r)) for r in sqlite3.connect(sys.argv[1], isolation_level=None).execute(sys.argv[2])))' "$@"; }

# ---- report.sqlite itself -------------------------------------------------------------
sr "$A" -o "$tmp/a1" && sr "$A" -o "$tmp/a2" --threads 1 && sr "$B" -o "$tmp/b1"
if cmp -s "$tmp/a1/report.sqlite" "$tmp/a2/report.sqlite"; then ok; else bad "report.sqlite differs run to run"; fi
if $PY "$root/tests/check_sqlite.py" "$tmp/a1" "$A" >"$tmp/check" 2>&1; then ok; else bad "check_sqlite: $(head -3 "$tmp/check")"; fi
# the checker fails on a copy with one figure changed, and on one with a row gone
for doctor in "UPDATE accuracy SET delta = delta + 1e-6 WHERE delta IS NOT NULL AND rowid = (SELECT min(rowid) FROM accuracy WHERE delta IS NOT NULL)" \
    "DELETE FROM items WHERE rowid = 7" "UPDATE requests SET e2el_s = e2el_s * 1.0001 WHERE rowid = 3" \
    "UPDATE figures SET value = value * 2 WHERE rowid = 5"; do
    rm -rf "$tmp/doc" && cp -r "$tmp/a1" "$tmp/doc"
    sql "$tmp/doc/report.sqlite" "$doctor" >/dev/null
    rm -f "$tmp/doc/figures.csv"
    if $PY "$root/tests/check_sqlite.py" "$tmp/doc" "$A" >/dev/null 2>&1; then bad "check_sqlite passes a copy doctored by: $doctor"; else ok; fi
done

# ---- --db: idempotent, keyed by content ----------------------------------------------------
db="$tmp/team.db"
sr "$A" -o "$tmp/o" --db "$db"
[ "$got" = 0 ] && has "$tmp/err" "added to" && has "$tmp/err" "the file is new" && ok || bad "first --db: exit $got: $(tail -2 "$tmp/err")"
counts "$db" >"$tmp/c1"
sr "$A" -o "$tmp/o" --db "$db"
[ "$got" = 0 ] && has "$tmp/err" "has this sweep already" && ok || bad "second --db: exit $got: $(tail -2 "$tmp/err")"
counts "$db" >"$tmp/c2"
if cmp -s "$tmp/c1" "$tmp/c2"; then ok; else bad "the same export twice changed the row counts: $(diff "$tmp/c1" "$tmp/c2" | head -4)"; fi
cp -r "$A" "$tmp/copy-of-a"
sr "$tmp/copy-of-a" -o "$tmp/o" --db "$db"
[ "$got" = 0 ] && has "$tmp/err" "has this sweep already" && ok || bad "a copy of the export was added again: $(tail -1 "$tmp/err")"
sr "$B" -o "$tmp/o" --db "$db"
[ "$got" = 0 ] && has "$tmp/err" "added to" && ok || bad "another export: exit $got"
counts "$db" >"$tmp/c3"
sum_counts "$tmp/a1/report.sqlite" "$tmp/b1/report.sqlite" >"$tmp/want"
if cmp -s "$tmp/c3" "$tmp/want"; then ok; else bad "two sweeps' rows are not the two reports': $(diff "$tmp/want" "$tmp/c3" | head -6)"; fi
# a cross-sweep query of docs/report-format.md: one model's GSM8K in each sweep
n=$(sql "$db" "SELECT count(*) FROM accuracy a JOIN entries e ON e.sweep = a.sweep AND e.entry = a.entry
    WHERE e.id = 'Qwen/Qwen3-4B' AND a.benchmark = 'gsm8k'")
[ "$n" = 2 ] && ok || bad "Qwen3-4B's GSM8K in $n sweeps, expected 2"
v=$(sql "$db" "SELECT user_version FROM pragma_user_version")
[ "$v" = "$(sql "$tmp/a1/report.sqlite" "SELECT user_version FROM pragma_user_version")" ] && ok || bad "user_version $v"

# ---- two writers at once -------------------------------------------------------------------
for pair in "$A $B" "$A $A"; do
    set -- $pair
    rm -f "$tmp/conc.db"
    (cd "$root" && "$bin" report "$1" -o "$tmp/c-1" $R --db "$tmp/conc.db" >"$tmp/e1" 2>&1; echo $? >"$tmp/r1") &
    (cd "$root" && "$bin" report "$2" -o "$tmp/c-2" $R --db "$tmp/conc.db" >"$tmp/e2" 2>&1; echo $? >"$tmp/r2") &
    wait
    [ "$(cat "$tmp/r1") $(cat "$tmp/r2")" = "0 0" ] && ok || bad "two writers ($pair): exits $(cat "$tmp/r1") $(cat "$tmp/r2"): $(tail -1 "$tmp/e1") $(tail -1 "$tmp/e2")"
    [ "$(sql "$tmp/conc.db" "PRAGMA integrity_check")" = ok ] && ok || bad "two writers: integrity_check fails"
    counts "$tmp/conc.db" >"$tmp/cc"
    if [ "$1" = "$2" ]; then counts "$tmp/c-1/report.sqlite" | sed 's/^/x /' >/dev/null; want=1; else want=2; fi
    s=$(sql "$tmp/conc.db" "SELECT count(*) FROM sweeps")
    [ "$s" = "$want" ] && ok || bad "two writers ($pair): $s sweeps, expected $want"
    if [ "$want" = 2 ] && ! cmp -s "$tmp/cc" "$tmp/want"; then bad "two writers: rows $(diff "$tmp/want" "$tmp/cc" | head -4)"; else ok; fi
done

# ---- refused, untouched -----------------------------------------------------------------------
# refused FILE WANT_EXIT FRAGMENT: the run fails so, FILE is as it was, no journal beside it
refused() {
    cp "$1" "$tmp/before" 2>/dev/null
    sr "$A" -o "$tmp/o" --db "$1" --db-wait 1
    case " $2 " in *" $got "*) ;; *) bad "$(basename "$1"): exit $got, expected $2: $(tail -1 "$tmp/err")"; return; esac
    has "$tmp/err" "$3" || { bad "$(basename "$1"): stderr lacks '$3': $(tail -1 "$tmp/err")"; return; }
    cmp -s "$1" "$tmp/before" || { bad "$(basename "$1") was changed"; return; }
    [ ! -e "$1-journal" ] && [ ! -e "$1-wal" ] || { bad "$(basename "$1"): a journal was left beside it"; return; }
    ok
}
printf 'not a database at all, but long enough to look like a header of one......................................\n' >"$tmp/text.db"
refused "$tmp/text.db" 3 "not an SQLite database"
head -c 1024 "$db" >"$tmp/cut.db" # the header of a sweep-report database, its pages gone
refused "$tmp/cut.db" "1 3" "$tmp/cut.db"
cp "$db" "$tmp/damaged.db"
$PY - "$tmp/damaged.db" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
page = db.execute("PRAGMA page_size").fetchone()[0]
roots = [r for (r,) in db.execute("SELECT rootpage FROM sqlite_schema WHERE tbl_name = 'sweeps'")]
db.close()
with open(sys.argv[1], "r+b") as f:  # the sweeps table's pages (and its index's) overwritten
    for root in roots:
        f.seek((root - 1) * page)
        f.write(b"\xff" * page)
EOF
refused "$tmp/damaged.db" "1 3" "damaged.db"
$PY -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE notes (t TEXT)"); c.execute("INSERT INTO notes VALUES (1)"); c.commit()' "$tmp/other.db"
refused "$tmp/other.db" 3 "another program's SQLite database"
cp "$db" "$tmp/newer.db" && sql "$tmp/newer.db" "PRAGMA user_version = 99" >/dev/null
refused "$tmp/newer.db" 3 "schema version is 99"
cp "$db" "$tmp/locked.db"
$PY - "$tmp/locked.db" "$tmp/locked.ready" <<'EOF' &
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
time.sleep(6)
c.execute("ROLLBACK")
EOF
holder=$!
i=0; while [ ! -e "$tmp/locked.ready" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
refused "$tmp/locked.db" 1 "locked by another"
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
ln -s "$db" "$tmp/link.db"
cp "$db" "$tmp/db.before"
sr "$A" -o "$tmp/o" --db "$tmp/link.db"
[ "$got" = 1 ] && has "$tmp/err" "symbolic link" && cmp -s "$db" "$tmp/db.before" && ok || bad "a link as --db: exit $got: $(tail -1 "$tmp/err")"
# read-only: as an unprivileged user (root writes any file)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
    mkdir "$tmp/ro" && chmod 777 "$tmp/ro" && cp "$db" "$tmp/ro/ro.db" && chmod 444 "$tmp/ro/ro.db"
    cp "$tmp/ro/ro.db" "$tmp/before"
    (cd "$root" && setpriv --reuid=nobody --regid=nogroup --clear-groups "$bin" report "$A" -o "$tmp/ro/out" $R \
        --db "$tmp/ro/ro.db") >/dev/null 2>"$tmp/err" </dev/null
    got=$?
    if [ "$got" = 1 ] && has "$tmp/err" "read-only" && cmp -s "$tmp/ro/ro.db" "$tmp/before"; then ok
    elif has "$tmp/err" "ermission denied" && [ ! -d "$tmp/ro/out" ]; then skip=$((skip + 1)) # nobody cannot read the checkout
    else bad "a read-only --db: exit $got: $(tail -1 "$tmp/err")"; fi
elif [ "$(id -u)" != 0 ]; then
    cp "$db" "$tmp/ro.db" && chmod 444 "$tmp/ro.db"
    refused "$tmp/ro.db" 1 "read-only"
else
    skip=$((skip + 1))
fi

echo "db: $pass passed, $fail failed${skip:+, $skip skipped}" | sed 's/, 0 skipped//'
[ "$fail" = 0 ]
