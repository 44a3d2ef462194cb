"""Authorization matrix, notifications (issue #18): each user's inbox is theirs alone, admins included (see matrix.py).
Ids of another user's notifications are not refused but change nothing (the `others` rows check it)."""

import pytest

from tests.authz.matrix import Op, cells, holds, run_cell, same
from tests.authz.world import gid, pk_of
from tests.conftest import run_sql

ERR = "... on Error { code message }"


def _notification(world, principal: str, subject: str = "") -> int:
    """A fresh notification of the principal's account (the annotator's when anonymous)."""
    owner = world.user_pk[world.self_of(principal)] or world.user_pk["annotator"]
    return run_sql(
        "INSERT INTO notifications (recipient, kind, subject, data) VALUES ($1, 'badge_earned', $2, "
        "jsonb_build_object('badge', 'matrix')) RETURNING id",
        owner,
        subject or world.unique("matrix:"),
    )[0]["id"]


def _read_at(world, variables):
    return run_sql("SELECT read_at IS NOT NULL AS read FROM notifications WHERE id = $1", variables["_n"])


def _own_only(world, principal, value):
    ids = [pk_of(edge["node"]["id"]) for edge in value["edges"]]
    holds(ids, value)
    owners = {r["recipient"] for r in run_sql("SELECT recipient FROM notifications WHERE id = ANY($1::int[])", ids)}
    same(owners, {world.user_pk[world.self_of(principal)]})


def _preferences(world, principal):
    user = world.user_pk[world.self_of(principal)] or world.user_pk["annotator"]
    return {"_user": user}


def _live(world, principal):
    first, second = _notification(world, principal), _notification(world, principal)
    return {"s": gid("Notification", first), "_second": second}


#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OPS = [
    Op(
        "notifications",
        "Query.notifications",
        "{ notifications(first: 100) { edges { node { id kind } } } }",
        "401 ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"_n": _notification(w, p)},
        check=lambda w, p, v, a: _own_only(w, p, v),
    ),
    Op(
        "unreadNotificationCount",
        "Query.unreadNotificationCount",
        "{ unreadNotificationCount }",
        "401 ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"_n": _notification(w, p)},
        check=lambda w, p, v, a: same(
            v,
            run_sql(
                "SELECT count(*) AS n FROM notifications WHERE recipient = $1 AND read_at IS NULL",
                w.user_pk[w.self_of(p)],
            )[0]["n"],
        ),
    ),
    Op(
        "notificationPreferences",
        "Query.notificationPreferences",
        "{ notificationPreferences { emailKinds emailAvailable } }",
        "401 ok ok ok ok ok 403 403 ok",
        check=lambda w, p, v, a: holds(isinstance(v["emailKinds"], list), v),
    ),
    Op(
        "node:Notification",
        "Query.node",
        "query($id: ID!) { node(id: $id) { ... on Notification { id badge } } }",
        # The annotator's notification: the annotator alone (not even admins read another's inbox).
        "hide ok hide hide hide hide 403 403 hide",
        prepare=lambda w, p: {"id": gid("Notification", _notification(w, "annotator"))},
        check=lambda w, p, v, a: same(v, {"id": a["id"], "badge": "matrix"}),
    ),
    Op(
        "markNotificationsRead",
        "Mutation.markNotificationsRead",
        f"mutation($ids: [ID!]) {{ markNotificationsRead(ids: $ids) {{ __typename "
        f"... on NotificationsMarked {{ markedIds unreadCount }} {ERR} }} }}",
        "401 ok ok ok ok ok 403 403 ok",
        ok_type="NotificationsMarked",
        prepare=lambda w, p: (lambda n: {"ids": [gid("Notification", n)], "_n": n})(_notification(w, p)),
        watch=_read_at,
        check=lambda w, p, v, a: (same(v["markedIds"], a["ids"]), same(_read_at(w, a), [{"read": True}])),
    ),
    Op(
        "markNotificationsRead:others",
        "Mutation.markNotificationsRead",
        f"mutation($ids: [ID!]) {{ markNotificationsRead(ids: $ids) {{ __typename "
        f"... on NotificationsMarked {{ markedIds unreadCount }} {ERR} }} }}",
        # The annotator's notification: only the annotator's call marks it; anyone else's answers but changes nothing.
        "401 ok ok ok ok ok 403 403 ok",
        ok_type="NotificationsMarked",
        prepare=lambda w, p: (lambda n: {"ids": [gid("Notification", n)], "_n": n})(_notification(w, "annotator")),
        watch=_read_at,
        check=lambda w, p, v, a: same(_read_at(w, a), [{"read": p == "annotator"}]),
    ),
    Op(
        "markNotificationsRead:all",
        "Mutation.markNotificationsRead",
        f"mutation {{ markNotificationsRead(all: true) {{ __typename ... on NotificationsMarked {{ unreadCount }} {ERR} }} }}",
        "401 ok ok ok ok ok 403 403 ok",
        ok_type="NotificationsMarked",
        prepare=lambda w, p: {"_n": _notification(w, "annotator")},
        watch=_read_at,
        check=lambda w, p, v, a: (same(v["unreadCount"], 0), same(_read_at(w, a), [{"read": p == "annotator"}])),
    ),
    Op(
        "setNotificationPreferences",
        "Mutation.setNotificationPreferences",
        f"mutation {{ setNotificationPreferences(emailKinds: [MODEL_SCORED, BADGE_EARNED]) {{ __typename "
        f"... on NotificationPreferencesSaved {{ preferences {{ emailKinds }} }} {ERR} }} }}",
        "401 ok ok ok ok ok 403 403 ok",
        ok_type="NotificationPreferencesSaved",
        prepare=_preferences,
        watch=lambda w, v: run_sql('SELECT email_kinds FROM notification_preferences WHERE "user" = $1', v["_user"]),
        check=lambda w, p, v, a: same(
            run_sql('SELECT email_kinds FROM notification_preferences WHERE "user" = $1', a["_user"]),
            [{"email_kinds": ["badge_earned", "model_scored"]}],
        ),
    ),
    Op(
        "notificationReceived",
        "Subscription.notificationReceived",
        "subscription($s: ID) { notificationReceived(since: $s) { id badge } }",
        # The viewer's own feed: from `since`, their next notification comes first.
        "401 ok ok ok ok ok 403 403 ok",
        prepare=_live,
        check=lambda w, p, v, a: same(v, {"id": gid("Notification", a["_second"]), "badge": "matrix"}),
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_notifications_matrix(world, op, principal):
    run_cell(world, op, principal)
