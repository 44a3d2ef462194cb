"""The author's claim that the model got an `ask_user` example wrong: may it be stored now (docs/design.md §4.1).

Pure, no I/O.

With fooling `ask_user` no metric judges the model's output: the example waits (`awaiting_claim`) until its
author says whether the model got it wrong; the claim becomes the example's `fooled`, once, and validators
confirm or reject it like any other example (a confirmed claim is a validated fooling example, §4.3).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from server.annotation.records import ExampleStatus
from server.core.i18n import tr

ACCEPT: Literal["accept"] = "accept"
REPEAT: Literal["repeat"] = "repeat"  # the same client UUID again: answer with the stored claim, write nothing
REFUSED: Literal["refused"] = "refused"


@dataclass(frozen=True)
class ClaimCheck:
    outcome: Literal["accept", "repeat", "refused"]
    message: str = ""  # why, when refused


def check_claim(example: Mapping[str, Any], client_id: uuid.UUID) -> ClaimCheck:
    """Whether the author's claim with this client UUID may be stored on `example` (a row of `examples`)."""
    stored = example.get("claim_client_id")
    if stored is not None and stored == client_id:
        return ClaimCheck(REPEAT)
    if example["retracted"]:
        return ClaimCheck(REFUSED, tr("This example was retracted."))
    if stored is not None:
        return ClaimCheck(REFUSED, tr("You have already said whether the model got this example wrong."))
    if example["status"] == ExampleStatus.PENDING:
        return ClaimCheck(REFUSED, tr("The model has not answered yet: say whether it got it wrong once its answer is shown."))
    if example["status"] != ExampleStatus.AWAITING_CLAIM:
        return ClaimCheck(REFUSED, tr("The task's metric judged this example: there is nothing to claim."))
    return ClaimCheck(ACCEPT)


_AFTER_VALIDATION = {
    ExampleStatus.VALIDATED: tr("Validators confirmed it: you fooled the model!"),
    ExampleStatus.REJECTED: tr("Validators did not confirm that the model got it wrong."),
    ExampleStatus.FLAGGED: tr("Validators sent it to the task's owners for review."),
}


def claim_message(model_was_wrong: bool, status: str) -> str:
    """What the author reads about their stored claim, given the example's status now."""
    if not model_was_wrong:
        return tr("Noted: the model got it right. Try again?")
    return _AFTER_VALIDATION.get(
        ExampleStatus(status), tr("You say the model got it wrong: it counts as fooling it once validators confirm.")
    )
