"""flagExample: the author marks an example for the task's owners, with a reason."""

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
async def flag_example(info: Info, example_id: relay.GlobalID, reason: str = "") -> ExampleChangeResult:
    viewer = await authorize_principal(info, permissions.annotate)
    row = await actions.flag_example(info.context.services, node_pk(example_id, "Example", "exampleId"), viewer, reason)
    return ExampleChanged(example=ExampleNode.from_row(row))
