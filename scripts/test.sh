#!/usr/bin/env bash
# The README's second command: install everything, then run the whole test suite against real
# PostgreSQL, Redis and Triton started by the test fixtures on free loopback ports.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --test
# Tests read the real datasets in ../shared/data (never copied into the repo). A clone made elsewhere
# (e.g. in a temporary directory) finds them next to the checkout it was cloned from.
if [ -z "${DYNABENCH_SHARED_DATA:-}" ] && [ ! -d ../shared/data ]; then
  origin=$(git remote get-url origin 2>/dev/null || true)
  if [ -n "$origin" ] && [ -d "$origin/../shared/data" ]; then
    DYNABENCH_SHARED_DATA=$(cd "$origin/../shared/data" && pwd)
    export DYNABENCH_SHARED_DATA
  fi
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1  # browser tests use /usr/bin/chromium
exec .venv/bin/python -m pytest "$@"
