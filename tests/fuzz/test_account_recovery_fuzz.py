"""Fuzzing account recovery (issue #18): setEmail, verifyEmail, requestPasswordReset, resetPassword and
adminIssuePasswordReset. Each `@example` is a hostile case worth keeping."""

from hypothesis import example, given

from tests.fuzz.conftest import FUZZ
from tests.fuzz.junk import INVALID_UTF8
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import Case, cases

TOKENISH = "0123456789abcdef." + "A" * 43


@FUZZ
@example(Case("setEmail", "alice", {"input": {"email": f"{'a' * 64}@{'b' * 189}.{'c' * 63}"}}))
@example(Case("setEmail", "bob", {"input": {"email": "a\x00@b.cd"}}))
@example(Case("setEmail", "carol:token", {"input": {"email": None}}))
@given(case=cases("setEmail"))
def test_set_email(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("verifyEmail", "anonymous", {"input": {"token": TOKENISH}}))
@example(Case("verifyEmail", "anonymous", {"input": {"token": "\ud800." + "x" * 43}}))
@example(Case("verifyEmail", "alice", {"input": {"token": f"0123456789abcdef.{INVALID_UTF8}"}}))
@given(case=cases("verifyEmail"))
def test_verify_email(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("requestPasswordReset", "anonymous", {"input": {"usernameOrEmail": "%"}}))
@example(Case("requestPasswordReset", "anonymous", {"input": {"usernameOrEmail": "\\"}}))
@example(Case("requestPasswordReset", "anonymous", {"input": {"usernameOrEmail": "x" * 300}}))
@example(Case("requestPasswordReset", "garbage", {"input": {"usernameOrEmail": Ref("username:alice")}}))
@given(case=cases("requestPasswordReset"))
def test_request_password_reset(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("resetPassword", "anonymous", {"input": {"token": TOKENISH, "newPassword": "\x00" * 10}}))
@example(Case("resetPassword", "anonymous", {"input": {"token": "", "newPassword": ""}}))
@given(case=cases("resetPassword"))
def test_reset_password(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("adminIssuePasswordReset", "alice", {"input": {"username": "%"}}))
@example(Case("adminIssuePasswordReset", "carol", {"input": {"username": "\\"}}))
@given(case=cases("adminIssuePasswordReset"))
def test_admin_issue_password_reset(fuzzer, case):
    fuzzer.send(case)
