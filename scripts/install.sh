#!/usr/bin/env bash
# Install whichone into ./.venv on a fresh machine (Python 3.10+; no GPU needed).
#   bash scripts/install.sh          the app
#   bash scripts/install.sh --dev    the app + test tools + Debian's Chromium for the browser tests
# torch and torchvision go first and pinned: the Qwen2.5-VL processor needs torchvision, and a bare
# `pip install torch` would pull whatever CUDA build is newest.
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
[[ "${1:-}" == "--dev" ]] && dev=1
PY=${PYTHON:-python3}
TORCH_PINS=${WHICHONE_TORCH_PINS:-"torch==2.14.1 torchvision==0.29.1"}

[[ -x .venv/bin/python ]] || "$PY" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
# shellcheck disable=SC2086
.venv/bin/python -m pip install --quiet $TORCH_PINS
if [[ $dev == 1 ]]; then
  .venv/bin/python -m pip install --quiet -e ".[dev]"
  if [[ ! -x /usr/bin/chromium ]] && command -v apt-get >/dev/null 2>&1; then
    # Debian's Chromium for the Playwright tests (never `playwright install`: it downloads a browser).
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
else
  .venv/bin/python -m pip install --quiet -e .
fi
if command -v nvidia-smi >/dev/null 2>&1; then
  .venv/bin/python -m pip install --quiet -e ".[gpu]"  # bitsandbytes for 4-bit NF4
fi
.venv/bin/python -c "import torch, torchvision, transformers, gradio; print('whichone installed:', 'torch', torch.__version__, 'transformers', transformers.__version__, 'gradio', gradio.__version__)"
