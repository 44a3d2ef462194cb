"""Hostile: loads fine, then execute() spins on the CPU for ever."""


class TritonPythonModel:
    def execute(self, requests):
        n = 0
        while True:
            n += 1
