#!/usr/bin/env bash
# .venv-codegen: ariadne-codegen, which generates the SDK's typed client (scripts/sdk_codegen.py), in a virtualenv of its
# own: it pins graphql-core 3.2 and ruff 0.15, which the server's venv has newer. Idempotent and quick when present.
set -euo pipefail
cd "$(dirname "$0")/.."
version=0.19.0
if [[ -x .venv-codegen/bin/ariadne-codegen ]] \
  && .venv-codegen/bin/python -c "import importlib.metadata as m, sys; sys.exit(m.version('ariadne-codegen') != '$version')"; then
  exit 0
fi
python=${PYTHON:-$(command -v python3.11 || command -v python3)}
[[ -x .venv-codegen/bin/python ]] || "$python" -m venv .venv-codegen
.venv-codegen/bin/python -m pip --disable-pip-version-check -q install "ariadne-codegen==$version"
