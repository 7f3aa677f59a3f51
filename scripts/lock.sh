#!/usr/bin/env bash
# The lock: every dependency of whichone (and its extras) pinned, one file for Linux, macOS and Windows.
#   bash scripts/lock.sh           refresh requirements/lock.txt (newest releases that fit pyproject.toml)
#   bash scripts/lock.sh --check   resolve the lock for Linux x86_64, macOS 14 arm64 and Windows x86_64,
#                                  wheels only (but PURE_PYTHON_SDISTS), without installing: every platform gets exactly the lock's pins
# Needs uv (the dev install has it; else `pip install uv`). Works with the bash macOS ships (3.2).
# torch and torchvision are held at the pair this project runs (TORCH_PAIR): move them on purpose.
set -euo pipefail
cd "$(dirname "$0")/.."

LOCK=requirements/lock.txt
PYTHON_VERSION=3.11
TORCH_PAIR="torch==2.14.1 torchvision==0.29.1"
PLATFORMS="x86_64-unknown-linux-gnu aarch64-apple-darwin x86_64-pc-windows-msvc"
# Published as a source archive only; each is pure Python (no compiler needed on any platform), so the
# check lets these build from source and insists on wheels for everything else.
PURE_PYTHON_SDISTS="breame"
# torch 2.14.1's macOS wheels are built for macOS 14 (Sonoma) and newer.
export MACOSX_DEPLOYMENT_TARGET=14.0

UV=${UV:-}
if [ -z "$UV" ]; then
  if [ -x .venv/bin/uv ]; then UV=.venv/bin/uv; else UV=$(command -v uv || true); fi
fi
if [ -z "$UV" ]; then
  echo "lock.sh needs uv: pip install uv (or bash scripts/install.sh --dev)" >&2
  exit 2
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf '%s\n' $TORCH_PAIR >"$scratch/torch-pair.txt"

if [ "${1:-}" != "--check" ]; then
  "$UV" pip compile pyproject.toml --all-extras --universal --python-version "$PYTHON_VERSION" \
    -c "$scratch/torch-pair.txt" --no-header --quiet -o "$LOCK"
  {
    echo "# whichone's lock: every dependency pinned, for Linux, macOS (14+, arm64) and Windows (x86_64)."
    echo "# Made by scripts/lock.sh from pyproject.toml (uv pip compile --universal); do not edit by hand."
    echo "# Installed by scripts/install.sh as a constraints file (pip install -c $LOCK ...)."
    cat "$LOCK"
  } >"$scratch/lock" && mv "$scratch/lock" "$LOCK"
  echo "wrote $LOCK: $(grep -c '==' "$LOCK") pins"
  echo "next: bash scripts/lock.sh --check, then the test suite, then commit the lock"
  exit 0
fi

status=0
pins() { grep -E '^[A-Za-z0-9]' "$1" | sed 's/ *;.*//' | tr 'A-Z_' 'a-z-' | sort -u; }
pins "$LOCK" >"$scratch/locked"
for platform in $PLATFORMS; do
  out="$scratch/$platform.txt"
  if ! "$UV" pip compile pyproject.toml --all-extras --python-version "$PYTHON_VERSION" \
    --python-platform "$platform" --only-binary :all: $(printf -- '--no-binary %s ' $PURE_PYTHON_SDISTS) -c "$LOCK" --no-header --quiet -o "$out" \
    2>"$scratch/err"; then
    echo "$platform: does NOT resolve to wheels:"
    sed 's/^/  /' "$scratch/err"
    status=1
    continue
  fi
  extra=$(pins "$out" | comm -23 - "$scratch/locked")
  if [ -n "$extra" ]; then
    echo "$platform: resolves to versions the lock does not name: $extra"
    status=1
  else
    echo "$platform: $(pins "$out" | wc -l | tr -d ' ') packages, all wheels but $PURE_PYTHON_SDISTS (pure Python), all as locked" \
      "(torch $(grep -E '^torch==' "$out" | cut -d= -f3))"
  fi
done
exit $status
