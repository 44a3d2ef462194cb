"""The query room of battles: a battle, its sides (one conversation each) and its vote, the daily cap's counts, the
author's earlier pairings of a prompt, and the votes a leaderboard is computed from."""

from __future__ import annotations

from server.core.sql import Query

_JSON = ("target",)
# Today, in UTC: the day the daily vote cap counts.
_TODAY = "date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'"

INSERT_BATTLE = Query(
    """
INSERT INTO battles (client_id, round, context, "user", prompt, check_position, created_at)
VALUES (:client_id, :round, :context, :user, :prompt, :check_position, now())
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
SELECT s.position, s.conversation, s.rating, c.target, t.id AS turn_id, t.reply, t.status, t.error, t.model_version,
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

# Each side's rating on the task's form, written with the vote (in its transaction).
SET_SIDE_RATING = Query("UPDATE battle_sides SET rating = :rating WHERE battle = :battle AND position = :position")

# The side the author goes on talking to after the vote: one per battle (unique battle), idempotent on its client UUID.
CONTINUATION = Query("SELECT * FROM battle_continuations WHERE battle = :battle")
CONTINUATION_BY_CLIENT_ID = Query("SELECT * FROM battle_continuations WHERE client_id = :client_id")
INSERT_CONTINUATION = Query(
    """
INSERT INTO battle_continuations (battle, position, "user", client_id, created_at)
VALUES (:battle, :position, :user, :client_id, now())
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

# How many battles of the round each pair of targets met in (the balanced schedule evens them out).
_ROUND_SIDES = """
SELECT s.battle, c.target ->> 'name' AS name
FROM battle_sides s JOIN battles b ON b.id = s.battle JOIN conversations c ON c.id = s.conversation
WHERE b.round = :round AND b.check_position IS NULL
"""
PAIR_COUNTS = Query(
    f"""
WITH sides AS ({_ROUND_SIDES})
SELECT x.name AS first, y.name AS second, count(*) AS battles
FROM sides x JOIN sides y ON y.battle = x.battle AND x.name < y.name
GROUP BY x.name, y.name
""",
)

_VOTES_OF = """
FROM battle_votes v JOIN battles b ON b.id = v.battle JOIN rounds r ON r.id = b.round
WHERE r.task = :task AND (CAST(:round AS integer) IS NULL OR b.round = :round)
"""
# What a cached leaderboard was computed from: votes are only ever added (or removed with their user or round), and
# who is paused changes with a vote on a check battle or an owner's reinstatement. The newest vote's time as well as its
# id: ids start again in a database made anew (a reset, a test's emptied tables) while Redis keeps the old boards.
VOTES_STAMP = Query(
    f"""
SELECT count(*) AS votes, coalesce(max(v.id), 0) AS last_id, coalesce(extract(epoch FROM max(v.created_at)), 0)::text AS last_at,
  (SELECT coalesce(extract(epoch FROM max(reinstated_at)), 0)::text FROM battle_voter_reinstatements WHERE task = :task)
    AS reinstated_at
{_VOTES_OF}""",
)
# Every vote (up to :last_id; NULL: all) with its voter, prompt and sides' models in position order.
VOTES = Query(
    """
SELECT v.id, v.choice, v."user", u.username, b.prompt, b.round,
  (SELECT array_agg(c.target ->> 'name' ORDER BY s.position)
   FROM battle_sides s JOIN conversations c ON c.id = s.conversation WHERE s.battle = v.battle) AS models
FROM battle_votes v JOIN users u ON u.id = v."user" JOIN battles b ON b.id = v.battle JOIN rounds r ON r.id = b.round
WHERE r.task = :task AND (CAST(:round AS integer) IS NULL OR b.round = :round) AND b.check_position IS NULL
  AND (CAST(:last_id AS integer) IS NULL OR v.id <= :last_id)
ORDER BY v.id
""",
)

ROUND_OF_TASK = Query("SELECT id FROM rounds WHERE id = :round AND task = :task")

# A round's votes with everything a preference export needs, through a cursor (server/annotation/battles/pairs.py).
PREFERENCE_VOTES = Query(
    """
SELECT v.id, v."user", v.choice, v.created_at, b.id AS battle, b.prompt, b.context AS context_id,
  ctx.fields::text AS context_fields,
  (SELECT json_agg(json_build_object('name', c.target ->> 'name', 'version', coalesce(nullif(t.model_version, ''),
            c.target ->> 'version', ''), 'reply', t.reply, 'status', t.status) ORDER BY s.position)::text
   FROM battle_sides s JOIN conversations c ON c.id = s.conversation
     JOIN conversation_turns t ON t.conversation = c.id AND t.position = 0
   WHERE s.battle = b.id) AS sides
FROM battle_votes v JOIN battles b ON b.id = v.battle JOIN contexts ctx ON ctx.id = b.context
WHERE b.round = :round_id AND b.check_position IS NULL
ORDER BY v.id
""",
)

# Every vote on the task's check battles (or one voter's), and whether it came after the voter's latest reinstatement
# (only those count toward the pause rule).
CHECK_VOTES = Query(
    """
SELECT v."user", u.username, v.choice, b.check_position,
  (ri.reinstated_at IS NULL OR v.created_at > ri.reinstated_at) AS since_reinstated
FROM battle_votes v JOIN battles b ON b.id = v.battle JOIN rounds r ON r.id = b.round JOIN users u ON u.id = v."user"
  LEFT JOIN battle_voter_reinstatements ri ON ri.task = r.task AND ri."user" = v."user"
WHERE r.task = :task AND b.check_position IS NOT NULL AND (CAST(:user AS integer) IS NULL OR v."user" = :user)
ORDER BY v.id
""",
)
USER_BY_NAME = Query("SELECT id, username FROM users WHERE username = :username")
# The owner's reinstatement of a paused voter: from now on only later check answers count (the latest one wins).
REINSTATE_VOTER = Query(
    """
INSERT INTO battle_voter_reinstatements (task, "user", reinstated_by, reinstated_at) VALUES (:task, :user, :by, now())
ON CONFLICT (task, "user") DO UPDATE SET reinstated_at = now(), reinstated_by = EXCLUDED.reinstated_by
""",
)

# The task's rounds that have battle votes, and the task's config (the leaderboards' job rates each).
VOTED_ROUNDS = Query(
    """
SELECT DISTINCT b.round FROM battle_votes v JOIN battles b ON b.id = v.battle JOIN rounds r ON r.id = b.round
WHERE r.task = :task ORDER BY b.round
""",
)
