"""Hostile probe: tries to write outside its private /tmp (its own model folder, the system, the sandbox's
files, the host's data folder), then fails its load with a report (``name=BLOCKED(...)`` / ``name=OPEN(...)``)."""

import json
import os
from pathlib import Path

PARAMS = json.loads((Path(__file__).parent / "params.json").read_text())


def write(folder):
    path = Path(folder) / PARAMS["marker"]
    try:
        path.write_text("written by a hostile submission")
    except OSError as exc:
        return f"BLOCKED({exc.strerror or type(exc).__name__})"
    return "OPEN(written)"


class TritonPythonModel:
    def initialize(self, args):
        own = Path(__file__).resolve().parent
        targets = {
            "model-version-dir": own,
            "model-dir": own.parent,
            "usr": "/usr",
            "usr-lib": "/usr/lib",
            "etc": "/etc",
            "sandbox": "/sandbox",
            "sandbox-backends": "/sandbox/backends",
            "sandbox-backend-stub-dir": "/sandbox/backends/python",
            "venv": PARAMS["venv"],
            "host-data-dir": PARAMS["data_dir"],
            "host-model-store": PARAMS["model_store"],
            "host-sandbox-run": PARAMS["host_run_dir"],
            "run-dynabench": "/run/dynabench",
        }
        results = {name: write(folder) for name, folder in targets.items()}
        try:
            os.chmod(own / "model.py", 0o777)
            results["chmod-own-code"] = "OPEN(changed)"
        except OSError as exc:
            results["chmod-own-code"] = f"BLOCKED({exc.strerror or type(exc).__name__})"
        raise RuntimeError("PROBE-REPORT " + " ".join(f"{k}={v}" for k, v in results.items()))

    def execute(self, requests):
        return []
