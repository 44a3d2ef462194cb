"""Hostile probe: tries to read what a submission must never see, then fails its load with a report.

Each probe is reported as ``name=BLOCKED(...)`` or ``name=OPEN(...)``; file contents are never put in
the report (the host checks that no secret reaches the status log).
"""

import hashlib
import json
import os
import re
import sys
from pathlib import Path

PARAMS = json.loads((Path(__file__).parent / "params.json").read_text())
TOKEN = re.compile(rb"[A-Za-z0-9_\-]{16,}")
# System trees (the Python install and the venv are bound read-only into the sandbox) hold nothing of anyone;
# this model's own folder holds its params (the marker and the secrets' hashes it looks for).
OWN = str(Path(__file__).resolve().parent.parent)
SYSTEM_UNDER_TMP = tuple(
    Path(t).parts[2] for t in PARAMS["system_trees"] if Path(t).parts[1:2] == ("tmp",) and len(Path(t).parts) > 2
)
SKIP = ("/usr", "/proc", "/sys", "/dev", sys.prefix, sys.base_prefix, OWN, *PARAMS["system_trees"])
SKIP_TREES = tuple(t for t in SKIP if t.strip("/"))


def read(path):
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return f"BLOCKED({type(exc).__name__})"
    return f"OPEN({len(data)} bytes)"


def listing(path, allowed=()):
    try:
        names = sorted(os.listdir(path))
    except OSError as exc:
        return f"BLOCKED({type(exc).__name__})"
    foreign = [n for n in names if n not in allowed]
    return f"OPEN({','.join(foreign)[:200]})" if foreign else f"BLOCKED(only {','.join(names) or 'nothing'})"


def walk_for(needles, hashes):
    """Every readable regular file outside the system trees: another model's code, a marker or a secret?"""
    scanned, models, found = 0, [], []
    for root, dirs, files in os.walk("/"):
        dirs[:] = [d for d in dirs if not any(os.path.join(root, d).startswith(t) for t in SKIP_TREES)]
        for name in files:
            path = os.path.join(root, name)
            if name in ("model.py", "config.pbtxt"):
                models.append(path)
            try:
                if not os.path.isfile(path) or os.path.getsize(path) > 4 << 20:
                    continue
                data = Path(path).read_bytes()
            except OSError:
                continue
            scanned += 1
            if any(n in data for n in needles) or any(hashlib.sha256(t).hexdigest() in hashes for t in TOKEN.findall(data)):
                found.append(path)
    return scanned, models, found


class TritonPythonModel:
    def initialize(self, args):
        results = {
            "secrets-file": read(PARAMS["secrets_path"]),
            "data-dir": listing(PARAMS["data_dir"]),
            "model-store": listing(PARAMS["model_store"]),
            "etc-shadow": read("/etc/shadow"),
            # A private /proc: no process of Triton, the agent or another submission is visible.
            "proc": listing("/proc", allowed=("cpuinfo", "meminfo")),
            "proc-1-environ": read("/proc/1/environ"),
            "run": listing("/run"),
            # A private /tmp: only this model's own folder (bound at the path Triton gave it), and the Python
            # installation or venv when they live under /tmp (a CI checkout), bound again read-only.
            "tmp": listing("/tmp", allowed=(Path(OWN).name, *SYSTEM_UNDER_TMP)),
            "relay-socket": read("/run/dynabench/triton.sock"),
        }
        # Other submissions' files live in Triton's /tmp and shared-memory regions: hidden from here.
        own_shm = os.listdir("/dev/shm")
        results["dev-shm"] = "BLOCKED(own region only)" if len(own_shm) <= 1 else f"OPEN({len(own_shm)} regions)"
        needles = [PARAMS["benign_marker"].encode()]
        hashes = set(PARAMS["secret_hashes"])
        env_hits = [
            k for k, v in os.environ.items() if any(hashlib.sha256(t).hexdigest() in hashes for t in TOKEN.findall(v.encode()))
        ]
        results["environment"] = f"OPEN({','.join(env_hits)})" if env_hits else "BLOCKED(no secret in the environment)"
        scanned, models, found = walk_for(needles, hashes)
        results["other-model-files"] = f"OPEN({','.join(models)[:300]})" if models else "BLOCKED(none in view)"
        results["other-submissions-and-secrets"] = (
            f"OPEN({','.join(found)[:300]})" if found else f"BLOCKED(none in {scanned} readable files)"
        )
        raise RuntimeError("PROBE-REPORT " + " ".join(f"{k}={v}" for k, v in results.items()))

    def execute(self, requests):
        return []
