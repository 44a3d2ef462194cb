#!/usr/bin/env bash
# Installs everything the project needs into ./.venv (idempotent; safe to re-run).
#   scripts/install.sh          the app: Python packages (+ the PWA build once pwa/ has one)
#   scripts/install.sh --test   also the test tools (and .venv-codegen, the SDK's client generator)
# The Python client (sdk/, `dynabench_client`) is installed editable beside the server.
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=0
[[ "${1:-}" == "--test" ]] && with_tests=1

python=${PYTHON:-}
if [[ -z "$python" ]]; then
  for candidate in python3.11 python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
      python=$candidate; break
    fi
  done
fi
[[ -n "$python" ]] || { echo "install: Python 3.11 is required (set PYTHON=/path/to/python3.11)" >&2; exit 1; }

# The PWA's packages and build go on beside the Python packages (both mostly wait on downloads); its output is shown
# once the Python packages are in.
pwa_pid=
if [[ -f pwa/package.json ]]; then
  command -v npm >/dev/null || { echo "install: npm is required to build the PWA" >&2; exit 1; }
  pwa_log=$(mktemp)
  (cd pwa && npm install --no-audit --no-fund --loglevel=error && npm run build --silent) >"$pwa_log" 2>&1 &
  pwa_pid=$!
  trap 'kill "$pwa_pid" 2>/dev/null || true; rm -f "$pwa_log"' EXIT
fi

[[ -x .venv/bin/python ]] || "$python" -m venv .venv
pip() { .venv/bin/python -m pip --disable-pip-version-check -q "$@"; }
echo "==> Python packages (first run takes a few minutes)"
pip install --upgrade pip
# torch pinned in the same resolution: an unpinned torch would pull a multi-GB CUDA build. Browser tests
# (tests/browser): pytest-playwright drives Debian's chromium; Playwright never downloads a browser.
if [[ $with_tests == 1 ]]; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 pip install "torch==2.13.0" -e ".[test]" -e "./sdk[pandas]" "pytest-playwright>=0.5"
else
  pip install "torch==2.13.0" -e . -e ./sdk
fi
if [[ $with_tests == 1 ]]; then
  # The generator of the SDK's typed client, in a venv of its own (tests/sdk/test_generated_client.py runs it).
  PYTHON="$python" bash scripts/install-codegen.sh
  if [[ ! -x /usr/bin/chromium ]]; then
    echo "==> chromium (apt-get) for the browser tests"
    as_root=(); [[ $(id -u) -eq 0 ]] || as_root=(sudo)
    "${as_root[@]}" apt-get update -qq
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium
  fi
fi
.venv/bin/python -c "import server, workers, torch, tritonclient, strawberry, litestar, piccolo, openai, cryptography, dynabench_client" \
  || { echo "install: the Python environment is incomplete" >&2; exit 1; }

if [[ -n $pwa_pid ]]; then
  echo "==> PWA (npm install && npm run build)"
  pwa_status=0
  wait "$pwa_pid" || pwa_status=$?
  cat "$pwa_log"
  (( pwa_status == 0 )) || { echo "install: the PWA's npm install or build failed (above)" >&2; exit 1; }
fi
echo "==> Installed. Run: .venv/bin/dynabench up"
