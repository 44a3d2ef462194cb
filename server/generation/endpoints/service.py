"""The admins' registry of LLM endpoints: register, change, remove (each one transaction with its audit row), and
read. The API key is sealed before it is stored (crypto.py) and never comes back out of this module: callers get
`EndpointView`s, which say only whether a key is stored. Who may call these is `permissions.manage_llm_endpoints`.
A task's owners get `EndpointChoice`s (`choices`): what they need to name an endpoint as a round's target, no more."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from server.accounts.viewer import Viewer
from server.admin import audit
from server.admin.records import AuditAction, AuditTarget
from server.core import db
from server.core.errors import FieldProblem, conflict, invalid, not_found
from server.core.i18n import tr
from server.core.settings import Settings
from server.generation.endpoints import crypto, queries, rules
from server.generation.endpoints.records import EndpointRow


@dataclass(frozen=True)
class EndpointView:
    """An endpoint as the API shows it: everything but the key."""

    name: str
    base_url: str
    model: str
    has_key: bool
    timeout_s: float
    max_concurrency: int
    tokens_per_user_per_day: int
    tokens_per_task_per_day: int
    price_per_1k_prompt_tokens: Decimal
    price_per_1k_completion_tokens: Decimal
    enabled: bool
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, row: EndpointRow) -> EndpointView:
        return cls(
            name=row["name"],
            base_url=row["base_url"],
            model=row["model"],
            has_key=bool(row["api_key_sealed"]),
            timeout_s=row["timeout_s"],
            max_concurrency=row["max_concurrency"],
            tokens_per_user_per_day=row["tokens_per_user_per_day"],
            tokens_per_task_per_day=row["tokens_per_task_per_day"],
            price_per_1k_prompt_tokens=row["price_per_1k_prompt_tokens"],
            price_per_1k_completion_tokens=row["price_per_1k_completion_tokens"],
            enabled=row["enabled"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
        )


@dataclass(frozen=True)
class EndpointChoice:
    """An enabled endpoint as a task's owners see it when they choose a round's targets: its name, model and limits;
    not its address (error messages never show it either), its key or whether it has one, nor its prices."""

    name: str
    model: str
    timeout_s: float
    tokens_per_user_per_day: int
    tokens_per_task_per_day: int

    @classmethod
    def of(cls, row: EndpointRow) -> EndpointChoice:
        return cls(
            name=row["name"],
            model=row["model"],
            timeout_s=row["timeout_s"],
            tokens_per_user_per_day=row["tokens_per_user_per_day"],
            tokens_per_task_per_day=row["tokens_per_task_per_day"],
        )


def _sealed(settings: Settings, name: str, key: str) -> str:
    try:
        return crypto.seal(settings, name, key)
    except crypto.KeySecretMissing:
        raise invalid(
            tr("The server cannot store API keys: its operator sets ENDPOINT_KEY_SECRET first."),
            FieldProblem("apiKey", tr("cannot be stored on this server")),
        ) from None


def _changed(values: dict[str, Any]) -> str:
    """The audit row's note: which settings changed (never their values: the key is among them)."""
    return ", ".join(rules.FIELDS[c] for c in values if c != "name")[:500]


async def endpoints() -> list[EndpointView]:
    return [EndpointView.of(row) for row in await queries.all_endpoints()]


async def choices(task_kind: str) -> list[EndpointChoice]:
    """The endpoints a task of this kind may name as a round's target: the enabled ones, by name, for a generative
    task; none for another kind (an endpoint cannot judge its examples)."""
    if task_kind != "generative":
        return []
    return [EndpointChoice.of(row) for row in await queries.enabled_endpoints()]


async def endpoint_usable(name: str) -> bool:
    """Whether an endpoint of this name is registered and switched on (a round target's readiness)."""
    row = await queries.endpoint_by_name(name.strip()) if rules.NAME.match(name.strip()) else None
    return row is not None and bool(row["enabled"])


async def endpoint_row(name: str) -> EndpointRow:
    """The stored row (sealed key included) for the streaming and target modules of this package."""
    name = name.strip()
    row = await queries.endpoint_by_name(name) if rules.NAME.match(name) else None
    if row is None:
        raise not_found(tr("An LLM endpoint named {name!r}", name=name))
    return row


async def register(settings: Settings, actor: Viewer, values: dict[str, Any]) -> EndpointView:
    """A new endpoint; CONFLICT when the name is taken."""
    clean = rules.cleaned(values, new=True)
    key = clean.pop("api_key")
    clean["api_key_sealed"] = _sealed(settings, clean["name"], key)
    async with db.transaction():
        row = await queries.insert_endpoint(clean, actor.user_id)
        if row is None:
            raise conflict(tr("An LLM endpoint named {name!r} exists already.", name=clean["name"]), "name")
        note = "with a key" if key else "without a key"
        await audit.record(
            actor.user_id, AuditAction.LLM_ENDPOINT_REGISTERED, AuditTarget.LLM_ENDPOINT, row["id"], row["name"], note
        )
    return EndpointView.of(row)


async def update(settings: Settings, actor: Viewer, name: str, changes: dict[str, Any]) -> EndpointView:
    """Change the settings given; `api_key` absent keeps the stored key, "" clears it, a value replaces it."""
    row = await endpoint_row(name)
    clean = rules.cleaned(changes, new=False)
    if "api_key" in clean:
        clean["api_key_sealed"] = _sealed(settings, row["name"], clean.pop("api_key"))
    async with db.transaction():
        updated = await queries.update_endpoint(row["name"], clean)
        if updated is None:
            raise not_found(tr("An LLM endpoint named {name!r}", name=row["name"]))
        await audit.record(
            actor.user_id,
            AuditAction.LLM_ENDPOINT_UPDATED,
            AuditTarget.LLM_ENDPOINT,
            updated["id"],
            updated["name"],
            _changed(changes),
        )
    return EndpointView.of(updated)


async def remove(actor: Viewer, name: str) -> str:
    """Remove the endpoint (its usage counts stay, under its name). A round that names it then gets a readable
    failure for each reply until its owner changes its targets."""
    row = await endpoint_row(name)
    async with db.transaction():
        endpoint_id = await queries.delete_endpoint(row["name"])
        if endpoint_id is None:
            raise not_found(tr("An LLM endpoint named {name!r}", name=row["name"]))
        await audit.record(actor.user_id, AuditAction.LLM_ENDPOINT_REMOVED, AuditTarget.LLM_ENDPOINT, endpoint_id, row["name"])
    return row["name"]
