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
"$venv/bin/python" -m pip install --quiet --upgrade --upgrade-strategy eager ".[dev]" || exit 2

echo "== newer than the lock =="
"$venv/bin/python" -m pip freeze 2>/dev/null | grep '==' | tr 'A-Z_' 'a-z-' | sort >"$venv/../latest.txt"
grep -E '^[A-Za-z0-9]' "$LOCK" | sed 's/ *;.*//' | tr 'A-Z_' 'a-z-' | sort -u >"$venv/../locked.txt"
changed=0
while IFS='=' read -r name _ version; do
  was=$(grep -E "^$name==" "$venv/../locked.txt" | head -n 1 | cut -d= -f3)
  if [ -n "$was" ] && [ "$was" != "$version" ]; then
    echo "  $name $was -> $version"
    changed=$((changed + 1))
  fi
done <"$venv/../latest.txt"
[ "$changed" = 0 ] && echo "  nothing: the lock is the newest"

echo "== the fast tests on the newest releases (not browser, not slow) =="
# The tests import the project from this checkout; the scratch venv has it installed (not editable).
"$venv/bin/python" -m pytest -q -m "not browser and not slow" -p no:cacheprovider -x --no-header 2>&1 \
  | tail -n 25
result=${PIPESTATUS[0]}
if [ "$result" = 0 ]; then
  echo "check_latest: the newest releases pass the fast tests ($changed packages newer than the lock)"
else
  echo "check_latest: the newest releases break the fast tests above; keep the lock until that is fixed"
fi
exit "$result"
