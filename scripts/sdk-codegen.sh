#!/usr/bin/env bash
# Regenerates the SDK's typed client (sdk/dynabench_client/generated/) from schema.graphql and sdk/queries/*.graphql.
# ariadne-codegen lives in its own virtualenv, .venv-codegen (it pins graphql-core 3.2 and an older ruff than ours);
# this creates it on first use. Run after changing the schema or an operation file, and commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-codegen.sh
.venv/bin/python scripts/sdk_codegen.py
