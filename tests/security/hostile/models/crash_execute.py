"""Hostile: its code crashes (SIGSEGV) on its first request."""

import os
import signal


class TritonPythonModel:
    def execute(self, requests):
        os.kill(os.getpid(), signal.SIGSEGV)
        return []
