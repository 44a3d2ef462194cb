"""The built-in tasks: input fields, label order and the Triton model that serves each (four judged tasks and the
generative demo, `chat_demo`).

These definitions are the contract between the API's task configs, the Triton models in
``triton_models/`` and uploaded researcher models (see ``triton_models/README.md``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TaskSpec:
    name: str
    model_name: str  # directory name under triton_models/ and in the built repository
    inputs: tuple[str, ...]  # model input fields = Triton BYTES input tensor names
    labels: tuple[str, ...]  # output label order (empty for extractive QA)
    kind: str  # "classification" | "extractive_qa" | "generative"

    @property
    def num_labels(self) -> int:
        return len(self.labels)


TASKS: dict[str, TaskSpec] = {
    "sentiment": TaskSpec("sentiment", "sentiment_minilm", ("statement",), ("negative", "positive", "neutral"), "classification"),
    "nli": TaskSpec("nli", "nli_minilm", ("context", "hypothesis"), ("entailment", "neutral", "contradiction"), "classification"),
    "hate_speech": TaskSpec("hate_speech", "hate_speech_minilm", ("statement",), ("not_hateful", "hateful"), "classification"),
    "qa": TaskSpec("qa", "qa_overlap_baseline", ("context", "question"), (), "extractive_qa"),
    # A prompt in, a stream of text out (triton_models/README.md "Generative tasks"); a demo model, not a judged task.
    "chat_demo": TaskSpec("chat_demo", "generative_demo", ("text_input",), (), "generative"),
}


def get_task(name: str) -> TaskSpec:
    try:
        return TASKS[name]
    except KeyError:
        raise ValueError(f"unknown task {name!r}; expected one of {', '.join(TASKS)}") from None
