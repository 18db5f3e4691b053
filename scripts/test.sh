#!/usr/bin/env bash
# The test command: install what is needed, make sure PostgreSQL is up, then lint,
# type-check and run the whole test suite (browser, OCR and database tests included).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/wait-for-postgres.sh
scripts/wait-for-redis.sh
.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/pytest "$@"
