"""submitExamples: the PWA's offline outbox, up to 100 examples at once, one result each."""

from __future__ import annotations

from strawberry.types import Info

from server.core.errors import FieldProblem, invalid
from server.core.i18n import tr
from server.graphql.annotation.mutations.create_example import CreateExampleInput, CreateExampleResult, ExampleSubmitted, create
from server.graphql.core.errors import error_from_service, mutation, result_of
from server.observability.metrics import count_outbox_batch

MAX_BATCH = 100


@mutation(description="The offline outbox: up to 100 examples, one result each, idempotent on clientId.")
async def submit_examples(info: Info, inputs: list[CreateExampleInput]) -> list[CreateExampleResult]:
    if len(inputs) > MAX_BATCH:
        error = invalid(tr("At most {max} examples per batch.", max=MAX_BATCH), FieldProblem("inputs", tr("too many")))
        count_outbox_batch(["error"] * len(inputs))
        return [error_from_service(error)] * len(inputs)
    results = []
    for data in inputs:  # in order: a client's outbox is replayed in the order it was written
        if data.sandbox:
            results.append(
                error_from_service(invalid(tr("Sandbox examples are not batched."), FieldProblem("sandbox", tr("must be false"))))
            )
            continue
        results.append(await result_of(lambda data=data: create(info, data)))
    count_outbox_batch([_outbox_result(r) for r in results])
    return results


def _outbox_result(result: object) -> str:
    if isinstance(result, ExampleSubmitted):
        return "duplicate" if result.duplicate else "new"
    return "error"
