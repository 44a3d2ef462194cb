"""Approved-submission imports, matching them to keyed accounts, and the Prolific / MTurk bonus files
(server/campaigns/payouts.py)."""

import csv
import io

import pytest

from server.campaigns.entry import Platform, external_id_key
from server.campaigns.ledger_rules import LedgerLine, LineKind, LineStatus
from server.campaigns.payouts import (
    ApprovedImport,
    ApprovedSubmission,
    ImportRefusal,
    build_export,
    format_amount,
    match_approved,
    parse_approved,
    request_token,
)
from server.core.errors import ConfigError

SECRET = b"s" * 32
P1, P2, P3 = "5e9088a8a4b6ed018b45ba7b", "5c655e3c42faef0001283e77", "60a1b2c3d4e5f60718293a4b"
PROLIFIC_EXPORT = (
    "\ufeffSubmission id,Participant id,Status,Custom study tncs accepted at,Started at,Completed at,Reviewed at,"
    "Archived at,Time taken,Completion code,Total approvals,Fluent languages,Age,Sex\n"
    f'671b8e95b17f88050648883e,{P1},APPROVED,Not Applicable,2024-10-25T12:27:09Z,2024-10-25T12:46:18Z,,,1150,C12FEFJU,389,"Czech, English",25,Female\n'
    f"671b8e98fd64b1b65fa1a726,{P2},AWAITING REVIEW,Not Applicable,,,,,900,C12FEFJU,12,English,31,Male\n"
    f"671b8e98fd64b1b65fa1a727,{P3.upper()},APPROVED,Not Applicable,,,,,900,C12FEFJU,12,English,31,Male\n"
    "671b8e98fd64b1b65fa1a728,not-an-id,APPROVED,,,,,,,,,,,\n"
    "671b8e98fd64b1b65fa1a729,,REJECTED,,,,,,,,,,,\n"
    "\n"
)
MTURK_RESULTS = (
    '"HITId","HITTypeId","Title","AssignmentId","WorkerId","AssignmentStatus","AcceptTime","Answer.completionCode"\n'
    '"3YZ8UPK3VTLE2ODQUTAZEDS5ODJCUS","3T","Write","3NGI5ARFTT4HNGVWXAMLNBMFA0R1PG","A1B2C3D4E5F6G7","Approved","x","DONE"\n'
    '"3YZ8UPK3VTLE2ODQUTAZEDS5ODJCUS","3T","Write","3NGI5ARFTT4HNGVWXAMLNBMFA0R1PH","A9Z8Y7","Submitted","x","DONE"\n'
    '"3YZ8UPK3VTLE2ODQUTAZEDS5ODJCUS","3T","Write","3NGI5ARFTT4HNGVWXAMLNBMFA0R1PI","A1B2C3D4E5F6G7","Approved","x","DONE"\n'
    '"3YZ8UPK3VTLE2ODQUTAZEDS5ODJCUS","3T","Write","bad","AQQQ","Approved","x","DONE"\n'
)


def imported(value: object) -> ApprovedImport:
    assert isinstance(value, ApprovedImport), value
    return value


def test_prolific_export_gives_approved_participants_only():
    result = imported(parse_approved(Platform.PROLIFIC, PROLIFIC_EXPORT))
    assert [s.external_id for s in result.approved] == [P1, P3]  # canonical lowercase
    assert result.approved[0].submission_id == "671b8e95b17f88050648883e"
    assert result.not_approved == 2
    assert [(p.row, "worker id" in p.message) for p in result.problems] == [(5, True)]


def test_older_prolific_exports_with_snake_case_columns():
    text = f"session_id,participant_id,status,started_datetime\nabc,{P1},APPROVED,x\ndef,{P2},approved,y\n"
    result = imported(parse_approved(Platform.PROLIFIC, text))
    assert [s.external_id for s in result.approved] == [P1, P2]


def test_mturk_results_give_approved_worker_and_assignment_once_per_worker():
    result = imported(parse_approved(Platform.MTURK, MTURK_RESULTS))
    assert result.approved == (ApprovedSubmission("A1B2C3D4E5F6G7", "3NGI5ARFTT4HNGVWXAMLNBMFA0R1PG"),)
    assert result.not_approved == 1
    assert [p.row for p in result.problems] == [5]


@pytest.mark.parametrize(
    "platform, text, words",
    [
        (Platform.PROLIFIC, "", "empty"),
        (Platform.PROLIFIC, "name,age\nx,1\n", "no worker id"),
        (Platform.MTURK, "WorkerId,AssignmentStatus\nA1,Approved\n", "AssignmentId"),
        (Platform.PROLIFIC, "a\x00b", "not a CSV"),
        (Platform.OPEN, "x", "open campaign"),
        (Platform.PROLIFIC, 'Participant id,Status\n"unterminated,APPROVED\n' + "x" * 200_000, "CSV"),
    ],
)
def test_files_that_are_not_the_expected_export_are_refused_clearly(platform, text, words):
    result = parse_approved(platform, text)
    assert isinstance(result, ImportRefusal) and words in result.message


def test_short_rows_and_oversized_files_are_handled():
    result = imported(parse_approved(Platform.PROLIFIC, f"Participant id,Status\n{P1}\n"))
    assert not result.approved and result.problems[0].row == 2
    assert isinstance(parse_approved(Platform.PROLIFIC, "x" * 20_000_001), ImportRefusal)


