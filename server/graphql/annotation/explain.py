"""`explainPrediction`: per-word attributions of the round's target model for a draft example (nothing is stored)."""

from __future__ import annotations

import strawberry
from strawberry import relay
from strawberry.scalars import JSON
from strawberry.types import Info

from server import permissions
from server.annotation.examples.explain_prediction import explain_prediction
from server.graphql.annotation.types import ModelPrediction
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import node_pk


@strawberry.type
class TokenAttribution:
    field: str = strawberry.field(description="The input field the piece is in.")
    text: str = strawberry.field(description="A word or punctuation mark (a run of them in a long text).")
    start: int = strawberry.field(description="Its first character's offset in the field's text.")
    end: int = strawberry.field(description="The offset just after its last character.")
    attribution: float = strawberry.field(
        description="How much the model's support for its answer falls without this piece (probability of its label, "
        "or confidence in its answer): positive pieces backed the answer, negative ones pulled the other way."
    )


@strawberry.type
class PredictionExplanation:
    prediction: ModelPrediction = strawberry.field(description="The model's answer to the draft as written.")
    tokens: list[TokenAttribution]
    model_calls: int = strawberry.field(description="Batched requests the explanation took (1 for up to 64 rows).")


@strawberry.type
class ExplainQueries:
    @strawberry.field(
        description="Which words of a draft example moved the round's target model: each word (or run of words in a "
        "long text) of the model inputs you write is left out in turn, all in one batched model call. Nothing is "
        "stored; rate-limited per account and address. `contextId` is needed when the model also reads the context."
    )
    async def explain_prediction(
        self, info: Info, round_id: relay.GlobalID, fields: JSON, context_id: relay.GlobalID | None = None
    ) -> PredictionExplanation:
        viewer = await authorize_principal(info, permissions.annotate)
        context = info.context
        explained = await explain_prediction(
            context.services,
            viewer.user_id,
            node_pk(round_id, "Round", "roundId"),
            node_pk(context_id, "Context", "contextId") if context_id is not None else None,
            fields,
            context.client_address(),
        )
        return PredictionExplanation(
            prediction=ModelPrediction.from_output(explained.model_name, explained.model_version, explained.output),
            tokens=[
                TokenAttribution(field=p.field, text=p.text, start=p.start, end=p.end, attribution=a)
                for p, a in zip(explained.pieces, explained.attributions, strict=True)
            ],
            model_calls=explained.model_calls,
        )
