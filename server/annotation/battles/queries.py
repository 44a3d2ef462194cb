"""The query room of battles: a battle, its sides (one conversation each) and its vote, the daily cap's counts, the
author's earlier pairings of a prompt, and the votes a leaderboard is computed from."""

from __future__ import annotations

from server.core.sql import Query

_JSON = ("target",)
# Today, in UTC: the day the daily vote cap counts.
_TODAY = "date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'"

INSERT_BATTLE = Query(
    """
INSERT INTO battles (client_id, round, context, "user", prompt, created_at)
VALUES (:client_id, :round, :context, :user, :prompt, now())
ON CONFLICT (client_id) DO NOTHING
RETURNING *
""",
)
INSERT_SIDE = Query(
    "INSERT INTO battle_sides (battle, position, conversation) VALUES (:battle, :position, :conversation) RETURNING *"
)

BATTLE = Query("SELECT * FROM battles WHERE id = :id")
BATTLE_BY_CLIENT_ID = Query("SELECT * FROM battles WHERE client_id = :client_id")

# Each side with its one exchange (the prompt and the side's reply) and its target.
SIDES = Query(
    """
SELECT s.position, s.conversation, c.target, t.id AS turn_id, t.reply, t.status, t.error, t.model_version,
  t.started_at, t.finished_at
FROM battle_sides s JOIN conversations c ON c.id = s.conversation
  JOIN conversation_turns t ON t.conversation = c.id AND t.position = 0
WHERE s.battle = :battle
ORDER BY s.position
""",
    json=_JSON,
)

VOTE = Query("SELECT * FROM battle_votes WHERE battle = :battle")
VOTE_BY_CLIENT_ID = Query("SELECT * FROM battle_votes WHERE client_id = :client_id")
# One vote per battle (unique battle) and per client UUID: a second writer gets nothing and reads what is stored.
INSERT_VOTE = Query(
    """
INSERT INTO battle_votes (battle, "user", choice, client_id, created_at)
VALUES (:battle, :user, :choice, :client_id, now())
ON CONFLICT DO NOTHING
RETURNING *
""",
)

BATTLES_TODAY = Query(
    f"""
SELECT count(*) FROM battles b JOIN rounds r ON r.id = b.round
WHERE b."user" = :user AND r.task = :task AND b.created_at >= {_TODAY}
""",
)
VOTES_TODAY = Query(
    f"""
SELECT count(*) FROM battle_votes v JOIN battles b ON b.id = v.battle JOIN rounds r ON r.id = b.round
WHERE v."user" = :user AND r.task = :task AND v.created_at >= {_TODAY}
""",
)

# The sets of targets the author already saw answer this prompt in this round (the pairing avoids them).
SEEN_SIDES = Query(
    """
SELECT array_agg(c.target ->> 'name') AS names
FROM battles b JOIN battle_sides s ON s.battle = b.id JOIN conversations c ON c.id = s.conversation
WHERE b."user" = :user AND b.round = :round AND b.prompt = :prompt
GROUP BY b.id
""",
)

_VOTES_OF = """
FROM battle_votes v JOIN battles b ON b.id = v.battle JOIN rounds r ON r.id = b.round
WHERE r.task = :task AND (CAST(:round AS integer) IS NULL OR b.round = :round)
"""
# What a cached leaderboard was computed from: votes are only ever added (or removed with their user or round).
VOTES_STAMP = Query(f"SELECT count(*) AS votes, coalesce(max(v.id), 0) AS last_id {_VOTES_OF}")
# Every vote with its sides' models in position order.
VOTES = Query(
    f"""
SELECT v.id, v.choice,
  (SELECT array_agg(c.target ->> 'name' ORDER BY s.position)
   FROM battle_sides s JOIN conversations c ON c.id = s.conversation WHERE s.battle = v.battle) AS models
{_VOTES_OF} AND v.id <= :last_id
ORDER BY v.id
""",
)

ROUND_OF_TASK = Query("SELECT id FROM rounds WHERE id = :round AND task = :task")
