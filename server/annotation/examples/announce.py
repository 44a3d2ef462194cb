"""Telling live views about a stored (or newly judged) example, once its write has committed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.annotation.records import ExampleStatus
from server.core import events
from server.core.services import Services


def example_written(services: Services, example: Mapping[str, Any]) -> None:
    """Published in the background: the writer does not wait for Redis."""
    created: list[events.Event] = [events.ExampleCreated(round_id=example["round"], example_id=example["id"])]
    if example.get("status") == ExampleStatus.OPEN:
        created.append(events.ExampleAvailable(round_id=example["round"], example_id=example["id"], author_id=example["user"]))
    services.publisher.publish_soon(created)


def example_judged(services: Services, example: Mapping[str, Any]) -> None:
    """A stored example got its verdict (a pending one judged, an ask_user claim): also its followers
    (`exampleUpdated`) are told."""
    example_written(services, example)
    services.publisher.publish_soon(
        [
            events.ExampleUpdated(example_id=example["id"], status=example["status"]),
            events.MyExampleChanged(user_id=example["user"], example_id=example["id"], change="judged"),
        ]
    )
