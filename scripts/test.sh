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
# A run's stacks (databases, Tritons' model repositories, chromium profiles) take 3-4 GB under the temporary folder
# while it runs; a full disk shows up as every service failing at once, so say it first.
free_kb=$(df -Pk "${TMPDIR:-/tmp}" | awk 'NR == 2 { print $4 }')
if [ -n "$free_kb" ] && (( free_kb < 6 * 1024 * 1024 )); then
  echo "test.sh: warning: only $((free_kb / 1024)) MB free in ${TMPDIR:-/tmp}; the suite needs about 6 GB there" >&2
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1  # browser tests use /usr/bin/chromium
# torch's OpenMP threads sleep rather than spin while they wait for work: on 2 cores shared by the model build, two test
# stacks (each Triton's classifiers run torch) and the checks, spinning threads starve the ones with work (a training
# step measured 3.5-7x slower beside two busy processes; bench/omp_wait.py). It changes no result, only who waits how.
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-PASSIVE}"

# The target models the tests serve (tests/conftest.py build_test_models; cached in .dynabench-test-cache, a few minutes
# on a clean clone) are built in the background meanwhile: pytest's fixture waits on each model's file lock. Two
# builds side by side: the classifiers (torch on every core) and the generative demo (one thread, the longest alone).
mkdir -p .dynabench-test-cache
build_log=.dynabench-test-cache/build-models.log
.venv/bin/python -c "from tests.conftest import CLASSIFIER_TASKS, build_test_models; build_test_models(CLASSIFIER_TASKS)" \
  >"$build_log" 2>&1 &
build_pid=$!
.venv/bin/python -c "from tests.conftest import build_test_models; build_test_models(['chat_demo'])" \
  >"${build_log%.log}-generative.log" 2>&1 &
generative_build_pid=$!

# pytest starts at once, its output kept aside: its first file needs no model (hostile models that wait out timeouts)
# and the next ones wait for the build, so the checks below overlap with that start. The test files are spread over
# two processes (pytest-xdist; a file stays in one process, whose stack its module fixtures share), each with a stack
# of its own (tests/conftest.py): much of the suite waits on real services, so two keep both cores busy.
# PYTEST_WORKERS=0 runs everything in one process.
pytest_log=$(mktemp)
.venv/bin/python -u -m pytest -n "${PYTEST_WORKERS:-2}" --dist loadfile --no-loadscope-reorder "$@" >"$pytest_log" 2>&1 &
pytest_pid=$!

# Habits (configured in pyproject.toml and pwa/): lint, format, types, the PWA's types and unit tests, side by side,
# each output kept and shown in order; if any failed, pytest is interrupted and the script fails. They run at a lower
# priority (nice 10): the build beside them is what the model-needing test files wait for (a clean-clone run with the
# checks at the same priority as the build and pytest's start took 3 minutes longer).
outputs=$(mktemp -d)
names=() pids=()
check() {
  local name=$1; shift
  nice -n 10 "$@" >"$outputs/${#names[@]}" 2>&1 &
  names+=("$name") pids+=($!)
}
check "ruff check" .venv/bin/ruff check --output-format concise .
check "ruff format --check" .venv/bin/ruff format --check --output-format concise .
check "mypy (strict on the domain cores)" .venv/bin/mypy
check "tsc --noEmit (pwa)" bash -c 'cd pwa && npm run --silent typecheck'
check "vitest (pwa)" bash -c 'cd pwa && npx --no-install vitest run'
failed=()
for i in "${!names[@]}"; do
  status=0
  wait "${pids[$i]}" || status=$?
  echo "==> ${names[$i]}"
  cat "$outputs/$i"
  (( status == 0 )) || failed+=("${names[$i]}")
done
rm -rf "$outputs"
if (( ${#failed[@]} )); then
  kill -INT "$pytest_pid" 2>/dev/null || true  # pytest's own interrupt: its stacks stop
  wait "$pytest_pid" 2>/dev/null || true
  kill "$build_pid" "$generative_build_pid" 2>/dev/null || true
  rm -f "$pytest_log"
  echo "test.sh: failed: ${failed[*]}" >&2
  exit 1
fi

# Last, so that pytest's closing line is the last line of the output: what it wrote so far, then the rest as it comes.
echo "==> pytest"
tail -n +1 -f --pid="$pytest_pid" "$pytest_log"
status=0
wait "$pytest_pid" || status=$?
rm -f "$pytest_log"
exit "$status"
