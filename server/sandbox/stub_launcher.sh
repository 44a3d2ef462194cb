#!/bin/sh
# Every python-backend stub (one per model instance: the uploaded model's own code) starts here, in a
# sandbox nested inside the submissions sandbox: its own user, network (none at all: it cannot reach
# Triton's HTTP port, let alone the host), PID namespace (it cannot see or signal Triton, the agent or
# other stubs, nor read their command lines) and mount view (everything read-only; other
# submissions' folders, shared-memory regions and the relay socket in /run absent; a private /tmp).
# Started by the agent's shim as: launcher SHIM MODEL_PY SHM_REGION SHM_DEFAULT SHM_GROWTH PARENT_PID
# LIB_DIR IPC INSTANCE RUNTIME_DIR. PARENT_PID becomes 1: the stub polls its parent's liveness and
# Triton's pid is not visible from here; pid 1 is bwrap's init.
# Its process limit is set inside its own user namespace (prlimit, after bwrap made it), where the
# kernel counts only its own processes; set before, it would count every process of the sandbox's user.
# No exec (and the exit status reported below): bwrap's --die-with-parent is bound to the *thread* that forked it, and Triton forks stubs
# from short-lived threads. This shell is the parent instead; when Triton kills it (unload, crash of
# the model) bwrap, its init and the stub die with it.
set -eu
shift  # the shim's own path
model_py=$1 region=$2 shm_default=$3 shm_growth=$4 lib_dir=$6 ipc=$7 instance=$8 runtime_dir=$9
model_dir=$(dirname "$(dirname "$model_py")")
# The private /tmp hides everything under the sandbox's /tmp; the Python installation and the venv
# may live there (a CI checkout in /tmp): bind them again, read-only, on top.
set --
old_ifs=$IFS IFS=:
for root in ${DYNABENCH_SANDBOX_ROOTS:-}; do set -- "$@" --ro-bind "$root" "$root"; done
IFS=$old_ifs
ulimit -t "${DYNABENCH_STUB_CPU_SECONDS:-unlimited}"
status=0
"$DYNABENCH_BWRAP" --unshare-user --unshare-net --unshare-pid --unshare-uts --die-with-parent --new-session \
  --ro-bind / / --dev /dev --perms 1777 --tmpfs /dev/shm --bind "/dev/shm/$region" "/dev/shm/$region" \
  --perms 1777 --tmpfs /tmp "$@" --tmpfs /run --ro-bind "$model_dir" "$model_dir" \
  --tmpfs /proc --ro-bind /proc/cpuinfo /proc/cpuinfo --ro-bind /proc/meminfo /proc/meminfo --chdir /tmp \
  -- "$DYNABENCH_PRLIMIT" --nproc="${DYNABENCH_STUB_MAX_PROCESSES:-unlimited}" \
  /sandbox/python_backend/triton_python_backend_stub \
  "$model_py" "$region" "$shm_default" "$shm_growth" 1 "$lib_dir" "$ipc" "$instance" "$runtime_dir" || status=$?
# How the stub ended, for the agent (server/sandbox/agent/instances.py): a model whose code crashed or that the
# kernel killed is stopped and the host is told why. An unload kills this shell first, so a report always means
# the stub ended by itself.
[ "$status" -eq 0 ] || echo "$status" > "/tmp/dynabench-stub-exits/$instance" || true
exit "$status"
