"""The perturbation search against the round's real target (search.py is pure; this passes it the target through the
ordinary batched prediction path, server/core/inference.py, as explainPrediction does)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from server.annotation.suggestions import search
from server.core.errors import ServiceError
from server.core.i18n import tr
from server.core.inference import ModelUnavailable, predict_batch
from server.core.services import Services
from server.core.target_models import model_info, serving_client
from server.tasks.config import TaskConfig

BATCH_ROWS = 64  # the built-in targets' max_batch_size
VOCABULARY = 3  # words of the context tried in place of a word the target leans on
_WORD = re.compile(r"[^\W\d_]{4,}")


def vocabulary(context_fields: Mapping[str, Any], draft: str) -> list[str]:
    """The context's most frequent longer words that the draft does not use: neighbouring words of the task's own
    material, offline (no thesaurus is installed here)."""
    used = {w.lower() for w in _WORD.findall(draft)}
    counts = Counter(w.lower() for value in context_fields.values() if isinstance(value, str) for w in _WORD.findall(value))
    return [w for w, _n in counts.most_common() if w not in used and w not in search.STOPWORDS][:VOCABULARY]


async def perturb(
    services: Services,
    config: TaskConfig,
    target: Mapping[str, Any],
    model_fields: Mapping[str, str],
    field_name: str,
    *,
    context_fields: Mapping[str, Any],
) -> search.Result:
    """Search edits of `model_fields[field_name]` (the author's draft) against `target`; MODEL_UNAVAILABLE when it
    cannot answer."""
    name, version = str(target["name"]), str(target.get("version") or "")
    client = serving_client(services, name)
    draft = model_fields[field_name]

    async def predict(texts: Sequence[str]) -> list[search.Judged]:
        rows = [{**model_fields, field_name: text} for text in texts]
        outputs: list[dict[str, Any]] = []
        for start in range(0, len(rows), per_call):
            batch = rows[start : start + per_call]
            outputs += await predict_batch(client, config, name, batch, services.settings.triton_timeout_s, version)
        return [search.Judged(str(o.get("label")), dict(o.get("probs") or {})) for o in outputs]

    try:
        per_call = max(1, min((await model_info(client, name, version)).get("max_batch_size") or BATCH_ROWS, BATCH_ROWS))
        return await search.search(
            draft,
            predict,
            budget=config.suggestions.query_budget,
            vocabulary=vocabulary(context_fields, draft),
            want=3,
        )
    except ModelUnavailable:
        raise ServiceError("MODEL_UNAVAILABLE", tr("The model could not answer just now. Try again shortly.")) from None
