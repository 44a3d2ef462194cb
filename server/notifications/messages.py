"""What a notification says, written from its kind and facts (the inbox's text, in the reader's language, and the
email's, in English). Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from server.annotation.badges import describe
from server.core.i18n import tr
from server.notifications.records import NotificationKind as K


class Message(NamedTuple):
    title: str
    body: str
    link: str  # the PWA path to open (relative, e.g. "/models/12")


def _model(data: Mapping[str, Any]) -> str:
    return data.get("name") or tr("your model")


def _badge(data: Mapping[str, Any]) -> tuple[str, str]:
    """The badge's name and description: worded again from its rule when the entry has one (older ones: as stored)."""
    stored = str(data.get("badge", "")), str(data.get("description") or "")
    rule = data.get("rule")
    if isinstance(rule, list) and len(rule) == 2 and isinstance(rule[1], int):
        try:
            badge = describe(str(rule[0]), rule[1], str(data.get("task_name") or ""))
        except ValueError:
            return stored
        if badge.name == stored[0]:  # the same badge (its English is its identity)
            return badge.name, badge.description
    return stored


def message(kind: str, data: Mapping[str, Any]) -> Message:
    """Unknown kinds (a newer server wrote them) still read as something. Title and body are translatable (the API
    says them in the reader's language); the facts inside them (names, a model's status message) are as stored."""
    detail = str(data.get("message") or "")
    model_link = f"/models/{data.get('model_id')}" if data.get("model_id") else "/models"
    task = data.get("task_name") or data.get("task_code") or tr("a task")
    if kind == K.MODEL_DEPLOYED:
        return Message(tr("Model “{name}” deployed", name=_model(data)), detail or tr("It passed its smoke test."), model_link)
    if kind == K.MODEL_SCORED:
        return Message(
            tr("Model “{name}” scored", name=_model(data)), detail or tr("Its scores are on the leaderboard."), model_link
        )
    if kind == K.MODEL_FAILED:
        return Message(tr("Model “{name}” failed", name=_model(data)), detail or tr("See its status log."), model_link)
    if kind == K.MODEL_TAKEN_DOWN:
        return Message(
            tr("Model “{name}” taken down", name=_model(data)), detail or tr("An administrator took it down."), model_link
        )
    if kind in (K.EXAMPLE_VALIDATED, K.EXAMPLE_REJECTED):
        text = str(data.get("excerpt") or "")
        quoted = tr("“{excerpt}”", excerpt=text) if text else ""
        if kind == K.EXAMPLE_VALIDATED:
            return Message(tr("Your example for {task} was validated", task=task), quoted, "/examples")
        return Message(tr("Your example for {task} was rejected", task=task), quoted, "/examples")
    if kind == K.BADGE_EARNED:
        badge_name, description = _badge(data)
        return Message(tr("Badge earned: {badge}", badge=badge_name), description, "/examples")
    if kind in (K.TASK_APPROVED, K.TASK_REJECTED):
        note = str(data.get("note") or "")
        link = f"/owner/{data.get('task_code', '')}"
        if kind == K.TASK_APPROVED:
            return Message(tr("Your task {task} was approved", task=task), note, link)
        return Message(tr("Your task {task} was rejected", task=task), note, link)
    return Message(kind.replace("_", " ").capitalize(), detail, "/")


def excerpt(text: str, limit: int = 80) -> str:
    """The start of an example's text, on one line."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
