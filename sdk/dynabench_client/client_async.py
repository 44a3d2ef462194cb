"""`AsyncClient`: the researcher's and dashboard's operations over the generated client, for asyncio code (it works in
a running event loop, e.g. Jupyter's: `await client.leaderboard("sentiment")`)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .connection import Connection
from .errors import DynabenchError, ModelFailedError, NotFoundError, raise_for_result
from .exports import download_export
from .generated.base_model import Upload
from .generated.enums import ApiTokenScope, ExportFormat, Metric
from .generated.fragments import ModelInfo, RoundInfo
from .generated.input_types import DatasetWeightInput, MetricWeightInput, ModelCardInput, SetRoundTargetsInput, TargetModelInput
from .live import follow
from .pages import PAGE_SIZE, Page, connection_page, walk
from .results import DatasetScore, Leaderboard, ModelResults, RoundExport, leaderboard_entry
from .training import TrainingMixin
from .transport import NOT_IDEMPOTENT, RetryPolicy
from .uploads import model_archive
from .writing import WritingMixin

DONE_STATUSES = {"evaluated", "not_ranked"}
FORMATS = {"jsonl": ExportFormat.JSONL, "hf_dataset": ExportFormat.HF_DATASET, "preferences": ExportFormat.PREFERENCES}


class AsyncClient(WritingMixin, TrainingMixin):
    """`AsyncClient(api_url, token)`; the token defaults to $DYNABENCH_TOKEN (none: anonymous, public reads only).
    Use it as `async with AsyncClient(...) as client:` or call `await client.aclose()`."""

    def __init__(
        self,
        api_url: str,
        token: str | None = None,
        *,
        timeout: float = 120.0,
        retry: RetryPolicy | None = None,
        progress: bool = True,
        locale: str | None = None,
    ) -> None:
        self.connection = Connection(api_url, token, timeout=timeout, retry=retry, progress=progress, locale=locale)
        self.gql = self.connection.gql  # every operation of sdk/queries, typed (the generated client)

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.connection.aclose()

    # --- signing in ---------------------------------------------------------------------------------------------

    @classmethod
    async def log_in(cls, api_url: str, username: str, password: str, **options: Any) -> AsyncClient:
        """A client signed in as this account (a session: it lasts days; for scripts that run unattended, make an API
        token once with `create_api_token` and use that)."""
        anonymous = cls(api_url, "", **options)
        try:
            token = await anonymous.session_token(username, password)
        finally:
            await anonymous.aclose()
        return cls(api_url, token, **options)

    async def session_token(self, username: str, password: str) -> str:
        """logIn: a session token for this account (AuthenticationError when the password is wrong)."""
        answer = await self.connection.call(self.gql.log_in(username=username, password=password))
        return str(raise_for_result(answer.log_in).token)  # type: ignore[union-attr]

    async def create_api_token(self, name: str, scopes: Sequence[str] = ("READ",)) -> str:
        """A new API token of the signed-in account, e.g. scopes ("READ", "MODELS"); the secret is shown only now."""
        wanted = [ApiTokenScope(scope.upper()) for scope in scopes]
        answer = await self.connection.call(self.gql.create_api_token(name=name, scopes=wanted))
        return str(raise_for_result(answer.create_api_token).token)  # type: ignore[union-attr]

    # --- reading ------------------------------------------------------------------------------------------------

    async def me(self) -> Any:
        """The signed-in user (id, username, isAdmin), or None when anonymous."""
        return (await self.connection.call(self.gql.me())).me

    def walk(self, fetch: Callable[[str | None], Awaitable[Any]]) -> AsyncIterator[Any]:
        """Every node of any Relay connection, page after page: `fetch(after)` answers the connection (the object
        with `edges` and `page_info`), e.g. `lambda after: ...(await client.gql.task_rounds(code="nli", first=100,
        after=after)).task.rounds`."""

        async def page(after: str | None) -> Page[Any]:
            return connection_page(await self.connection.call(fetch(after)))

        return walk(page)

    def tasks(self) -> AsyncIterator[Any]:
        """Every task the viewer may see (all pages)."""

        async def page(after: str | None) -> Page[Any]:
            return connection_page((await self.connection.call(self.gql.tasks(first=PAGE_SIZE, after=after))).tasks)

        return walk(page)

    def rounds(self, task: str) -> AsyncIterator[RoundInfo]:
        """Every round of a task, oldest first (all pages)."""

        async def page(after: str | None) -> Page[Any]:
            answer = await self.connection.call(self.gql.task_rounds(code=task, first=PAGE_SIZE, after=after))
            if answer.task is None:
                raise NotFoundError("NOT_FOUND", f"no task {task!r} that you may see")
            return connection_page(answer.task.rounds)

        return walk(page)

    def contexts(self, round_id: str) -> AsyncIterator[Any]:
        """Every context of a round (all pages)."""

        async def page(after: str | None) -> Page[Any]:
            answer = await self.connection.call(self.gql.round_contexts(round_id=round_id, first=PAGE_SIZE, after=after))
            if answer.node is None or answer.node.typename__ != "Round":
                raise NotFoundError("NOT_FOUND", f"no round {round_id!r} that you may see")
            return connection_page(answer.node.contexts)

        return walk(page)

    async def round(self, task: str, round: int | str | None = None) -> RoundInfo:
        """A task's round by number or id (its current, i.e. newest, round when None)."""
        found: RoundInfo | None = None
        async for candidate in self.rounds(task):
            if round is None or candidate.number == round or candidate.id == round:
                found = candidate
        if found is None:
            raise NotFoundError("NOT_FOUND", f"task {task!r} has no round {round!r}")
        return found

    async def round_state(self, round_id: str) -> RoundInfo:
        answer = await self.connection.call(self.gql.round_state(round_id=round_id))
        if answer.node is None or answer.node.typename__ != "Round":
            raise NotFoundError("NOT_FOUND", f"no round {round_id!r} that you may see")
        return answer.node

    def round_stats(self, round_id: str) -> AsyncIterator[RoundInfo]:
        """The round's counters now, then each time they change, live (reconnects and catches up by itself)."""

        async def stream() -> AsyncIterator[RoundInfo]:
            async for event in self.connection.stream(self.gql.round_stats(round_id=round_id)):
                yield event.round_stats

        return follow(stream, lambda: self.round_state(round_id))

    # --- models -------------------------------------------------------------------------------------------------

    async def submit_model(
        self,
        path_or_archive: str | os.PathLike[str] | bytes,
        task: str,
        name: str,
        card: Mapping[str, str] | None = None,
        *,
        anonymous: bool = False,
    ) -> ModelInfo:
        """Upload a Triton model repository for `task` (a directory is zipped first; or a .zip / .tar.gz file or its
        bytes) with a progress bar; returns the model (status `uploaded`; follow it with `wait_for_evaluation`).
        `card`: description, parameters, languages, license, source_url, paper."""
        card_input = ModelCardInput.model_validate({_camel(k): v for k, v in card.items()}) if card else None
        with model_archive(path_or_archive, self.connection.progress) as (filename, upload):
            answer = await self.connection.call(
                self.gql.upload_model(
                    task_code=task,
                    name=name,
                    archive=Upload(filename=filename, content=upload, content_type="application/octet-stream"),
                    card=card_input,
                    anonymous=anonymous,
                    extensions={NOT_IDEMPOTENT: True},
                )
            )
        return raise_for_result(answer.upload_model).model  # type: ignore[union-attr]

    async def model(self, model_id: str) -> ModelInfo:
        """A model's status, status log and scores."""
        answer = await self.connection.call(self.gql.model_state(model_id=model_id))
        if answer.node is None or answer.node.typename__ != "Model":
            raise NotFoundError("NOT_FOUND", f"no model {model_id!r} that you may see")
        return answer.node

    async def wait_for_evaluation(
        self, model_id: str, timeout: float | None = None, on_update: Callable[[ModelInfo], None] | None = None
    ) -> ModelResults:
        """Follows the model live (the `modelUpdated` subscription; reconnects and re-reads its state when the
        connection drops) until it is evaluated, then returns `results(model_id)`; ModelFailedError when it failed."""

        async def stream() -> AsyncIterator[ModelInfo]:
            async for event in self.connection.stream(self.gql.model_updated(model_id=model_id)):
                yield event.model_updated

        async def until_done() -> ModelResults:
            async for model in follow(stream, lambda: self.model(model_id)):
                if on_update is not None:
                    on_update(model)
                if model.status in DONE_STATUSES:
                    return await self.results(model_id)
                if model.status == "failed":
                    log = model.status_log or []
                    raise ModelFailedError(model_id, log[-1].message if log else "no reason given")
            raise DynabenchError(f"the API ended the updates of model {model_id} before its evaluation ended")

        return await asyncio.wait_for(until_done(), timeout)

    async def results(self, model_id: str) -> ModelResults:
        """A model's scores per dataset, and its Dynascore, rank and per-metric values when the leaderboard (default
        weights) ranks it."""
        model = await self.model(model_id)
        task = model.task.code if model.task else None
        entry = None
        if task is not None and model.status == "evaluated":
            entry = next((e for e in (await self.leaderboard(task)).entries if e.model_id == model_id), None)
        return ModelResults(
            model_id=model.id,
            name=model.name,
            task=task,
            status=model.status,
            per_dataset=[DatasetScore.of(score) for score in model.scores],
            dynascore=entry.dynascore if entry else None,
            rank=entry.rank if entry else None,
            metrics=entry.metrics if entry else {},
        )

    async def publish_model(self, model_id: str, published: bool = True) -> ModelInfo:
        answer = await self.connection.call(self.gql.publish_model(model_id=model_id, published=published))
        return raise_for_result(answer.publish_model).model  # type: ignore[union-attr]

    async def leaderboard(
        self,
        task: str,
        metric_weights: Mapping[str, float] | None = None,
        dataset_weights: Mapping[str, float] | None = None,
        config_name: str | None = None,
    ) -> Leaderboard:
        """Every ranked model of `task` (all pages) by Dynascore; `metric_weights` e.g. {"perf": 5, "memory": 0}
        (others keep their default), `dataset_weights` {dataset id: weight}, or a saved `config_name`."""
        metrics = [MetricWeightInput(metric=_metric(k), weight=float(v)) for k, v in (metric_weights or {}).items()]
        datasets = [DatasetWeightInput(datasetId=k, weight=float(v)) for k, v in (dataset_weights or {}).items()]
        pages: list[Any] = []

        async def page(after: str | None) -> Page[Any]:
            answer = await self.connection.call(
                self.gql.leaderboard(
                    task_code=task,
                    metric_weights=metrics or None,
                    dataset_weights=datasets or None,
                    config_name=config_name,
                    first=PAGE_SIZE,
                    after=after,
                )
            )
            pages.append(answer.leaderboard)
            return connection_page(answer.leaderboard)

        entries = [leaderboard_entry(row) async for row in walk(page)]
        first = pages[0]
        return Leaderboard(
            task=task,
            entries=entries,
            metric_weights={w.metric.value.lower(): w.weight for w in first.metric_weights},
            total_count=first.total_count,
        )

    # --- rounds (task owners) -----------------------------------------------------------------------------------

    async def export_round(
        self, task: str, round: int | str | None, path: str | os.PathLike[str], format: str = "jsonl"
    ) -> RoundExport:
        """Download every example of a round (task owners) to `path`: a JSONL file (`format="jsonl"`, or
        "preferences" for a battle task) or an HF-datasets directory (`"hf_dataset"`, `datasets.load_from_disk`);
        `.to_dataset()` loads either as a `datasets.Dataset`."""
        if format not in FORMATS:
            raise ValueError(f"format must be one of {sorted(FORMATS)}, not {format!r}")
        round_id = (await self.round(task, round)).id
        answer = await self.connection.call(self.gql.export_round(round_id=round_id, format=FORMATS[format]))
        link = raise_for_result(answer.export_round)
        return await download_export(self.connection, link.url, Path(path), format)  # type: ignore[union-attr]

    async def set_round_targets(self, round_id: str, targets: Sequence[str | Mapping[str, str]]) -> RoundInfo:
        """Task owners: the round's target models. Each target is a submission's model id (an evaluated, published
        model of the task, e.g. your own) or a mapping {"name": ..., "version": ...} / {"endpoint": ...}."""
        inputs = [
            TargetModelInput(modelId=t)
            if isinstance(t, str)
            else TargetModelInput.model_validate({_camel(k): v for k, v in t.items()})
            for t in targets
        ]
        answer = await self.connection.call(
            self.gql.set_round_targets(SetRoundTargetsInput(roundId=round_id, targetModels=inputs))
        )
        return raise_for_result(answer.set_round_targets).round  # type: ignore[union-attr]


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _metric(name: str | Metric) -> Metric:
    try:
        return name if isinstance(name, Metric) else Metric(name.upper())
    except ValueError:
        raise ValueError(f"unknown metric {name!r}: one of {[m.value.lower() for m in Metric]}") from None
