"""`modelContract`: what a model of a task must declare, in words and as an example archive that passes the upload
checks (server/evaluation/archive/template.py)."""

from __future__ import annotations

import base64

import strawberry
from strawberry.types import Info

from server import permissions
from server.evaluation.archive import template
from server.graphql.core.guard import authorize
from server.graphql.tasks.visibility import visible_task
from server.tasks.service import load_config


@strawberry.type(description="One tensor of the contract.")
class ContractTensor:
    name: str
    data_type: str = strawberry.field(description="Triton's data type, as config.pbtxt spells it (e.g. TYPE_STRING).")
    dims: list[int] = strawberry.field(description="Per example; Triton adds the batch dimension.")
    meaning: str


@strawberry.type(description="The I/O contract every model of a task follows (triton_models/README.md).")
class ModelContract:
    kind: str
    inputs: list[ContractTensor] = strawberry.field(description="One UTF-8 string per field, named as the field.")
    outputs: list[ContractTensor]
    labels: list[str] = strawberry.field(description="Classification: the labels in order (probs[i] is labels[i]).")
    config_pbtxt: str = strawberry.field(
        description="A config.pbtxt that declares all of it (the `labels` parameter is required)."
    )
    example_archive_name: str
    example_archive_base64: str = strawberry.field(
        description="A zip of a trivial python-backend model that follows the contract and passes every upload check: "
        "upload it as it is, then replace its predict() with your model."
    )


def _tensors(items: list[template.Tensor]) -> list[ContractTensor]:
    return [ContractTensor(name=t.name, data_type=t.dtype, dims=t.dims, meaning=t.meaning) for t in items]


@strawberry.type
class ContractQueries:
    @strawberry.field(description="What a model for this task must declare, with an example archive that passes.")
    async def model_contract(self, info: Info, task_code: str) -> ModelContract:
        await authorize(info, permissions.read_public)
        task = await visible_task(info, task_code)
        config = load_config(task)
        contract = template.contract_of(config.kind, list(config.model_inputs), config.labels)
        archive = template.example_archive(contract, task["code"], config.answer_context_field)
        return ModelContract(
            kind=contract.kind,
            inputs=_tensors(contract.inputs),
            outputs=_tensors(contract.outputs),
            labels=contract.labels,
            config_pbtxt=contract.config_pbtxt,
            example_archive_name=template.archive_name(task["code"]),
            example_archive_base64=base64.b64encode(archive).decode("ascii"),
        )
