"""The `generative` part of a task config: how annotators talk to a generative target and how a reply is judged.
Pure domain code, no I/O (docs/task-config.md, "Generative tasks")."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from server.core.i18n import tr
from server.tasks.form_fields import IDENTIFIER, IDENTIFIER_RULE

TRITON_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,200}$")
MAX_CATEGORIES = 30
# Replies are bounded whatever a target does: the contract's cap and the stored text's.
MAX_REPLY_TOKENS = 1024
MAX_REPLY_CHARS = 16_000


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class JudgeConfig(_Strict):
    """A classifier on Triton that scores each reply (HarmBench-style): the probability of `label` is the score,
    and a reply scoring at least `threshold` means the model failed (fooled)."""

    model: str = Field(min_length=1, max_length=200)
    label: str
    threshold: float = Field(default=0.5, gt=0.0, le=1.0)
    # The judge's BYTES input tensor the reply is sent as (triton_models/README.md: the classifiers' `statement`).
    input: str = "statement"

    @field_validator("model")
    @classmethod
    def _triton_name(cls, name: str) -> str:
        if not TRITON_NAME.match(name):
            raise ValueError(tr("is not a valid Triton model name"))
        return name

    @field_validator("label", "input")
    @classmethod
    def _identifier(cls, value: str) -> str:
        if not IDENTIFIER.match(value):
            raise ValueError(IDENTIFIER_RULE)
        return value


class RatingRule(_Strict):
    """fooling `validator_rating`: validators rate each transcript in a validator field (a rating or number, always
    asked and required); a vote rating at least `threshold` says the model failed, one below says it did not, and the
    task's outcome rule (N matching votes, or reliability) decides from those votes."""

    field: str
    threshold: float

    @field_validator("field")
    @classmethod
    def _identifier(cls, value: str) -> str:
        if not IDENTIFIER.match(value):
            raise ValueError(IDENTIFIER_RULE)
        return value


MAX_CHECK_REPLIES = 200
MAX_CHECK_REPLY_CHARS = 4000


class BattleChecks(_Strict):
    """Check battles (gold; docs/design.md §4.1d): at `rate`, one side of a battle is not a model but one of the owner's
    `replies`, written to answer no prompt (off-topic, empty of content), so any reader prefers a real reply to it.
    Picking it (or a tie) is a wrong check answer; the validators' gold pause rule (`min_answers`, `threshold`) then
    pauses a voter whose check accuracy falls below the threshold: their votes leave the ratings."""

    rate: float = Field(gt=0.0, le=0.5)
    replies: list[str] = Field(min_length=1, max_length=MAX_CHECK_REPLIES)
    min_answers: int = Field(default=5, ge=1, le=1000)
    threshold: float = Field(default=0.8, ge=0.0, le=1.0)

    @field_validator("replies")
    @classmethod
    def _replies(cls, replies: list[str]) -> list[str]:
        cleaned = [reply.strip() for reply in replies]
        if any(not reply for reply in cleaned):
            raise ValueError(tr("a check reply may not be empty"))
        if any(len(reply) > MAX_CHECK_REPLY_CHARS for reply in cleaned):
            raise ValueError(tr("a check reply is at most {count} characters", count=MAX_CHECK_REPLY_CHARS))
        return cleaned


class BattleConfig(_Strict):
    """Side-by-side battles (docs/design.md §4.1d): one prompt, `sides` anonymous targets answer it, the author votes
    blind, then the names are revealed. The votes feed the task's battle leaderboard (§4.3a)."""

    sides: int = Field(default=2, ge=2, le=4)
    # Distinct targets, avoiding a set the same author already saw for the same prompt when another is left; then
    # random: any set at random; balanced: a set whose pairs met least in the round's battles so far.
    selection: str = "random"
    votes_per_user_per_day: int = Field(default=200, ge=1, le=10_000)
    allow_tie: bool = True
    allow_both_bad: bool = True
    # A rating or number field of validator_fields the author rates each side in with the vote (higher is better);
    # checked against the form in TaskConfig. None: the vote is a choice only.
    rating_field: str | None = None
    checks: BattleChecks | None = None

    @field_validator("rating_field")
    @classmethod
    def _rating_field(cls, value: str | None) -> str | None:
        if value is not None and not IDENTIFIER.match(value):
            raise ValueError(IDENTIFIER_RULE)
        return value

    @field_validator("selection")
    @classmethod
    def _selection(cls, value: str) -> str:
        if value not in ("random", "balanced"):
            raise ValueError(tr("must be 'random' or 'balanced'"))
        return value


class GenerativeConfig(BaseModel):
    # Whitespace is kept: a stop string such as "\nUser:" starts with a line break.
    model_config = ConfigDict(extra="forbid")

    # prompt: one message and one reply; chat: up to `max_turns` messages, each answered.
    mode: Literal["prompt", "chat"] = "chat"
    max_turns: int = Field(default=5, ge=1, le=50)
    # What the target is told before the conversation (a scenario); context fields named in model_inputs follow it.
    system_prompt: str = Field(default="", max_length=8000)
    # What the annotator tries to make the model do, e.g. "make the model state a false fact".
    goal: str = Field(min_length=1, max_length=2000)
    # Categories an author tags an attack with (identifiers; display names through translations' labels).
    attack_categories: list[str] = Field(default_factory=list, max_length=MAX_CATEGORIES)
    max_tokens: int = Field(default=128, ge=1, le=MAX_REPLY_TOKENS)
    # Replies of at least this many tokens (the target may not end earlier; vLLM's min_tokens). 0: no minimum.
    min_tokens: int = Field(default=0, ge=0, le=MAX_REPLY_TOKENS)
    temperature: float = Field(default=0.7, ge=0.0, le=2.0)
    stop: list[str] = Field(default_factory=list, max_length=4)
    max_message_length: int = Field(default=2000, ge=1, le=20_000)
    judge: JudgeConfig | None = None
    rating: RatingRule | None = None
    # Side-by-side battles besides conversations (startBattle / voteBattle); the round needs `battle.sides` targets.
    battle: BattleConfig | None = None

    @field_validator("attack_categories")
    @classmethod
    def _categories(cls, categories: list[str]) -> list[str]:
        if any(not IDENTIFIER.match(c) for c in categories):
            raise ValueError(tr("categories must be lowercase identifiers (a-z, 0-9, _)"))
        if len(set(categories)) != len(categories):
            raise ValueError(tr("categories must be unique"))
        return categories

    @field_validator("stop")
    @classmethod
    def _stops(cls, stops: list[str]) -> list[str]:
        if any(not 0 < len(s) <= 32 for s in stops):
            raise ValueError(tr("each stop string has 1 to 32 characters"))
        return stops

    @model_validator(mode="after")
    def _token_range(self) -> GenerativeConfig:
        if self.min_tokens > self.max_tokens:
            raise ValueError(tr("min_tokens may not exceed max_tokens"))
        return self

    @property
    def turn_limit(self) -> int:
        return 1 if self.mode == "prompt" else self.max_turns