def test_matching_hashes_approved_ids_like_join_links_do():
    accounts = {11: external_id_key(SECRET, Platform.PROLIFIC, P1), 12: external_id_key(SECRET, Platform.PROLIFIC, P2)}
    approved = imported(parse_approved(Platform.PROLIFIC, PROLIFIC_EXPORT)).approved
    matching = match_approved(Platform.PROLIFIC, approved, accounts, SECRET)
    assert dict(matching.matched) == {11: ApprovedSubmission(P1, None, "671b8e95b17f88050648883e")}
    assert matching.unmatched_workers == (12,)  # joined, but Prolific has not approved them
    assert [s.external_id for s in matching.unknown] == [P3]  # approved, but never joined here


def lines():
    return [
        LedgerLine("base:11", 11, LineKind.BASE, 200, "Base pay"),
        LedgerLine("bonus:fooling:1", 11, LineKind.FOOLING, 50, "r"),
        LedgerLine("bonus:agree:7", 11, LineKind.AGREE, 5, "r"),
        LedgerLine("bonus:agree:8", 11, LineKind.AGREE, 5, "r", LineStatus.EXPORTED),
        LedgerLine("bonus:agree:9", 11, LineKind.AGREE, 5, "r", LineStatus.VOID),
        LedgerLine("bonus:fooling:2", 12, LineKind.FOOLING, 50, "r"),  # 12 is not approved
        LedgerLine("bonus:fooling:3", 13, LineKind.FOOLING, 1234, "r"),
    ]


def test_prolific_bulk_bonus_file_pays_matched_workers_pending_bonuses_only():
    matching = match_approved(
        Platform.PROLIFIC,
        [ApprovedSubmission(P1), ApprovedSubmission(P3)],
        {11: external_id_key(SECRET, Platform.PROLIFIC, P1), 12: "k2", 13: external_id_key(SECRET, Platform.PROLIFIC, P3)},
        SECRET,
    )
    export = build_export(Platform.PROLIFIC, lines(), matching)
    assert export.text == f"{P1},0.55\n{P3},12.34\n"
    assert export.keys == ("bonus:agree:7", "bonus:fooling:1", "bonus:fooling:3")
    assert export.total_cents == 55 + 1234
    assert export.unpaid_workers == (12,)
    with_base = build_export(Platform.PROLIFIC, lines(), matching, include_base=True)
    assert with_base.text.splitlines()[0] == f"{P1},2.55" and "base:11" in with_base.keys


def test_mturk_bonus_file_has_send_bonus_columns_and_a_stable_request_token():
    matching = match_approved(
        Platform.MTURK,
        [ApprovedSubmission("A1B2C3", "3NGIASSIGN")],
        {11: external_id_key(SECRET, Platform.MTURK, "A1B2C3")},
        SECRET,
    )
    export = build_export(Platform.MTURK, lines(), matching, reason='=HYPERLINK("x") thanks,\nfor the work')
    rows = list(csv.reader(io.StringIO(export.text)))
    assert rows[0] == ["WorkerId", "AssignmentId", "BonusAmount", "Reason", "UniqueRequestToken"]
    assert rows[1][:3] == ["A1B2C3", "3NGIASSIGN", "0.55"]
    assert rows[1][3] == '\'=HYPERLINK("x") thanks, for the work'  # one line, not a formula
    token = rows[1][4]
    assert len(token) <= 64 and token == request_token(export.rows[0])
    assert build_export(Platform.MTURK, lines(), matching).rows[0].keys == export.rows[0].keys
    assert request_token(build_export(Platform.MTURK, lines(), matching).rows[0]) == token  # the same file twice: same token
    fewer = [line for line in lines() if line.key != "bonus:agree:7"]
    assert request_token(build_export(Platform.MTURK, fewer, matching).rows[0]) != token
    assert sorted(export.unpaid_workers) == [12, 13]


def test_open_campaigns_and_empty_reasons_cannot_be_exported():
    matching = match_approved(Platform.PROLIFIC, [], {}, SECRET)
    with pytest.raises(ConfigError):
        build_export(Platform.OPEN, lines(), matching)
    with pytest.raises(ConfigError):
        build_export(Platform.MTURK, lines(), matching, reason="  \n ")


def test_nothing_pending_gives_an_empty_file():
    matching = match_approved(
        Platform.PROLIFIC, [ApprovedSubmission(P1)], {11: external_id_key(SECRET, Platform.PROLIFIC, P1)}, SECRET
    )
    export = build_export(Platform.PROLIFIC, [line for line in lines() if line.status is not LineStatus.PENDING], matching)
    assert (export.text, export.keys, export.total_cents, export.rows) == ("", (), 0, ())


@pytest.mark.parametrize("cents, text", [(0, "0.00"), (5, "0.05"), (55, "0.55"), (100, "1.00"), (123456, "1234.56")])
def test_amounts_are_formatted_from_integer_cents(cents, text):
    assert format_amount(cents) == text


@pytest.mark.parametrize("bad", [-1, 1.5, True])
def test_amounts_must_be_non_negative_integer_cents(bad):
    with pytest.raises(ValueError):
        format_amount(bad)
