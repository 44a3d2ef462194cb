"""A small real sentiment classifier for the retraining tests: multinomial naive Bayes over lower-cased words, its
counts in counts.json beside this file (train.py, in the model directory, adds examples' words to them)."""

import json
import math
import re
from pathlib import Path

import numpy as np
import triton_python_backend_utils as pb_utils

WORD = re.compile(r"[a-z']+")


def probabilities(state: dict, text: str) -> list[float]:
    labels, counts, docs = state["labels"], state["counts"], state["docs"]
    vocabulary = len({word for label in labels for word in counts[label]}) + 1
    scores = []
    for label in labels:
        total = sum(counts[label].values())
        score = math.log(docs[label] + 1)
        for word in WORD.findall(text.lower()):
            score += math.log((counts[label].get(word, 0) + 1) / (total + vocabulary))
        scores.append(score)
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    return [e / sum(exps) for e in exps]


class TritonPythonModel:
    def initialize(self, args):
        self.state = json.loads((Path(__file__).parent / "counts.json").read_text())

    def execute(self, requests):
        responses = []
        for request in requests:
            texts = pb_utils.get_input_tensor_by_name(request, "statement").as_numpy().reshape(-1)
            probs = [probabilities(self.state, t.decode("utf-8", "replace")) for t in texts]
            labels = [[self.state["labels"][int(np.argmax(p))].encode()] for p in probs]
            outputs = [
                pb_utils.Tensor("label", np.array(labels, dtype=object)),
                pb_utils.Tensor("probs", np.array(probs, dtype=np.float32)),
            ]
            responses.append(pb_utils.InferenceResponse(outputs))
        return responses
