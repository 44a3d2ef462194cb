"""`Round.offlineModel` (docs/design.md, "A verdict even offline"): the files of the round's target model's offline export (int8 ONNX +
tokenizer), which the PWA downloads to give provisional verdicts while offline. Null when the round's target has no
export (the QA baseline, researchers' submissions) or the server has no model repository."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import strawberry
from strawberry.types import Info

from server.offline.files import read_export


@strawberry.type(description="One file of an offline model: fetch `url` (same origin) and check its sha256.")
class OfflineModelFile:
    name: str
    url: str
    sha256: str
    bytes: int


@strawberry.type(
    description="A target model the PWA can run in the browser (onnxruntime-web) for a provisional verdict while "
    "offline; the server's verdict stays the final one."
)
class OfflineModel:
    name: str
    version: str
    labels: list[str] = strawberry.field(description="The model's output order (the task's labels).")
    inputs: list[str] = strawberry.field(description="The task fields the model reads, in order.")
    input_names: list[str] = strawberry.field(description="The ONNX graph's input tensors.")
    max_length: int = strawberry.field(description="Tokens kept per example (longest-first truncation).")
    files: list[OfflineModelFile]


def round_offline_model(info: Info, targets: list[Any]) -> OfflineModel | None:
    repository = info.context.services.settings.target_model_repository
    if not repository or not targets:
        return None
    target = targets[0]  # the round's (first) target model judges a writer's example
    if target.model_id is not None:
        return None
    found = read_export(Path(repository), target.name, target.version)
    if found is None:
        return None
    return OfflineModel(
        name=found.name,
        version=found.version,
        labels=found.labels,
        inputs=found.inputs,
        input_names=found.input_names,
        max_length=found.max_length,
        files=[OfflineModelFile(name=f.name, url=f.url, sha256=f.sha256, bytes=f.bytes) for f in found.files],
    )
