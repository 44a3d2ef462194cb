"""Every statement that reads or forgets a person's data, across domains: one home, so that a table that comes to
refer to an account is decided here (tests/unit/test_personal_data_coverage.py fails until it is named below)."""

from __future__ import annotations

from server.core.sql import Query

# Every table with a column that refers to an account, and that column. exportMyData returns each one's rows (secret
# columns removed); deleteMyAccount forgets some (FORGOTTEN) and keeps the rest under the account's pseudonym (KEPT).
ACCOUNT_COLUMNS = {
    "account_tokens": "user",
    "admin_audit": "actor",
    "adversary_runs": "started_by",
    "api_tokens": "user",
    "battle_continuations": "user",
    "battle_votes": "user",
    "battles": "user",
    "campaign_approved": "worker",
    "campaign_ledger_lines": "worker",
    "campaign_workers": "user",
    "campaigns": "created_by",
    "conversations": "user",
    "examples": "user",
    "generation_usage": "user",
    "leaderboard_configs": "owner",
    "llm_endpoints": "created_by",
    "models": "owner",
    "notification_preferences": "user",
    "notifications": "recipient",
    "suggestions": "user",
    "task_owners": "user",
    "training_runs": "requested_by",
    "user_round_stats": "user",
    "validation_claims": "user",
    "validations": "user",
    "webhooks": "created_by",
}
# Removed with the account: credentials, the inbox, the crowd platforms' identifiers.
FORGOTTEN = {
    "api_tokens": "deleted",
    "account_tokens": "deleted (password resets, email verifications)",
    "notifications": "deleted",
    "notification_preferences": "deleted",
    "campaign_workers": "the crowd platform's id replaced by the pseudonym, the join parameters emptied",
    "campaign_approved": "the platform's worker, assignment and submission ids replaced by the pseudonym",
}
KEPT = {table: "kept as the task's data under the pseudonym" for table in ACCOUNT_COLUMNS if table not in FORGOTTEN}
# Kept, except in the tasks whose config says `personal_data.on_account_deletion: remove`: there the account's rows
# are deleted (server/annotation/removal/), with everything that hangs from its examples and conversations, and every
# counter and outcome they touched is recomputed. Money (campaign ledger lines, LLM endpoints' usage), models, runs,
# ownership and the audit log stay in every task.
REMOVED_WITH_WORK = {
    "battle_continuations": "with the account's battles",
    "battle_votes": "with the account's battles (their ratings are computed again)",
    "battles": "deleted (their sides cascade)",
    "conversations": "deleted (their turns cascade)",
    "examples": "deleted (votes, claims, gold, vectors and history on them cascade); others' outcomes recounted",
    "suggestions": "deleted",
    "user_round_stats": "deleted (others' recounted)",
    "validation_claims": "deleted",
    "validations": "deleted; the examples voted on are aggregated again",
}
for _table, _what in REMOVED_WITH_WORK.items():
    KEPT[_table] = f"kept under the pseudonym; in a task that removes a deleted account's work: {_what}"
# Columns never exported (hashes of credentials).
SECRET_COLUMNS = ("password_hash", "token_hash")


def rows_of(table: str) -> Query:
    """The account's rows of one table as JSON objects (tables and columns from ACCOUNT_COLUMNS, never from input)."""
    column = ACCOUNT_COLUMNS[table]
    hidden = " ".join(f"- '{name}'" for name in SECRET_COLUMNS)
    return Query(f'SELECT to_jsonb(t) {hidden} AS row FROM "{table}" t WHERE t."{column}" = :user ORDER BY 1', json=("row",))


ACCOUNT = Query("SELECT to_jsonb(u) - 'password_hash' AS row FROM users u WHERE u.id = :user", json=("row",))
# What the account's conversations hold beyond their rows: every turn (the person's prompts and the replies).
CONVERSATION_TURNS = Query(
    """SELECT to_jsonb(t) AS row FROM conversation_turns t JOIN conversations c ON c.id = t.conversation
    WHERE c."user" = :user ORDER BY t.id""",
    json=("row",),
)

# Accounts their owners deleted: the audit row deleteMyAccount writes in its transaction is the durable mark.
DELETED_ACCOUNTS = Query(
    "SELECT DISTINCT target_id AS id FROM admin_audit WHERE action = 'account_deleted' AND target_type = 'user' ORDER BY 1"
)
LOCK_ACCOUNT = Query("SELECT id, username, password_hash, is_admin FROM users WHERE id = :user FOR UPDATE")
OTHER_ADMINS = Query("SELECT count(*) FROM users WHERE is_admin AND disabled_at IS NULL AND id <> :user")
FORGET_ACCOUNT = Query(
    """UPDATE users SET username = :pseudonym, email = NULL, email_verified_at = NULL, password_hash = '!',
    is_admin = false, session_epoch = session_epoch + 1, disabled_at = now(), disabled_reason = 'deleted by its owner'
    WHERE id = :user"""
)
FORGET_CREDENTIALS = Query(
    """WITH tokens AS (DELETE FROM api_tokens WHERE "user" = :user), mailed AS (DELETE FROM account_tokens WHERE "user" = :user),
    inbox AS (DELETE FROM notifications WHERE recipient = :user)
    DELETE FROM notification_preferences WHERE "user" = :user"""
)
FORGET_CROWD_IDS = Query(
    """WITH workers AS (
      UPDATE campaign_workers SET external_key = :pseudonym, entry = '{}'::jsonb WHERE "user" = :user
    )
    UPDATE campaign_approved SET external_id = :pseudonym, assignment_id = NULL, submission_id = NULL
    WHERE worker = :user"""
)
