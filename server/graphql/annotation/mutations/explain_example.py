"""explainExample: the author says (after the fact) why the example should fool the model."""

from __future__ import annotations

from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation.examples import actions
from server.graphql.annotation.types import ExampleChanged, ExampleChangeResult, ExampleNode
from server.graphql.core.errors import mutation
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import node_pk


@mutation()
async def explain_example(info: Info, example_id: relay.GlobalID, explanation: str) -> ExampleChangeResult:
    viewer = await authorize_principal(info, permissions.annotate)
    row = await actions.explain_example(info.context.services, node_pk(example_id, "Example", "exampleId"), viewer, explanation)
    return ExampleChanged(example=ExampleNode.from_row(row))
