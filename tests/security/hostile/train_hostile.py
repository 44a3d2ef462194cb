"""A hostile retraining recipe (1/train.py of an uploaded classifier), its behaviour chosen by the data it is given:
the first training row's statement is "HOSTILE <json>" with the mode and what to probe (tests/security/
test_hostile_training.py). probe: tries the platform's services, secrets, other submissions' files, the host's
processes and root, and fails with a report (name=BLOCKED(...) / name=OPEN(...)); malformed: writes a model that
breaks the task's contract; flood: writes without end; hang: never ends."""

import json
import os
import socket
import sys
import time
from pathlib import Path

data, output = Path(sys.argv[1]), Path(sys.argv[2])
first = json.loads((data / "train.jsonl").open().readline())
params = json.loads(first["statement"].split(" ", 1)[1])
mode = params["mode"]


def attempt(action):
    try:
        result = action()
    except Exception as exc:  # noqa: BLE001 — any refusal is what we hope for
        return f"BLOCKED({type(exc).__name__})"
    return "BLOCKED(empty)" if result in (None, False, [], "") else f"OPEN({str(result)[:40]!r})"


def probe():
    report = {}
    for name, (host, port) in params["tcp_targets"].items():
        report[name] = attempt(lambda h=host, p=port: socket.create_connection((h, int(p)), timeout=3) and "connected")
    report["dns"] = attempt(lambda: socket.getaddrinfo("example.com", 443))
    for name, path in params["paths"].items():
        report[name] = attempt(lambda p=path: os.listdir(p) if os.path.isdir(p) else Path(p).read_bytes())
    report["etc-shadow"] = attempt(lambda: Path("/etc/shadow").read_bytes())
    secrets = [k for k in os.environ if any(w in k for w in ("DATABASE", "REDIS", "SECRET", "KEY", "TOKEN", "PASSWORD"))]
    report["environment"] = "BLOCKED(clean)" if not secrets else f"OPEN({secrets})"
    report["write-model"] = attempt(lambda: Path(__file__).write_text("replaced") or "written")
    report["write-data"] = attempt(lambda: (data / "train.jsonl").write_text("{}") or "written")
    pids = [p for p in os.listdir("/proc") if p.isdigit()]
    report["processes"] = "BLOCKED(own only)" if len(pids) <= 5 else f"OPEN({len(pids)} pids)"
    report["root"] = attempt(lambda: os.setuid(0) or os.getuid() == 0)
    print("PROBE-REPORT " + " ".join(f"{k}={v}" for k, v in report.items()), flush=True)
    sys.exit(3)


if mode == "probe":
    probe()
elif mode == "malformed":  # a classifier without its probabilities output: the task's contract refuses it
    here = Path(__file__).resolve().parent
    config = (here.parent / "config.pbtxt").read_text().replace(', { name: "probs" data_type: TYPE_FP32 dims: [ 3 ] }', "")
    (output / "config.pbtxt").write_text(config)
    (output / "1").mkdir()
    (output / "1" / "model.py").write_text((here / "model.py").read_text())
elif mode == "flood":
    with open(output / "weights.bin", "wb") as out:
        while True:
            out.write(b"\0" * (1 << 20))
elif mode == "hang":
    print("training forever", flush=True)
    time.sleep(24 * 3600)
