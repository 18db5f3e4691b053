#!/usr/bin/env bash
# The main job: install, verify every sample sheet, then serve the app on SQLite
# (the embedded default, in ./instance) at http://127.0.0.1:${PORT:-5000}/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo "== verifying the sample sheets in sample_pads/"
.venv/bin/scorepad verify --summary sample_pads/ || [ $? -eq 1 ]
if .venv/bin/scorepad serve --help >/dev/null 2>&1 && [ -z "${SCOREPAD_NO_SERVE:-}" ]; then
  echo "== serving on http://127.0.0.1:${PORT:-5000}/ (Ctrl-C to stop)"
  exec .venv/bin/scorepad serve --port "${PORT:-5000}"
fi
