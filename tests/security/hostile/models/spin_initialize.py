"""Hostile: initialize() spins on the CPU for ever."""


class TritonPythonModel:
    def initialize(self, args):
        n = 0
        while True:
            n += 1

    def execute(self, requests):
        return []
