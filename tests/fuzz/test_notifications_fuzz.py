"""Fuzzing the inbox mutations (issue #18): markNotificationsRead (own, others' and malformed ids, `all`) and
setNotificationPreferences. The module's world adds a notification for alice and one for bob (by SQL: the producers
are jobs), so ids of the right type, the viewer's own and another user's, reach the resolver."""

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.fuzz.conftest import FUZZ
from tests.fuzz.junk import malformed_ids, weighted
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import VIEWERS, Case, cases
from tests.fuzz.world import gid

NOTIFICATION_REFS = ("notification:alice", "notification:bob")


@pytest.fixture(scope="module", autouse=True)
def notifications(world):
    for name in ("alice", "bob"):
        row = world.db.fetch(
            "INSERT INTO notifications (recipient, kind, subject, data) "
            "SELECT id, 'badge_earned', 'fuzz', jsonb_build_object('badge', 'fuzz') FROM users WHERE username = $1 "
            "RETURNING id",
            name,
        )
        world.refs[f"notification:{name}"] = gid("Notification", row[0]["id"])


notification_ids = weighted((5, st.sampled_from(NOTIFICATION_REFS).map(Ref)), (3, malformed_ids))
careful = st.builds(
    Case,
    st.just("markNotificationsRead"),
    st.sampled_from(VIEWERS),
    st.fixed_dictionaries(
        {},
        optional={
            "ids": st.one_of(st.lists(notification_ids, max_size=4), st.none(), notification_ids.map(lambda i: [i] * 101)),
            "all": st.one_of(st.booleans(), st.none()),
        },
    ),
)


@FUZZ
@example(Case("markNotificationsRead", "alice", {"ids": [Ref("notification:bob")]}))
@example(Case("markNotificationsRead", "alice", {"ids": [Ref("notification:alice")], "all": True}))
@example(Case("markNotificationsRead", "carol:token", {"all": True}))
@given(case=st.one_of(cases("markNotificationsRead"), careful))
def test_mark_notifications_read(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("setNotificationPreferences", "alice", {"emailKinds": ["MODEL_SCORED"] * 101}))
@given(case=cases("setNotificationPreferences"))
def test_set_notification_preferences(fuzzer, case):
    fuzzer.send(case)
