"""Fuzzing deleteMyAccount (a module of its own: its world's accounts may be deleted by a case that confirms, e.g. a
fresh session with no password; later cases of that viewer are then refused, which is an expected outcome)."""

from hypothesis import example, given

from tests.fuzz.conftest import FUZZ
from tests.fuzz.junk import INVALID_UTF8
from tests.fuzz.strategies import Case, cases


@FUZZ
@example(Case("deleteMyAccount", "bob", {"input": {"password": "\ud800" * 10}}))
@example(Case("deleteMyAccount", "bob", {"input": {"password": f"x{INVALID_UTF8}"}}))
@example(Case("deleteMyAccount", "carol", {"input": {"password": "\x00" * 5000}}))
@given(case=cases("deleteMyAccount"))
def test_delete_my_account(fuzzer, case):
    fuzzer.send(case)
