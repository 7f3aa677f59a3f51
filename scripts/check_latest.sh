#!/usr/bin/env bash
# What the newest releases would break: install whichone with the newest version of every dependency that
# pyproject.toml allows (no lock) into a scratch virtualenv, run the fast tests there, and print which
# versions differ from the lock and what failed. Changes nothing in the project: an upgrade is a decision
# (bash scripts/lock.sh, the whole suite, a commit), not a surprise.
#   bash scripts/check_latest.sh            scratch venv in a temporary folder, removed afterwards
#   KEEP=/path bash scripts/check_latest.sh keep the virtualenv there
# torch and torchvision stay at the lock's pair (a newer CUDA build is several GB; move them on purpose).
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
LOCK=requirements/lock.txt
venv=${KEEP:-$(mktemp -d)/venv}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$(dirname "$venv")"' EXIT
locked() { grep -E "^$1==" "$LOCK" | head -n 1 | sed 's/ *;.*//'; }

"$PY" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "$(locked torch)" "$(locked torchvision)" || exit 2
"$venv/bin/python" -m pip install --quiet --upgrade --upgrade-strategy eager -e ".[dev]" || exit 2

echo "== newer than the lock =="
"$venv/bin/python" -m pip freeze 2>/dev/null | grep '==' | tr 'A-Z_' 'a-z-' | sort >"$venv/../latest.txt"
grep -E '^[A-Za-z0-9]' "$LOCK" | sed 's/ *;.*//' | tr 'A-Z_' 'a-z-' | sort -u >"$venv/../locked.txt"
# A package may be locked at several versions (one per Python version, by markers): any of them counts.
awk -F'==' 'NR == FNR { locked[$1] = locked[$1] " " $2; pins[$0] = 1; next }
  ($1 in locked) && !($0 in pins) { print "  " $1 ":" locked[$1] " -> " $2 }' \
  "$venv/../locked.txt" "$venv/../latest.txt" >"$venv/../newer.txt"
cat "$venv/../newer.txt"
changed=$(wc -l <"$venv/../newer.txt" | tr -d ' ')
[ "$changed" = 0 ] && echo "  nothing: the lock is the newest"

echo "== the fast tests on the newest releases (not browser, not slow) =="
# The scratch venv has this checkout installed editable: its tests and console scripts run this code.
"$venv/bin/python" -m pytest -q -m "not browser and not slow" -p no:cacheprovider -rf --no-header 2>&1 \
  | grep -E "^(FAILED|ERROR)|passed|failed" | tail -n 40
result=${PIPESTATUS[0]}
if [ "$result" = 0 ]; then
  echo "check_latest: the newest releases pass the fast tests ($changed packages newer than the lock)"
else
  echo "check_latest: the newest releases break the fast tests above; keep the lock until that is fixed"
fi
exit "$result"
