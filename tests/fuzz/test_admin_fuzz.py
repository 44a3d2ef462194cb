"""Fuzzing the admin mutations (issue #18 point 5): setUserRole, setUserDisabled, resetUserSessions, takeDownModel and
shareTargetModel.
Nobody in the fuzz world is an admin, so every case must be refused cleanly and write nothing (the harness compares
the database before and after); the API tests (tests/api/test_admin_*.py) cover what admins do."""

from hypothesis import example, given

from tests.fuzz.conftest import FUZZ
from tests.fuzz.junk import INVALID_UTF8
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import Case, cases


@FUZZ
@example(Case("setUserRole", "alice", {"userId": "VXNlcjox", "role": "ADMIN"}))
@example(Case("setUserRole", "alice:token", {"userId": "VXNlcjox", "role": "USER"}))
@example(Case("setUserRole", "carol", {"userId": Ref("model:bob"), "role": "ADMIN"}))
@given(case=cases("setUserRole"))
def test_set_user_role(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("setUserDisabled", "alice", {"userId": "VXNlcjoy", "disabled": True, "reason": "\x00"}))
@example(Case("setUserDisabled", "bob", {"userId": "VXNlcjox", "disabled": True, "reason": "x" * 600}))
@example(Case("setUserDisabled", "alice:token", {"userId": "VXNlcjoz", "disabled": False, "reason": INVALID_UTF8}))
@given(case=cases("setUserDisabled"))
def test_set_user_disabled(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("resetUserSessions", "alice", {"userId": "VXNlcjox"}))
@example(Case("resetUserSessions", "anonymous", {"userId": "VXNlcjo5OTk5OTk5OTk5OTk="}))
@given(case=cases("resetUserSessions"))
def test_reset_user_sessions(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("takeDownModel", "bob", {"modelId": Ref("model:bob"), "reason": "mine"}))
@example(Case("takeDownModel", "alice:token", {"modelId": Ref("model:bob"), "reason": "\x00"}))
@example(Case("takeDownModel", "alice", {"modelId": "TW9kZWw6LTE=", "reason": ""}))
@given(case=cases("takeDownModel"))
def test_take_down_model(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("shareTargetModel", "alice", {"name": "sentiment_minilm", "shared": True}))
@example(Case("shareTargetModel", "alice:token", {"name": INVALID_UTF8, "shared": False}))
@example(Case("shareTargetModel", "anonymous", {"name": "\x00", "shared": True}))
@given(case=cases("shareTargetModel"))
def test_share_target_model(fuzzer, case):
    fuzzer.send(case)
