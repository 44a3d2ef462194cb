"""GraphQL shapes of side-by-side battles (server/annotation/battles/) and their leaderboard. A side's model is null
until the battle's vote: nothing a reader gets before it names a model (the sides' conversations are not readable as
conversations, and their turns and reply streams carry no model name or version)."""

from __future__ import annotations

from datetime import datetime
from enum import Enum

import strawberry
from strawberry import relay

from server.annotation.battles.leaderboard import Board
from server.annotation.battles.service import BattleView
from server.annotation.records import BattleChoice as DomainBattleChoice
from server.annotation.records import ReplyStatus as DomainReplyStatus
from server.battles.voters import PositionShare as DomainPositionShare
from server.graphql.annotation.conversation_types import ReplyStatus


@strawberry.enum(description="A battle's vote: the side that answered better (A, B, C, D), a tie, or all sides bad.")
class BattleChoice(Enum):
    A = "a"
    B = "b"
    C = "c"
    D = "d"
    TIE = "tie"
    BOTH_BAD = "both_bad"


@strawberry.type(description="One side of a battle: its reply, and its model once the battle is voted.")
class BattleSide:
    label: str = strawberry.field(description="A, B, C or D: the side's place, and its vote choice.")
    turn_id: relay.GlobalID = strawberry.field(description="Subscribe to replyStream(turnId) for the side's reply.")
    reply: str = strawberry.field(description="Plain text: render it as text, never as HTML or markdown.")
    status: ReplyStatus
    error: str
    model_name: str | None = strawberry.field(description="Null until the battle is voted.")
    model_version: str | None = strawberry.field(description="Null until the battle is voted.")
    rating: float | None = strawberry.field(
        description="The author's rating of this side on the task's form (Battle.ratingField), given with the vote."
    )
    continuable: bool = strawberry.field(
        description="After the vote: its author may go on talking to this side (continueBattle): a side they preferred."
    )
    conversation_id: relay.GlobalID | None = strawberry.field(
        description="Once continued (continueBattle): the side's conversation, an ordinary one; null otherwise."
    )
    check: bool | None = strawberry.field(
        description="Null until the battle is voted; then true for a check side: a reply no model wrote, which the "
        "task mixes in to check that votes follow the answers (docs/design.md §4.1d)."
    )


@strawberry.type(description="The author's vote on a battle.")
class BattleVote:
    choice: BattleChoice
    created_at: datetime


@strawberry.type(description="A prompt answered side by side by anonymous targets, voted blind by its author.")
class Battle:
    id: relay.GlobalID
    round_id: relay.GlobalID
    context_id: relay.GlobalID
    prompt: str
    created_at: datetime
    sides: list[BattleSide]
    choices: list[BattleChoice] = strawberry.field(description="What a vote on it may say (the task allows tie, both bad).")
    votable: bool = strawberry.field(description="Every reply has ended and there is no vote yet.")
    vote: BattleVote | None = strawberry.field(description="Null until voted; then the sides name their models.")
    rating_field: str | None = strawberry.field(
        description="The task's validator field each side is rated in with the vote (generative.battle.rating_field); "
        "null when the task rates no side."
    )

    @classmethod
    def from_view(cls, view: BattleView) -> Battle:
        battle, revealed = view.battle, view.vote is not None
        return cls(
            id=relay.GlobalID("Battle", str(battle["id"])),
            round_id=relay.GlobalID("Round", str(battle["round"])),
            context_id=relay.GlobalID("Context", str(battle["context"])),
            prompt=battle["prompt"],
            created_at=battle["created_at"],
            sides=[_side(view, side, revealed) for side in view.sides],
            choices=[BattleChoice(c.value) for c in view.choices],
            votable=view.ended and not revealed,
            vote=None
            if view.vote is None
            else BattleVote(
                choice=BattleChoice(DomainBattleChoice(view.vote["choice"]).value), created_at=view.vote["created_at"]
            ),
            rating_field=view.rating_spec.name if view.rating_spec is not None else None,
        )


