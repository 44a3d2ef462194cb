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

# Habits first (configured in pyproject.toml and pwa/): lint, format, types, the PWA's types and unit tests.
# Every check runs and reports; if any failed, the script fails before the (long) pytest run.
failed=()
check() {
  local name=$1; shift
  echo "==> $name"
  if ! "$@"; then failed+=("$name"); fi
}
check "ruff check" .venv/bin/ruff check --output-format concise .
check "ruff format --check" .venv/bin/ruff format --check --output-format concise .
check "mypy (strict on the domain cores)" .venv/bin/mypy
check "tsc --noEmit (pwa)" bash -c 'cd pwa && npx --no-install tsc --noEmit -p tsconfig.json && npx --no-install tsc --noEmit -p tsconfig.node.json'
check "vitest (pwa)" bash -c 'cd pwa && npx --no-install vitest run'
if (( ${#failed[@]} )); then
  echo "test.sh: failed: ${failed[*]}" >&2
  exit 1
fi

# Last, so that pytest's closing line is the last line of the output.
echo "==> pytest"
exec .venv/bin/python -m pytest "$@"
