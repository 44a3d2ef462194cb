"""The annotation domain's tables: examples, votes on them, per-user counters, validation claims, and conversations
with a generative target (one row per conversation, one per exchange: the author's message and the target's reply;
submitted, a conversation becomes an example whose input is its transcript), and side-by-side battles (one prompt,
one conversation per side, one blind vote)."""

from piccolo.columns import JSONB, UUID, Boolean, DoublePrecision, Float, ForeignKey, Integer, Text, Timestamptz, Varchar
from piccolo.columns.defaults.timestamptz import TimestamptzNow
from piccolo.constraints import Unique
from piccolo.table import Table

from server.accounts.tables import User
from server.annotation.records import BattleChoice, ExampleStatus, ReplyStatus, ValidationLabel, ValidationMode
from server.tasks.tables import Context, Round


class Example(Table, tablename="examples"):
    # Client-generated: a retried submission finds the first one instead of writing twice.
    client_id = UUID(unique=True)
    round = ForeignKey(Round, index=True)
    context = ForeignKey(Context, index=True)
    user = ForeignKey(User, index=True)  # examples_user is ("user", id) since the 2026-11-24 migration
    input = JSONB()
    model_output = JSONB(null=True, default=None)
    model_name = Varchar(length=200, default="")
    model_version = Varchar(length=200, default="")  # a Triton version, or an endpoint's model id
    fooled = Boolean(null=True, default=None)  # null while the model has not answered (ask_user: the author)
    # pending (model not answered) | awaiting_claim (ask_user: the author says) | open (awaiting validation) | closed
    # | validated | rejected | flagged
    status = Varchar(length=16, default=ExampleStatus.PENDING, index=True, choices=ExampleStatus)
    retracted = Boolean(default=False)
    flagged = Boolean(default=False)
    flag_reason = Text(default="")
    explanation = Text(default="")
    time_spent_ms = Float(null=True, default=None)
    # While pending: why the model did not answer, and when the worker should ask again (backoff).
    pending_reason = Text(default="")
    check_attempts = Integer(default=0)
    next_check_at = Timestamptz(null=True, default=None)
    created_at = Timestamptz(default=TimestamptzNow())
    # fooling ask_user: the client UUID of the author's claim (then `fooled` is the claim); a retried claim finds it.
    claim_client_id = UUID(null=True, default=None)
    # The client UUID of the author's follow-up answers (fields asked after the verdict, joined to `input`): once.
    follow_up_client_id = UUID(null=True, default=None)
    # Written from a suggestion (docs/design.md §4.1e): {suggestion_id, kind, source, version, edited}; null otherwise.
    assisted_by = JSONB(null=True, default=None)


class Validation(Table, tablename="validations"):
    example = ForeignKey(Example, index=True)
    user = ForeignKey(User, index=True)
    label = Varchar(length=16, choices=ValidationLabel)
    mode = Varchar(length=8, default=ValidationMode.USER, choices=ValidationMode)
    note = Text(default="")
    fields = JSONB(default="{}")  # the task's validator fields answered with this vote (docs/task-config.md)
    # Set by the aggregation job once this vote is reflected in the example's outcome; a sweeper
    # re-aggregates examples with unaggregated votes, so a lost job or a killed worker loses nothing.
    aggregated = Boolean(default=False)
    created_at = Timestamptz(default=TimestamptzNow())
    validations_unique_example_user = Unique(["example", "user"])


class UserRoundStats(Table, tablename="user_round_stats"):
    """Per-user counters for one round; kept in step by writes, recomputable from rows by a job."""

    user = ForeignKey(User, index=True)
    round = ForeignKey(Round, index=True)
    submitted = Integer(default=0)
    fooled = Integer(default=0)  # not retracted
    fooled_rejected = Integer(default=0)  # fooled, not retracted, rejected by validators
    retracted = Integer(default=0)
    validations_done = Integer(default=0)
    user_round_stats_unique_user_round = Unique(["user", "round"])


class ValidationClaim(Table, tablename="validation_claims"):
    """An example handed to a validator, so that others are handed different ones meanwhile."""

    example = ForeignKey(Example, index=True)
    user = ForeignKey(User)
    expires_at = Timestamptz()
    validation_claims_unique_example_user = Unique(["example", "user"])


class Conversation(Table, tablename="conversations"):
    # The client UUID of its first message: a retried first message finds the conversation it started.
    client_id = UUID(unique=True)
    round = ForeignKey(Round, index=True)
    context = ForeignKey(Context)
    user = ForeignKey(User, index=True)
    # The target it talks to, chosen once: {"name", "version", "endpoint"?}; every reply comes from it.
    target = JSONB()
    # The generation parameters every reply is asked with (server/generation/params.py `stored`).
    params = JSONB()
    example = ForeignKey(Example, null=True, default=None)
    created_at = Timestamptz(default=TimestamptzNow())


