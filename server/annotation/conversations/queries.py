"""The query room of conversations: starting one, its turns, finishing and retrying replies, linking its example."""

from __future__ import annotations

from server import permissions
from server.core.sql import Query

_JSON = ("target", "params", "attempts", "config", "target_models", "context_fields")
_WRITER_SEES_TASK = permissions.task_visible_sql("t", ":user")

# The round (with the config version it runs), the context and whether the writer may see the task, in one read.
ROUND_AND_CONTEXT = Query(
    f"""
SELECT r.id, r.task, r.end_at, r.target_models, coalesce(v.config, t.config)::text AS config_text,
  c.id AS context_id, c.round AS context_round, c.fields AS context_fields, {_WRITER_SEES_TASK} AS may_write
FROM rounds r JOIN tasks t ON t.id = r.task LEFT JOIN contexts c ON c.id = :context_id
  LEFT JOIN task_config_versions v ON v.task = r.task AND v.version = r.config_version
WHERE r.id = :round_id
""",
    json=_JSON,
)

INSERT_CONVERSATION = Query(
    """
INSERT INTO conversations (client_id, round, context, "user", target, params, created_at)
VALUES (:client_id, :round, :context, :user, :target::jsonb, :params::jsonb, now())
ON CONFLICT (client_id) DO NOTHING
RETURNING *
""",
    json=_JSON,
)

# `in_battle`: a battle's side (server/annotation/battles/), read through its battle only, unless its author went on
# talking to it after the vote (battle_continuations): then it is an ordinary conversation. `battle_side`: either way.
_IN_BATTLE = """EXISTS (SELECT 1 FROM battle_sides s WHERE s.conversation = c.id AND NOT EXISTS (
    SELECT 1 FROM battle_continuations k WHERE k.battle = s.battle AND k.position = s.position)) AS in_battle,
  EXISTS (SELECT 1 FROM battle_sides s WHERE s.conversation = c.id) AS battle_side"""
CONVERSATION = Query(f"SELECT c.*, {_IN_BATTLE} FROM conversations c WHERE c.id = :id", json=_JSON)
CONVERSATION_BY_CLIENT_ID = Query(f"SELECT c.*, {_IN_BATTLE} FROM conversations c WHERE c.client_id = :client_id", json=_JSON)
TURNS = Query("SELECT * FROM conversation_turns WHERE conversation = :conversation ORDER BY position", json=_JSON)
TURN = Query("SELECT * FROM conversation_turns WHERE id = :id", json=_JSON)
TURN_BY_CLIENT_ID = Query("SELECT * FROM conversation_turns WHERE client_id = :client_id", json=_JSON)

# The next exchange, only while no reply is being generated, the turn limit is not reached and the conversation is
# not submitted; two concurrent messages cannot both take a position (unique (conversation, position)).
INSERT_TURN = Query(
    """
INSERT INTO conversation_turns (conversation, position, client_id, message, status, model_name, started_at)
SELECT :conversation, count(*), :client_id, :message, 'generating', :model_name, now()
FROM conversation_turns WHERE conversation = :conversation
HAVING count(*) < :limit AND count(*) FILTER (WHERE status = 'generating') = 0
  AND NOT EXISTS (SELECT 1 FROM conversations WHERE id = :conversation AND example IS NOT NULL)
ON CONFLICT DO NOTHING
RETURNING *
""",
    json=_JSON,
)

FINISH_TURN = Query(
    """
UPDATE conversation_turns SET reply = :reply, status = :status, error = :error, model_version = :model_version,
  judge_score = :judge_score, judge_model = :judge_model, finished_at = now()
WHERE id = :id AND status = 'generating'
RETURNING *
""",
    json=_JSON,
)

SET_JUDGE_SCORE = Query(
    """
UPDATE conversation_turns SET judge_score = :judge_score, judge_model = :judge_model
WHERE id = :id AND judge_score IS NULL
RETURNING *
""",
    json=_JSON,
)

# A failed or stopped reply asked again: the attempt so far is kept in `attempts`; only the conversation's last turn,
# and only before it is submitted.
RETRY_TURN = Query(
    """
UPDATE conversation_turns ct SET
  attempts = ct.attempts || jsonb_build_array(jsonb_build_object('reply', ct.reply, 'status', ct.status,
    'error', ct.error, 'model_version', ct.model_version, 'finished_at', ct.finished_at)),
  reply = '', status = 'generating', error = '', judge_score = NULL, judge_model = '', started_at = now(),
  finished_at = NULL
WHERE ct.id = :id AND ct.status IN ('failed', 'stopped')
  AND ct.position = (SELECT max(position) FROM conversation_turns WHERE conversation = ct.conversation)
  AND NOT EXISTS (SELECT 1 FROM conversations c WHERE c.id = ct.conversation AND c.example IS NOT NULL)
RETURNING *
""",
    json=_JSON,
)

# Replies whose process ended mid-stream (a restart, a crash): nobody will finish them.
STALE_TURNS = Query(
    """
SELECT id, started_at FROM conversation_turns
WHERE status = 'generating' AND started_at < now() - make_interval(secs => :older_than_s)
ORDER BY started_at LIMIT :limit
""",
)

LINK_EXAMPLE = Query(
    "UPDATE conversations SET example = :example WHERE id = :id AND example IS NULL RETURNING *",
    json=_JSON,
)

# Attack success per target and per category (docs/design.md §4.3): the generative counterparts of MER and vMER.
ATTACK_SUCCESS = Query(
    """
WITH e AS (
  SELECT model_name, input, fooled, status FROM examples WHERE round = :round AND NOT retracted
)
SELECT 'target' AS grouping, model_name AS key, count(*) AS collected, count(*) FILTER (WHERE fooled) AS fooled,
  count(*) FILTER (WHERE fooled AND status = 'validated') AS validated_fooled
FROM e GROUP BY model_name
UNION ALL
SELECT 'category', c.value, count(*), count(*) FILTER (WHERE fooled),
  count(*) FILTER (WHERE fooled AND status = 'validated')
FROM e CROSS JOIN LATERAL jsonb_array_elements_text(
  CASE WHEN jsonb_typeof(e.input -> 'categories') = 'array' THEN e.input -> 'categories' ELSE '[]'::jsonb END) c
GROUP BY c.value
ORDER BY 1 DESC, 2
""",
)
