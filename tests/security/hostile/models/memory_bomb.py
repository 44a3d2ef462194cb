"""Hostile: allocates (and touches) memory in initialize() until well past the sandbox's limit."""

import json
from pathlib import Path

PARAMS = json.loads((Path(__file__).parent / "params.json").read_text())
CHUNK = 64 << 20


class TritonPythonModel:
    def initialize(self, args):
        hoard = []
        try:
            while len(hoard) * CHUNK < PARAMS["target_bytes"]:
                hoard.append(bytes([len(hoard) % 251 + 1]) * CHUNK)  # written, so every page is resident
        except MemoryError:
            raise RuntimeError(f"MEMORY-BOMB stopped by MemoryError after {len(hoard) * CHUNK >> 20} MiB") from None
        raise RuntimeError(f"MEMORY-BOMB NOT STOPPED: holds {len(hoard) * CHUNK >> 20} MiB")

    def execute(self, requests):
        return []
