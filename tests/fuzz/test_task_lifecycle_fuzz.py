"""Fuzzing a task's life (issue #18): updateTask, addTaskOwner, removeTaskOwner, approveTask, rejectTask and, last (it
may archive the world's tasks, closing their rounds), setTaskVisibility. The world's tasks are public ones; a refused
call must write nothing (the harness compares every table)."""

from hypothesis import example, given

from tests.fuzz.conftest import FUZZ
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import Case, cases
from tests.fuzz.world import SENTIMENT_CONFIG


@FUZZ
@example(Case("updateTask", "alice", {"input": {"taskCode": Ref("code:alpha"), "instructions": "<script>x</script>\x00"}}))
@example(Case("updateTask", "alice", {"input": {"taskCode": Ref("code:alpha"), "config": {**SENTIMENT_CONFIG, "labels": ["a", "b"]}}}))  # fmt: skip
@example(Case("updateTask", "alice", {"input": {"taskCode": Ref("code:alpha"), "name": "\ud800"}}))
@example(Case("updateTask", "bob", {"input": {"taskCode": Ref("code:alpha"), "name": "Mine now"}}))
@given(case=cases("updateTask"))
def test_update_task(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("addTaskOwner", "alice", {"taskCode": Ref("code:alpha"), "username": "\x00"}))
@example(Case("addTaskOwner", "carol", {"taskCode": Ref("code:alpha"), "username": Ref("username:alice")}))
@given(case=cases("addTaskOwner"))
def test_add_task_owner(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("removeTaskOwner", "alice", {"taskCode": Ref("code:alpha"), "username": Ref("username:alice")}))
@example(Case("removeTaskOwner", "bob", {"taskCode": Ref("code:beta"), "username": "\udfff"}))
@given(case=cases("removeTaskOwner"))
def test_remove_task_owner(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("approveTask", "alice:token", {"taskCode": Ref("code:alpha"), "note": "\x00"}))
@given(case=cases("approveTask"))
def test_approve_task(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("rejectTask", "alice", {"taskCode": Ref("code:alpha"), "note": "x" * 3000}))
@given(case=cases("rejectTask"))
def test_reject_task(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("setTaskVisibility", "alice", {"taskCode": Ref("code:alpha"), "visibility": "PROPOSED"}))
@example(Case("setTaskVisibility", "carol", {"taskCode": Ref("code:beta"), "visibility": "ARCHIVED"}))
@given(case=cases("setTaskVisibility"))
def test_set_task_visibility(fuzzer, case):
    fuzzer.send(case)
