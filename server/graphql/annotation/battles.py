"""Root fields of side-by-side battles: a battle of the viewer's, and a task's battle leaderboard."""

from __future__ import annotations

import strawberry
from strawberry import relay
from strawberry.types import Info

from server import permissions
from server.annotation.battles import leaderboard, service
from server.graphql.annotation.battle_types import Battle, BattleLeaderboard
from server.graphql.annotation.mutations import continue_battle, reinstate_battle_voter, start_battle, vote_battle
from server.graphql.core.guard import authorize_principal
from server.graphql.core.relay import node_pk
from server.graphql.tasks.visibility import visible_task
from server.tasks.service import load_config


@strawberry.type
class BattleQueries:
    @strawberry.field(description="One of your battles; its sides name their models once it is voted.")
    async def battle(self, info: Info, id: relay.GlobalID) -> Battle:
        viewer = await authorize_principal(info, permissions.annotate)
        return Battle.from_view(await service.load_battle(viewer, node_pk(id, "Battle", "id")))

    @strawberry.field(
        description="Ratings of a task's generative targets from its battles' votes (or one round's): Bradley–Terry, "
        "95% bootstrap intervals (1,000 rounds, fixed seed), ranks and the win-rate matrix."
    )
    async def battle_leaderboard(self, info: Info, task_code: str, round_id: relay.GlobalID | None = None) -> BattleLeaderboard:
        await authorize_principal(info, permissions.read_public)
        task = await visible_task(info, task_code)
        round_pk = None if round_id is None else node_pk(round_id, "Round", "roundId")
        config = load_config(task)
        battle_rules = config.generative.battle if config.generative is not None else None
        result = await leaderboard.battle_leaderboard(info.context.services, task["id"], round_pk, battle_rules)
        return BattleLeaderboard.from_board(result)


@strawberry.type
class BattleMutations:
    start_battle = start_battle.start_battle
    vote_battle = vote_battle.vote_battle
    continue_battle = continue_battle.continue_battle
    reinstate_battle_voter = reinstate_battle_voter.reinstate_battle_voter
