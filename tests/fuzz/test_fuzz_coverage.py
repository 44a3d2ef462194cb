"""Every field of the Mutation type in schema.graphql has a fuzz test of at least 200 cases."""

import importlib
import re
from pathlib import Path

from tests.fuzz.strategies import MUTATIONS

MODULES = sorted(p.stem for p in Path(__file__).parent.glob("test_*_fuzz.py"))


def test_every_mutation_is_fuzzed_with_at_least_200_cases():
    fuzzed = set()
    for name in MODULES:
        module = importlib.import_module(f"tests.fuzz.{name}")
        for test_name, test in vars(module).items():
            if not test_name.startswith("test_") or not getattr(test, "is_hypothesis_test", False):
                continue
            settings = test._hypothesis_internal_use_settings
            assert settings.max_examples >= 200 and settings.deadline is None, test_name
        fuzzed |= set(re.findall(r'cases\("(\w+)"', Path(module.__file__).read_text()))
    assert fuzzed == set(MUTATIONS), {"not fuzzed": set(MUTATIONS) - fuzzed, "unknown": fuzzed - set(MUTATIONS)}
