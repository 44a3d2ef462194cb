"""The SDK installs on its own: a fresh virtualenv with only `pip install ./sdk` (none of the server's packages) imports
it and reads the real API."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

from tests.conftest import seed_builtin_tasks

ROOT = Path(__file__).resolve().parents[2]
SERVER_ONLY = {"torch", "strawberry-graphql", "litestar", "tritonclient", "nvidia-pytriton", "piccolo", "transformers"}


def test_a_fresh_venv_with_only_the_sdk_talks_to_the_api(stack, api, tmp_path):
    seed_builtin_tasks()
    venv.create(tmp_path / "venv", with_pip=True)
    python = str(tmp_path / "venv" / "bin" / "python")
    # A copy of sdk/ (pip builds in place otherwise, leaving build/ and *.egg-info in the checkout).
    subprocess.run(["cp", "-r", str(ROOT / "sdk"), str(tmp_path / "sdk")], check=True)
    install = subprocess.run(
        [python, "-m", "pip", "install", "--disable-pip-version-check", "-q", str(tmp_path / "sdk")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr
    listed = subprocess.run([python, "-m", "pip", "list", "--format", "json"], capture_output=True, text=True, check=True)
    installed = {p["name"].lower() for p in json.loads(listed.stdout)}
    assert "dynabench-client" in installed and not installed & SERVER_ONLY, sorted(installed)

    script = (
        "import sys, dynabench_client as d\n"
        "with d.Client(sys.argv[1], progress=False) as c:\n"
        "    print(','.join(t.code for t in c.tasks()))\n"
        "print(d.__file__)\n"
    )
    ran = subprocess.run([python, "-c", script, stack.api_url], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    codes, location = ran.stdout.split()
    assert {"sentiment", "nli"} <= set(codes.split(",")) and "site-packages" in location
    assert sys.prefix not in location  # the fresh venv's copy, not the suite's
