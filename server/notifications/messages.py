"""What a notification says, written from its kind and facts (the inbox's English text and the email's). Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from server.notifications.records import NotificationKind as K


class Message(NamedTuple):
    title: str
    body: str
    link: str  # the PWA path to open (relative, e.g. "/models/12")


def _model(data: Mapping[str, Any]) -> str:
    return f"“{data.get('name') or 'your model'}”"


def message(kind: str, data: Mapping[str, Any]) -> Message:
    """Unknown kinds (a newer server wrote them) still read as something."""
    detail = str(data.get("message") or "")
    model_link = f"/models/{data.get('model_id')}" if data.get("model_id") else "/models"
    task = data.get("task_name") or data.get("task_code") or "a task"
    if kind == K.MODEL_DEPLOYED:
        return Message(f"Model {_model(data)} deployed", detail or "It passed its smoke test.", model_link)
    if kind == K.MODEL_SCORED:
        return Message(f"Model {_model(data)} scored", detail or "Its scores are on the leaderboard.", model_link)
    if kind == K.MODEL_FAILED:
        return Message(f"Model {_model(data)} failed", detail or "See its status log.", model_link)
    if kind == K.MODEL_TAKEN_DOWN:
        return Message(f"Model {_model(data)} taken down", detail or "An administrator took it down.", model_link)
    if kind in (K.EXAMPLE_VALIDATED, K.EXAMPLE_REJECTED):
        verdict = "validated" if kind == K.EXAMPLE_VALIDATED else "rejected"
        text = str(data.get("excerpt") or "")
        return Message(f"Your example for {task} was {verdict}", f"“{text}”" if text else "", "/examples")
    if kind == K.BADGE_EARNED:
        return Message(f"Badge earned: {data.get('badge', '')}", str(data.get("description") or ""), "/examples")
    if kind in (K.TASK_APPROVED, K.TASK_REJECTED):
        verdict = "approved" if kind == K.TASK_APPROVED else "rejected"
        note = str(data.get("note") or "")
        return Message(f"Your task {task} was {verdict}", note, f"/owner/{data.get('task_code', '')}")
    return Message(kind.replace("_", " ").capitalize(), detail, "/")


def excerpt(text: str, limit: int = 80) -> str:
    """The start of an example's text, on one line."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
