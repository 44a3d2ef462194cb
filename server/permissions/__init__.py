"""Every permission and visibility rule, in one home (pure: no I/O), one module per entity.

A rule takes the viewer (None when anonymous) and, where relevant, the row or its task, and returns
None when the action is allowed or a `Denied` that says why; visibility rules (`can_view_*`) return a
bool and are applied by lists and `node(id:)` alike; `view_task` turns an unseen task into the answer a missing one
gets. A rule that a query room's single statement must apply has its SQL form here too (`task_sql.py`). Callers use
`server.permissions.<rule>`.
"""

from server.permissions.accounts import *  # noqa: F403
from server.permissions.admin import *  # noqa: F403
from server.permissions.base import *  # noqa: F403
from server.permissions.campaigns import *  # noqa: F403
from server.permissions.datasets import *  # noqa: F403
from server.permissions.examples import *  # noqa: F403
from server.permissions.llm_endpoints import *  # noqa: F403
from server.permissions.models import *  # noqa: F403
from server.permissions.notifications import *  # noqa: F403
from server.permissions.quality import *  # noqa: F403
from server.permissions.target_models import *  # noqa: F403
from server.permissions.task_sql import *  # noqa: F403
from server.permissions.tasks import *  # noqa: F403
from server.permissions.training import *  # noqa: F403
from server.permissions.webhooks import *  # noqa: F403
