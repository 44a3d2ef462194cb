"""Writing data in batches (contexts, examples), talking to a generative target, and reading battle ratings: the part
of `AsyncClient` for task owners, annotation scripts and generative tasks."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tqdm.auto import tqdm

from .errors import ApiError, error_of, raise_for_result
from .generated.input_types import AddContextsInput, ContextInput, CreateExampleInput, SendMessageInput
from .live import follow
from .results import BattleRatings
from .transport import NOT_IDEMPOTENT

if TYPE_CHECKING:
    from .connection import Connection
    from .generated import GeneratedClient

MAX_BATCH = 100  # the API's cap on addContexts' and submitExamples' lists
EXAMPLE_KEYS = {"context_id", "fields", "label", "answer", "answer_start", "explanation", "time_spent_ms", "client_id"}


@dataclass(frozen=True)
class ExampleOutcome:
    """One example of `create_examples`: its client id, and either the API's answer (`submitted`: verdict, example,
    predictions, duplicate) or the expected error it met (`error`, not raised: the rest of the batch went on)."""

    client_id: str
    submitted: Any = None
    error: ApiError | None = None


@dataclass(frozen=True)
class ReplyPiece:
    """A piece of a generative target's reply, as it is written: `message` is the index of the message it answers;
    the last piece of a reply has `done` and the reply's `status` (DONE, STOPPED, FAILED with `error`)."""

    message: int
    turn_id: str
    conversation_id: str
    text: str
    done: bool
    status: str
    error: str


class WritingMixin:
    connection: Connection
    gql: GeneratedClient

    async def add_contexts(self, round_id: str, contexts: Iterable[Mapping[str, Any]], *, batch_size: int = MAX_BATCH) -> int:
        """Task owners: add contexts to a round in batches, with a progress bar; each item is {"fields": {...},
        "tag": ...} or the fields themselves. Returns how many were added. A batch cut off mid-way is not retried
        (contexts carry no client id: it could be added twice)."""
        items = [
            ContextInput(fields=c["fields"], tag=c.get("tag")) if "fields" in c else ContextInput(fields=dict(c))
            for c in contexts
        ]
        added = 0
        for batch in self._batches(items, batch_size, f"contexts → {round_id}"):
            answer = await self.connection.call(
                self.gql.add_contexts(AddContextsInput(roundId=round_id, contexts=batch), extensions={NOT_IDEMPOTENT: True})
            )
            added += raise_for_result(answer.add_contexts).count  # type: ignore[union-attr]
        return added

    async def create_examples(
        self, round_id: str, examples: Iterable[Mapping[str, Any]], *, batch_size: int = 50
    ) -> list[ExampleOutcome]:
        """Write examples in batches (`submitExamples`), with a progress bar. Each is {"context_id", "fields", "label"
        (or "answer", "answer_start"), optional "explanation", "time_spent_ms", "client_id"}. Each example gets its
        client UUID once, before anything is sent (or keeps the one given), so a retried batch stores nothing twice.
        Expected errors are returned per example (`ExampleOutcome.error`), not raised."""
        inputs: list[CreateExampleInput] = []
        for n, example in enumerate(examples):
            unknown = set(example) - EXAMPLE_KEYS
            if unknown or "context_id" not in example or "fields" not in example:
                raise ValueError(f"example {n}: needs context_id and fields; unknown keys {sorted(unknown)}")
            values = {k: v for k, v in example.items() if k != "client_id"}
            client_id = str(example.get("client_id") or uuid.uuid4())
            inputs.append(CreateExampleInput(roundId=round_id, clientId=uuid.UUID(client_id), **_aliases(values)))
        outcomes: list[ExampleOutcome] = []
        for batch in self._batches(inputs, batch_size, f"examples → {round_id}"):
            answer = await self.connection.call(self.gql.submit_examples(batch))
            for sent, result in zip(batch, answer.submit_examples):
                error = error_of(result)
                outcomes.append(ExampleOutcome(str(sent.client_id), None if error else result, error))
        return outcomes

    def _batches(self, items: Sequence[Any], size: int, label: str) -> Iterable[list[Any]]:
        if not 1 <= size <= MAX_BATCH:
            raise ValueError(f"batch_size must be 1 to {MAX_BATCH}, not {size}")
        with tqdm(total=len(items), desc=label, unit="item", disable=not self.connection.progress) as bar:
            for start in range(0, len(items), size):
                batch = list(items[start : start + size])
                yield batch
                bar.update(len(batch))

    async def chat(
        self, round_id: str, messages: str | Sequence[str], *, context_id: str | None = None, conversation_id: str | None = None
    ) -> AsyncIterator[ReplyPiece]:
        """Talk to a generative round's target: each message is sent (one conversation; a new one unless
        `conversation_id`) and its reply streamed piece by piece as it is written. Stops after a reply that did not end
        DONE (its last piece says why)."""
        if isinstance(messages, str):
            messages = [messages]
        if context_id is None and conversation_id is None:
            context_id = (await self.connection.call(self.gql.next_context(round_id=round_id))).next_context.id
        for index, message in enumerate(messages):
            client_id = uuid.uuid4()  # once per message: a retried send returns the same turn
            sent = await self.connection.call(
                self.gql.send_message(
                    SendMessageInput(
                        roundId=round_id,
                        contextId=context_id or "",
                        conversationId=conversation_id,
                        clientId=client_id,
                        message=message,
                    )
                )
            )
            turn = raise_for_result(sent.send_message)
            conversation_id, turn_id = turn.conversation.id, turn.turn.id  # type: ignore[union-attr]
            last = None
            async for piece in self._reply(index, conversation_id, turn_id):
                last = piece
                yield piece
            if last is None or last.status != "DONE":
                return

    async def _reply(self, index: int, conversation_id: str, turn_id: str) -> AsyncIterator[ReplyPiece]:
        received = [""]  # the reply's text so far (a reconnected stream starts with all of it again)

        async def stream() -> AsyncIterator[ReplyPiece]:
            first = True
            async for event in self.connection.stream(self.gql.reply_stream(turn_id=turn_id)):
                chunk = event.reply_stream
                text = chunk.text[len(received[0]) :] if first and chunk.text.startswith(received[0]) else chunk.text
                first = False
                received[0] += text
                yield ReplyPiece(index, turn_id, conversation_id, text, chunk.done, chunk.status.value, chunk.error)

        async for piece in follow(stream):
            yield piece
            if piece.done:
                return

    async def battle_leaderboard(self, task: str, round_id: str | None = None) -> BattleRatings:
        """Ratings of a generative task's targets from its battles (or one round's), with their 95% intervals."""
        board = (await self.connection.call(self.gql.battle_leaderboard(task_code=task, round_id=round_id))).battle_leaderboard
        return BattleRatings(
            models=[m.model_dump() for m in board.models],
            win_rate=board.win_rate,
            votes=board.votes,
            counted_ballots=board.counted_ballots,
            flagged_voters=board.flagged_voters,
            raw=board,
        )

    async def battle(self, battle_id: str) -> Any:
        """One of your battles: its prompt, sides (their models named once voted) and vote."""
        return (await self.connection.call(self.gql.battle(id=battle_id))).battle


def _aliases(values: Mapping[str, Any]) -> dict[str, Any]:
    names = {"context_id": "contextId", "answer_start": "answerStart", "time_spent_ms": "timeSpentMs"}
    return {names.get(k, k): v for k, v in values.items()}