class ConversationTurn(Table, tablename="conversation_turns"):
    conversation = ForeignKey(Conversation, index=True)
    position = Integer()  # 0, 1, ...: the exchange's place in the conversation
    client_id = UUID(unique=True)  # of the message: sendMessage retried finds this turn
    message = Text()
    reply = Text(default="")
    status = Varchar(length=16, choices=ReplyStatus, default=ReplyStatus.GENERATING)
    error = Text(default="")  # why the reply failed, readable by its author
    model_name = Varchar(length=200, default="")
    model_version = Varchar(length=200, default="")
    # Earlier attempts at this reply (failed or stopped, then retried): nothing streamed is ever dropped.
    attempts = JSONB(default="[]")
    judge_score = Float(null=True, default=None)
    judge_model = Varchar(length=200, default="")
    started_at = Timestamptz(default=TimestamptzNow())
    finished_at = Timestamptz(null=True, default=None)
    conversation_turns_unique_position = Unique(["conversation", "position"])


class Battle(Table, tablename="battles"):
    """One prompt answered side by side by 2–4 anonymous targets (docs/design.md §4.1d)."""

    client_id = UUID(unique=True)  # startBattle retried finds this battle
    round = ForeignKey(Round, index=True)
    context = ForeignKey(Context)
    user = ForeignKey(User, index=True)  # its author, the only voter
    prompt = Text()
    created_at = Timestamptz(default=TimestamptzNow())
    # A check battle (gold): the position of its check side, an owner's reply no model wrote (battles/checks.py).
    check_position = Integer(null=True, default=None)


class BattleSide(Table, tablename="battle_sides"):
    """A side of a battle: a conversation of one exchange with that side's target (its reply streams like a chat's)."""

    battle = ForeignKey(Battle, index=True)
    position = Integer()  # 0, 1, ...: shown as A, B, ...
    conversation = ForeignKey(Conversation, unique=True)
    # The author's rating of this side on the task's form (generative.battle.rating_field), stored with the vote.
    rating = DoublePrecision(null=True, default=None)
    battle_sides_unique_position = Unique(["battle", "position"])


class BattleVote(Table, tablename="battle_votes"):
    battle = ForeignKey(Battle, unique=True)  # one vote per battle, by its author
    user = ForeignKey(User, index=True)
    choice = Varchar(length=16, choices=BattleChoice)
    client_id = UUID(unique=True)  # voteBattle retried finds this vote
    created_at = Timestamptz(default=TimestamptzNow())


class BattleContinuation(Table, tablename="battle_continuations"):
    """After the vote, the side the author goes on talking to: its conversation becomes an ordinary one (§4.1d)."""

    battle = ForeignKey(Battle, unique=True)  # one side per battle
    position = Integer()
    user = ForeignKey(User)
    client_id = UUID(unique=True)  # continueBattle retried finds this row
    created_at = Timestamptz(default=TimestamptzNow())


class Suggestion(Table, tablename="suggestions"):
    """A candidate example issued to an author ("inspire me", docs/design.md §4.1e), kept so that an example's claim
    to have been assisted, and whether it was edited, is checked against what was really issued."""

    request_id = UUID()  # the request's client UUID: a retried request answers the same suggestions
    position = Integer()
    user = ForeignKey(User, index=True)
    round = ForeignKey(Round, index=True)
    context = ForeignKey(Context)
    kind = Varchar(length=16)  # generator | perturbation
    source = Varchar(length=200)  # the generator's name ("endpoint:<name>" for an endpoint), or the target's
    source_version = Varchar(length=200, default="")
    fields = JSONB()  # the input fields it fills, e.g. {"statement": "..."} ({"message": "..."}: a chat's opening)
    label = Varchar(length=64, null=True, default=None)  # the label a generator meant, when it gave one
    prediction = JSONB(null=True, default=None)  # perturbation: the target's label, confidence, flipped, edits
    created_at = Timestamptz(default=TimestamptzNow())
    suggestions_unique_request_position = Unique(["request_id", "position"])


class AdversaryRun(Table, tablename="adversary_runs"):
    """An unattended run of a task's generator against a round's target (docs/design.md §4.1f): its examples are the
    machine account's, marked `assisted_by {kind: machine, run}`; what it produced is counted from them, not here."""

    client_id = UUID(unique=True)  # startAdversaryRun retried finds this run
    round = ForeignKey(Round, index=True)
    task = Integer(index=True)  # one queued or running run per task (a partial unique index, migration 2027-01-10)
    started_by = ForeignKey(User, index=True)  # the owner: their rate limit and LLM endpoint budgets count it
    requested = Integer()
    status = Varchar(length=16, default="queued")  # queued | running | done | failed | cancelled
    generator = Varchar(length=200, default="")
    error = Text(default="")  # failed: why, readable by the owner
    refused = Integer(default=0)  # candidates not written (empty, too long, near-duplicates): informational
    created_at = Timestamptz(default=TimestamptzNow())
    started_at = Timestamptz(null=True, default=None)
    finished_at = Timestamptz(null=True, default=None)
