"""Who listens to which domain event (server/domain_events/dispatcher.py), in one place. Importing this module
registers every domain's listeners; the API and the worker import it at start-up. Listeners of one event run in the
order their modules are imported here: effects that others read (ledgers, webhooks, inbox entries) before live views,
so a client that hears of an outcome then finds the inbox entry it led to."""

from __future__ import annotations

# isort: off
from server.campaigns import listeners as campaigns
from server.webhooks import listeners as webhooks
from server.notifications import listeners as notifications
from server.annotation import listeners as annotation
from server.evaluation import listeners as evaluation
from server.tasks import listeners as tasks
from server.domain_events import dispatcher

# isort: on

REGISTERED = (campaigns, webhooks, notifications, annotation, evaluation, tasks)
dispatcher.wired()
