"""`Client`: the same operations as `AsyncClient` for plain (blocking) code.

It never calls `asyncio.run`: an `AsyncClient` runs on an event loop in a thread of its own, and each method waits for
its answer there, so `Client` works the same in scripts and inside a running event loop (Jupyter) without nest_asyncio.
Live iterators (`round_stats`, `chat`, the list walkers) become ordinary iterators."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from .client_async import AsyncClient
from .generated.fragments import ModelInfo, RoundInfo, TrainingRunInfo
from .results import BattleRatings, Leaderboard, ModelResults, RoundExport
from .transport import RetryPolicy
from .writing import ExampleOutcome, ReplyPiece

T = TypeVar("T")


class Client:
    """`Client(api_url, token)`; the token defaults to $DYNABENCH_TOKEN. Close it (`with Client(...) as client:` or
    `client.close()`) to stop its thread. Every method is documented on `AsyncClient`."""

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
        self.aio = AsyncClient(api_url, token, timeout=timeout, retry=retry, progress=progress, locale=locale)
        self.gql = self.aio.gql  # the generated client: `client.run(client.gql.me())`
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="dynabench-client", daemon=True)
        self._thread.start()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._loop.is_closed():
            return
        self.run(self.aio.aclose())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    def run(self, awaitable: Awaitable[T]) -> T:
        """The awaitable's result, awaited on the client's own loop (any awaitable of `client.gql` or `client.aio`)."""
        if threading.current_thread() is self._thread:
            raise RuntimeError("Client's methods block: inside its own loop, use client.aio (the AsyncClient) instead")
        if self._loop.is_closed():
            raise RuntimeError("this Client is closed")

        async def wrapped() -> T:
            return await awaitable

        future = asyncio.run_coroutine_threadsafe(wrapped(), self._loop)
        try:
            return future.result()
        except KeyboardInterrupt:
            future.cancel()
            raise

    def _iterate(self, make: Callable[[], AsyncIterator[T]]) -> Iterator[T]:
        async def start() -> AsyncIterator[T]:
            return make()

        iterator = self.run(start())
        try:
            while True:
                try:
                    yield self.run(anext(iterator))
                except StopAsyncIteration:
                    return
        finally:
            if not self._loop.is_closed():
                self.run(iterator.aclose())  # type: ignore[attr-defined]

    # --- reading
    @classmethod
    def log_in(cls, api_url: str, username: str, password: str, **options: Any) -> Client:
        """A client signed in as this account (see AsyncClient.log_in)."""
        with cls(api_url, "", **options) as anonymous:
            token = anonymous.run(anonymous.aio.session_token(username, password))
        return cls(api_url, token, **options)

    def create_api_token(self, name: str, scopes: Sequence[str] = ("READ",)) -> str:
        return self.run(self.aio.create_api_token(name, scopes))

    def me(self) -> Any:
        return self.run(self.aio.me())

    def walk(self, fetch: Callable[[str | None], Awaitable[Any]]) -> Iterator[Any]:
        return self._iterate(lambda: self.aio.walk(fetch))

    def tasks(self) -> Iterator[Any]:
        return self._iterate(self.aio.tasks)

    def rounds(self, task: str) -> Iterator[RoundInfo]:
        return self._iterate(lambda: self.aio.rounds(task))

    def contexts(self, round_id: str) -> Iterator[Any]:
        return self._iterate(lambda: self.aio.contexts(round_id))

    def round(self, task: str, round: int | str | None = None) -> RoundInfo:
        return self.run(self.aio.round(task, round))

    def round_state(self, round_id: str) -> RoundInfo:
        return self.run(self.aio.round_state(round_id))

    def round_stats(self, round_id: str) -> Iterator[RoundInfo]:
        return self._iterate(lambda: self.aio.round_stats(round_id))

    # --- models
    def submit_model(
        self,
        path_or_archive: str | os.PathLike[str] | bytes,
        task: str,
        name: str,
        card: Mapping[str, str] | None = None,
        *,
        anonymous: bool = False,
    ) -> ModelInfo:
        return self.run(self.aio.submit_model(path_or_archive, task, name, card, anonymous=anonymous))

    def model(self, model_id: str) -> ModelInfo:
        return self.run(self.aio.model(model_id))

    def wait_for_evaluation(
        self, model_id: str, timeout: float | None = None, on_update: Callable[[ModelInfo], None] | None = None
    ) -> ModelResults:
        return self.run(self.aio.wait_for_evaluation(model_id, timeout, on_update))

    def results(self, model_id: str) -> ModelResults:
        return self.run(self.aio.results(model_id))

    def publish_model(self, model_id: str, published: bool = True) -> ModelInfo:
        return self.run(self.aio.publish_model(model_id, published))

    def leaderboard(
        self,
        task: str,
        metric_weights: Mapping[str, float] | None = None,
        dataset_weights: Mapping[str, float] | None = None,
        config_name: str | None = None,
    ) -> Leaderboard:
        return self.run(self.aio.leaderboard(task, metric_weights, dataset_weights, config_name))

    # --- rounds and data
    def export_round(
        self, task: str, round: int | str | None, path: str | os.PathLike[str], format: str = "jsonl"
    ) -> RoundExport:
        return self.run(self.aio.export_round(task, round, path, format))

    def set_round_targets(self, round_id: str, targets: Sequence[str | Mapping[str, str]]) -> RoundInfo:
        return self.run(self.aio.set_round_targets(round_id, targets))

    def add_contexts(self, round_id: str, contexts: Iterable[Mapping[str, Any]], *, batch_size: int = 100) -> int:
        return self.run(self.aio.add_contexts(round_id, contexts, batch_size=batch_size))

    def create_examples(
        self, round_id: str, examples: Iterable[Mapping[str, Any]], *, batch_size: int = 50
    ) -> list[ExampleOutcome]:
        return self.run(self.aio.create_examples(round_id, examples, batch_size=batch_size))

    # --- retraining the target model
    def train_target_model(
        self,
        task: str,
        rounds: Sequence[int] = (),
        *,
        base_model: str = "",
        profile: str = "full",
        scoring_tolerance: float = 0.01,
        min_held_out: int = 30,
        include_agreed: bool = True,
    ) -> TrainingRunInfo:
        return self.run(
            self.aio.train_target_model(
                task,
                rounds,
                base_model=base_model,
                profile=profile,
                scoring_tolerance=scoring_tolerance,
                min_held_out=min_held_out,
                include_agreed=include_agreed,
            )
        )

    def cancel_training_run(self, run_id: str) -> TrainingRunInfo:
        return self.run(self.aio.cancel_training_run(run_id))

    def override_training_gate(self, run_id: str, reason: str) -> TrainingRunInfo:
        return self.run(self.aio.override_training_gate(run_id, reason))

    def training_run(self, run_id: str) -> TrainingRunInfo:
        return self.run(self.aio.training_run(run_id))

    def training_updates(self, run_id: str) -> Iterator[TrainingRunInfo]:
        return self._iterate(lambda: self.aio.training_updates(run_id))

    def wait_for_training(
        self, run_id: str, timeout: float | None = None, on_update: Callable[[TrainingRunInfo], None] | None = None
    ) -> TrainingRunInfo:
        return self.run(self.aio.wait_for_training(run_id, timeout, on_update))

    # --- generative tasks
    def chat(
        self, round_id: str, messages: str | Sequence[str], *, context_id: str | None = None, conversation_id: str | None = None
    ) -> Iterator[ReplyPiece]:
        return self._iterate(lambda: self.aio.chat(round_id, messages, context_id=context_id, conversation_id=conversation_id))

    def battle_leaderboard(self, task: str, round_id: str | None = None) -> BattleRatings:
        return self.run(self.aio.battle_leaderboard(task, round_id))

    def battle(self, battle_id: str) -> Any:
        return self.run(self.aio.battle(battle_id))
