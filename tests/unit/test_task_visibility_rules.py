"""Who sees a task in which state (server/permissions/tasks.py): pure rules, applied once by GraphQL's visibility
helper and the tasks list."""

import pytest

from server import permissions
from server.accounts.viewer import Viewer

OWNER = Viewer(user_id=1, username="owner", is_admin=False, owned_task_ids=frozenset({7}))
STRANGER = Viewer(user_id=2, username="stranger", is_admin=False)
ADMIN = Viewer(user_id=3, username="admin", is_admin=True)


@pytest.mark.parametrize(
    ("status", "seen_by_all"),
    [("PUBLIC", True), ("ARCHIVED", True), ("PROPOSED", False), ("REJECTED", False), ("HIDDEN", False)],
)
def test_can_view_task(status, seen_by_all):
    task = {"id": 7, "status": status}
    assert permissions.can_view_task(None, task) is seen_by_all
    assert permissions.can_view_task(STRANGER, task) is seen_by_all
    assert permissions.can_view_task(OWNER, task) and permissions.can_view_task(ADMIN, task)


def test_list_scope_and_review():
    assert permissions.task_list_scope(None) == permissions.TaskListScope(False, ("PUBLIC", "ARCHIVED"), ())
    assert permissions.task_list_scope(OWNER).owned == (7,)
    assert permissions.task_list_scope(ADMIN).everything
    assert permissions.task_starts_as_proposal(OWNER) and not permissions.task_starts_as_proposal(ADMIN)
    assert permissions.review_task(ADMIN) is None
    assert permissions.review_task(OWNER).code == "FORBIDDEN"
    assert permissions.review_task(None).code == "AUTHENTICATION_REQUIRED"
