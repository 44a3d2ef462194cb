"""The pure parts of backups (server/backup/manifest.py, retention.py): names, retention, member paths, comparisons."""

from __future__ import annotations

import datetime as dt

import pytest

from server.backup.manifest import DamagedArchive, Manifest, differing_tables, safe_member_name
from server.backup.retention import backup_name, to_prune


def test_scheduled_backups_are_named_by_utc_time_and_the_newest_are_kept():
    paris = dt.timezone(dt.timedelta(hours=1))
    assert backup_name(dt.datetime(2026, 11, 28, 3, 0, 5, 42_999, tzinfo=paris)) == "dynabench-20261128T020005.042Z.tar"
    names = [backup_name(dt.datetime(2026, 11, day, tzinfo=dt.UTC)) for day in (3, 1, 2, 4)]
    assert to_prune([*names, "notes.txt", "dynabench-latest.tar"], keep=2) == [names[2], names[1]]
    assert to_prune(names, keep=10) == []
    with pytest.raises(ValueError):
        to_prune(names, keep=0)


@pytest.mark.parametrize("name", ["../x", "/etc/passwd", "files/../../x", "a\\..\\b", "", "a\x00b"])
def test_a_member_path_outside_the_archive_is_refused(name):
    with pytest.raises(DamagedArchive, match="a path outside the archive"):
        safe_member_name(name)


def test_member_paths_inside_the_archive_are_kept():
    assert safe_member_name("files/model_store/model-3.archive") == "files/model_store/model-3.archive"
    assert safe_member_name("./manifest.json") == "manifest.json"


def test_table_differences_name_the_table_and_both_values():
    snapshot = {"examples": {"rows": 3, "hash": "9"}, "users": {"rows": 1, "hash": "4"}}
    assert differing_tables(snapshot, dict(snapshot)) == []
    found = {"examples": {"rows": 2, "hash": "7"}, "votes": {"rows": 0, "hash": "0"}}
    assert differing_tables(snapshot, found) == [
        "examples: expected {'rows': 3, 'hash': '9'}, found {'rows': 2, 'hash': '7'}",
        "users: expected {'rows': 1, 'hash': '4'}, found None",
        "votes: expected None, found {'rows': 0, 'hash': '0'}",
    ]


def test_a_manifest_round_trips_and_a_foreign_document_is_refused():
    manifest = Manifest("2026-11-28T00:00:00+00:00", "1", "18.1", {"accounts": "x"}, {"users": {"rows": 1, "hash": "2"}})
    assert Manifest.from_json(manifest.to_json()) == manifest
    with pytest.raises(DamagedArchive, match="not a dynabench-backup/1 archive"):
        Manifest.from_json(b'{"format": "something-else"}')
    with pytest.raises(DamagedArchive, match="unreadable"):
        Manifest.from_json(b"{not json")
