#!/usr/bin/env bash
# The README's second command: install everything, then run the whole test suite against real
# PostgreSQL, Redis and Triton started by the test fixtures on free loopback ports.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --test
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1  # browser tests use /usr/bin/chromium
exec .venv/bin/python -m pytest "$@"
