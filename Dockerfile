# syntax=docker/dockerfile:1
#
# Dynabench application image: API (`dynabench serve`), arq workers (`dynabench worker`),
# migrations (`dynabench migrate`) and the offline model build (`dynabench build-models`).
# Written from the python / node image docs; Docker cannot run in the dev sandbox, so this file
# has not been built there (see docs/deploy.md).
#
#   docker build -t dynabench:latest .

ARG PYTHON_IMAGE=python:3.11-slim-bookworm
ARG NODE_IMAGE=node:20-slim

# ---------------------------------------------------------------------------------------------
# Stage 1: the PWA (Preact + Vite). `npm ci` is avoided on purpose: a lock file written on
# another platform misses the platform-optional rollup packages (DESIGN.md §2).
# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS pwa
WORKDIR /src/pwa
COPY pwa/package.json pwa/package-lock.json* ./
RUN npm install --no-audit --no-fund
COPY pwa/ ./
RUN npm run build

# ---------------------------------------------------------------------------------------------
# Stage 2: a virtualenv with the project installed. torch is installed first from the CPU
# index: `pip install .` alone would resolve torch==2.13.0 from PyPI, whose Linux wheel pulls
# several GB of CUDA libraries. `2.13.0+cpu` satisfies the project's `torch==2.13.0` pin.
# ---------------------------------------------------------------------------------------------
FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/venv/bin:$PATH
RUN python -m venv /opt/venv
ARG TORCH_VERSION=2.13.0
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
RUN pip install "torch==${TORCH_VERSION}" --index-url "${TORCH_INDEX_URL}"
WORKDIR /src
# README.md* : pyproject names a readme; the wildcard keeps the build working while it is absent.
COPY pyproject.toml README.md* ./
COPY server ./server
COPY workers ./workers
# The Python client: `dynabench model upload`, `contexts add` and `train` talk to the API through it.
COPY sdk ./sdk
RUN pip install . ./sdk \
 && python -c "import torch, server.cli, dynabench_client; assert torch.__version__.endswith('+cpu'), torch.__version__"

# ---------------------------------------------------------------------------------------------
# Stage 3: runtime. Non-root; the venv and the PWA are read-only for the app user.
# ---------------------------------------------------------------------------------------------
FROM ${PYTHON_IMAGE} AS runtime
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PICCOLO_CONF=server.core.piccolo_conf \
    PWA_DIST=/app/pwa/dist \
    HF_HOME=/home/dynabench/.cache/huggingface \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1
# /models, /model_store and /backups are the mount points of the `target_models`, `model_store` and
# `backups` volumes: a new named volume copies this directory's content and ownership, so the non-root
# `build-models` run, the app (uploaded archives) and the backup service can write into them.
RUN groupadd --system --gid 10001 dynabench \
 && useradd --system --uid 10001 --gid dynabench --home-dir /home/dynabench --create-home \
            --shell /usr/sbin/nologin dynabench \
 && mkdir -p /models /model_store /backups \
 && chown dynabench:dynabench /models /model_store /backups
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
COPY --from=pwa /src/pwa/dist /app/pwa/dist
# Triton model templates (config.pbtxt + model.py) for `dynabench build-models`. They are not
# part of the Python packages; server/modelbuild/build.py looks for them next to the `server`
# package (TEMPLATE_ROOT = <server>/../triton_models), i.e. in site-packages once installed.
COPY triton_models /opt/venv/lib/python3.11/site-packages/triton_models
# Numeric so that "runs as non-root" can be checked without reading /etc/passwd.
USER 10001:10001
EXPOSE 8000

# /health answers 200 when PostgreSQL, Redis and both Tritons answer, 503 otherwise.
# python:slim has no curl: use the standard library (urlopen raises on a non-2xx status).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=4)"]

CMD ["dynabench", "serve", "--host", "0.0.0.0", "--port", "8000"]
