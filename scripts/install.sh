#!/usr/bin/env bash
# Install whichone into ./.venv, exactly as locked (requirements/lock.txt), on Linux or macOS.
#   bash scripts/install.sh              the app
#   bash scripts/install.sh --dev        the app + test tools + Debian's Chromium for the browser tests
#   bash scripts/install.sh --cpu-torch  torch and torchvision from the PyTorch CPU index (Linux without a
#                                        GPU: about 1 GB instead of the CUDA build's 5.5 GB)
# Options combine. Python 3.11 or newer (PYTHON=python3.12 picks one), checked first: an older one stops
# here with one line and how to get a newer one. Works with the bash macOS ships (3.2). Windows:
# docs/install-and-platforms.md (`py -m pip install` commands with the same lock).
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
cpu_torch=0
for arg in "$@"; do
  case "$arg" in
    --dev) dev=1 ;;
    --cpu-torch) cpu_torch=1 ;;
    *) echo "install.sh: unknown option $arg (use --dev, --cpu-torch)" >&2; exit 2 ;;
  esac
done
PY=${PYTHON:-python3}
# The interpreter first: with an older Python pip fails minutes later with a resolver conflict about torch.
version_of() { "$1" -c 'import platform; print(platform.python_version())' 2>/dev/null || echo "not found"; }
new_enough() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; }
if ! new_enough "$PY"; then
  echo "install.sh: whichone needs Python 3.11 or newer; $PY is $(version_of "$PY")." >&2
  echo "  macOS:   brew install python@3.12, then: PYTHON=python3.12 bash scripts/install.sh" >&2
  echo "  Linux:   sudo apt install python3.12 python3.12-venv (or your distribution's 3.11+), then: PYTHON=python3.12 bash scripts/install.sh" >&2
  echo "  Windows: winget install Python.Python.3.12 (or python.org), then the commands in docs/install-and-platforms.md" >&2
  exit 2
fi
if [ -x .venv/bin/python ] && ! new_enough .venv/bin/python; then
  echo "install.sh: .venv was made with Python $(version_of .venv/bin/python); remove it (rm -rf .venv) and run this again." >&2
  exit 2
fi
LOCK=requirements/lock.txt
locked() { grep -E "^$1==" "$LOCK" | head -n 1 | sed 's/ *;.*//'; }

[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
# torch and torchvision first, at the lock's versions: a bare `pip install torch` would pull whatever CUDA
# build is newest.
if [ "$cpu_torch" = 1 ]; then
  # The PyTorch CPU index (cannot be reached from the machines this project is built on: untested there).
  # Its +cpu builds satisfy the lock's pins (a local version label matches ==X.Y.Z).
  .venv/bin/python -m pip install --quiet --index-url https://download.pytorch.org/whl/cpu \
    "$(locked torch)" "$(locked torchvision)"
else
  .venv/bin/python -m pip install --quiet -c "$LOCK" "$(locked torch)" "$(locked torchvision)"
fi
extras=""
[ "$dev" = 1 ] && extras="dev"
if command -v nvidia-smi >/dev/null 2>&1; then
  extras="${extras:+$extras,}gpu"  # bitsandbytes for 4-bit NF4
fi
.venv/bin/python -m pip install --quiet -c "$LOCK" -e ".${extras:+[$extras]}"
if [ "$dev" = 1 ] && [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1; then
  # Debian's Chromium for the Playwright tests (never `playwright install`: it downloads a browser).
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
.venv/bin/python -c "import torch, torchvision, transformers, gradio; print('whichone installed:', 'torch', torch.__version__, 'transformers', transformers.__version__, 'gradio', gradio.__version__)"
