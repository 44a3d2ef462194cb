"""Every table that refers to an account is named in server/accounts/personal_queries.py (exportMyData reads it,
deleteMyAccount forgets or keeps it): a new table holding personal data cannot be left out silently."""

from __future__ import annotations

import os

from server.accounts import personal_queries


def _tables_referring_to_accounts() -> dict[str, str]:
    os.environ.setdefault("PICCOLO_CONF", "server.core.piccolo_conf")
    from piccolo.conf.apps import Finder

    found = {}
    for table in Finder().get_table_classes():
        for column in table._meta.foreign_key_columns:
            if column._foreign_key_meta.resolved_references._meta.tablename == "users":
                found[table._meta.tablename] = column._meta.db_column_name
    return found


def test_every_table_referring_to_an_account_is_decided():
    assert _tables_referring_to_accounts() == personal_queries.ACCOUNT_COLUMNS


def test_each_table_is_either_forgotten_or_kept():
    tables = set(personal_queries.ACCOUNT_COLUMNS)
    assert set(personal_queries.FORGOTTEN) <= tables
    assert set(personal_queries.FORGOTTEN) | set(personal_queries.KEPT) == tables
    assert not set(personal_queries.FORGOTTEN) & set(personal_queries.KEPT)


def test_what_a_task_may_remove_is_kept_work():
    """A task that removes a deleted account's work removes only work that is otherwise kept (never credentials,
    which are forgotten everywhere), and the KEPT description says so."""
    removed = set(personal_queries.REMOVED_WITH_WORK)
    assert removed <= set(personal_queries.KEPT)
    assert {"examples", "validations", "conversations", "battles", "battle_votes"} <= removed
    assert all("removes a deleted account's work" in personal_queries.KEPT[table] for table in removed)
    assert "campaign_ledger_lines" not in removed  # money stays (its lines are recomputed from rows)
