# The no-baseline case's independent checks (run by its `check`): items.csv,
# then the charts drawn only without a baseline.
set -e
python3 tests/check_items.py "$1" tests/cases/report/no-baseline/export
python3 tests/cases/report/no-baseline/check_charts.py "$1"
