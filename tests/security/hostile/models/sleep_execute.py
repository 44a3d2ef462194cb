"""Hostile: loads fine, then execute() sleeps far past the smoke test's timeout."""

import time


class TritonPythonModel:
    def execute(self, requests):
        time.sleep(24 * 3600)
        return []