def _side(view: BattleView, side: dict, revealed: bool) -> BattleSide:
    target = side["target"]
    continued = view.continuation is not None and view.continuation["position"] == side["position"]
    return BattleSide(
        label="ABCD"[side["position"]],
        turn_id=relay.GlobalID("ConversationTurn", str(side["turn_id"])),
        reply=side["reply"],
        status=ReplyStatus(DomainReplyStatus(side["status"]).value),
        error=side["error"],
        model_name=str(target.get("name", "")) if revealed else None,
        model_version=(side["model_version"] or str(target.get("version") or "")) if revealed else None,
        rating=side["rating"],
        continuable=side["position"] in view.continuable,
        conversation_id=relay.GlobalID("Conversation", str(side["conversation"])) if continued else None,
        check=bool(target.get("check")) if revealed else None,
    )


@strawberry.type(description="A model's rating from battles (docs/design.md §4.3a).")
class BattleRating:
    name: str
    rating: float = strawberry.field(description="Bradley–Terry on every battle; 1000 is the models' mean.")
    lower: float = strawberry.field(description="The 95% bootstrap interval's lower bound.")
    upper: float
    rank: int = strawberry.field(description="1 + the models whose lower bound is above this one's upper bound.")
    stability: float = strawberry.field(description="Share of bootstrap rounds keeping its place in the order.")
    top_share: float = strawberry.field(description="Share of bootstrap rounds rating it first.")
    battles: int = strawberry.field(description="Pairwise battles counted (a 3- or 4-sided vote counts several).")
    wins: int
    losses: int
    ties: int
    both_bad: int


@strawberry.type(description="How often the counted votes picked a position (docs/design.md §4.3a).")
class BattlePositionShare:
    sides: int = strawberry.field(description="Battles of this many sides.")
    label: str = strawberry.field(description="A, B, C or D; A is the side shown first.")
    picked: int
    decisive: int = strawberry.field(description="Votes on battles of `sides` sides that picked a side.")
    share: float
    lower: float = strawberry.field(description="95% Wilson interval of the share.")
    upper: float
    chance: float = strawberry.field(description="1 / sides: the share without a position bias.")

    @classmethod
    def of(cls, share: DomainPositionShare) -> BattlePositionShare:
        return cls(
            sides=share.sides,
            label="ABCD"[share.position],
            picked=share.picked,
            decisive=share.decisive,
            share=share.share,
            lower=share.lower,
            upper=share.upper,
            chance=share.chance,
        )


@strawberry.type(description="Ratings of a task's (or round's) generative targets from their battles' votes.")
class BattleLeaderboard:
    models: list[BattleRating] = strawberry.field(description="Best first.")
    win_rate: list[list[float | None]] = strawberry.field(
        description="[row][column] in the order of `models`: row's wins over column / their decisive battles; null if none."
    )
    votes: int = strawberry.field(description="Pairwise battles the ratings were computed from.")
    rounds: int = strawberry.field(description="Bootstrap rounds.")
    seed: int
    ballots: int = strawberry.field(description="Votes cast (check battles are not counted).")
    counted_ballots: int = strawberry.field(description="Votes counted: those of voters neither flagged nor paused.")
    flagged_voters: int = strawberry.field(
        description="Voters whose choices do not depend on the answers (e.g. always A): their votes are not counted."
    )
    paused_voters: int = strawberry.field(
        description="Voters the check rule paused (too many check answers wrong): their votes are not counted."
    )
    repeats: int = strawberry.field(
        description="Pairwise battles not counted: the same voter's vote on the same pair and prompt again."
    )
    position_bias: list[BattlePositionShare] = strawberry.field(
        description="Per number of sides and position: the counted votes' share picking it, against chance."
    )

    @classmethod
    def from_board(cls, board: Board) -> BattleLeaderboard:
        result = board.ratings
        return cls(
            models=[
                BattleRating(
                    name=m.name,
                    rating=m.rating,
                    lower=m.lower,
                    upper=m.upper,
                    rank=m.rank,
                    stability=m.stability,
                    top_share=m.top_share,
                    battles=m.battles,
                    wins=m.wins,
                    losses=m.losses,
                    ties=m.ties,
                    both_bad=m.both_bad,
                )
                for m in result.models
            ],
            win_rate=[list(row) for row in result.win_rate],
            votes=result.votes,
            rounds=result.rounds,
            seed=result.seed,
            ballots=board.ballots,
            counted_ballots=board.counted_ballots,
            flagged_voters=board.flagged_voters,
            paused_voters=board.paused_voters,
            repeats=board.repeats,
            position_bias=[BattlePositionShare.of(share) for share in board.position_bias],
        )
