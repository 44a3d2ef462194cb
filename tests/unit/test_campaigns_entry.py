"""Join links per platform, completion targets and the keyed hash of external ids (server/campaigns/entry.py)."""

from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.campaigns.entry import (
    CompletionTarget,
    EntryRefusal,
    Platform,
    RefusalReason,
    WorkerEntry,
    canonical_external_id,
    completion_target,
    external_id_key,
    mturk_submit_origin,
    parse_entry,
    parse_query,
)
from server.core.errors import ConfigError

PID, STUDY, SESSION = "5e9088a8a4b6ed018b45ba7b", "671b8ae84509b9a624b95e13", "671b8e95b17f88050648883e"
PROLIFIC = {"PROLIFIC_PID": PID, "STUDY_ID": STUDY, "SESSION_ID": SESSION}
MTURK = {
    "workerId": "A1B2C3D4E5F6G7",
    "assignmentId": "3NGI5ARFTT4HNGVWXAMLNBMFA0R1PG",
    "hitId": "3YZ8UPK3VTLE2ODQUTAZEDS5ODJCUS",
    "turkSubmitTo": "https://www.mturk.com",
}
SECRET = b"k" * 32


def refusal(result: object) -> EntryRefusal:
    assert isinstance(result, EntryRefusal), result
    return result


def test_prolific_link_gives_the_three_ids():
    entry = parse_entry(Platform.PROLIFIC, PROLIFIC)
    assert entry == WorkerEntry(Platform.PROLIFIC, PID, study_id=STUDY, session_id=SESSION)


def test_prolific_ids_are_stored_lowercase_so_case_tricks_make_no_second_account():
    entry = parse_entry(Platform.PROLIFIC, {**PROLIFIC, "PROLIFIC_PID": PID.upper()})
    assert isinstance(entry, WorkerEntry) and entry.external_id == PID


def test_prolific_link_from_a_real_query_string_with_extra_parameters():
    params = parse_query(f"PROLIFIC_PID={PID}&STUDY_ID={STUDY}&SESSION_ID={SESSION}&utm_source=prolific")
    assert isinstance(params, dict)
    assert parse_entry(Platform.PROLIFIC, params) == WorkerEntry(Platform.PROLIFIC, PID, study_id=STUDY, session_id=SESSION)


@pytest.mark.parametrize("missing", ["PROLIFIC_PID", "STUDY_ID", "SESSION_ID"])
def test_prolific_missing_id_is_refused_by_name(missing):
    params = {k: v for k, v in PROLIFIC.items() if k != missing}
    r = refusal(parse_entry(Platform.PROLIFIC, params))
    assert (r.parameter, r.reason) == (missing, RefusalReason.MISSING)
    assert missing in r.message


@pytest.mark.parametrize(
    "value, reason",
    [
        ("", RefusalReason.EMPTY),
        (PID[:-1], RefusalReason.MALFORMED),  # 23 characters
        (PID + "0", RefusalReason.TOO_LONG),  # 25
        ("g" * 24, RefusalReason.MALFORMED),  # not hex
        ("5e9088a8a4b6ed018b45ba7 ", RefusalReason.MALFORMED),
        ("{{PROLIFIC_PID}}", RefusalReason.MALFORMED),  # the placeholder a researcher forgot to configure
        ("x" * 10_000, RefusalReason.TOO_LONG),
        ("5e9088a8a4b6ed018b45ba7\u0431", RefusalReason.MALFORMED),
        ("5e9088a8a4b6ed018b45ba7\x00", RefusalReason.MALFORMED),
    ],
)
def test_prolific_bad_ids_are_refused(value, reason):
    r = refusal(parse_entry(Platform.PROLIFIC, {**PROLIFIC, "PROLIFIC_PID": value}))
    assert (r.parameter, r.reason) == ("PROLIFIC_PID", reason)


def test_a_parameter_given_twice_counts_once_if_equal_and_is_refused_if_not():
    same = {k: [v] for k, v in PROLIFIC.items()} | {"PROLIFIC_PID": [PID, PID]}
    assert isinstance(parse_entry(Platform.PROLIFIC, same), WorkerEntry)
    other = "0" * 24
    r = refusal(parse_entry(Platform.PROLIFIC, {**same, "PROLIFIC_PID": [PID, other]}))
    assert r.reason is RefusalReason.AMBIGUOUS


def test_non_text_values_are_refused_not_crashed_on():
    r = refusal(parse_entry(Platform.PROLIFIC, {**PROLIFIC, "STUDY_ID": [42]}))  # type: ignore[dict-item]
    assert r.reason is RefusalReason.MALFORMED


def test_mturk_link_gives_worker_assignment_hit_and_submit_origin():
    entry = parse_entry(Platform.MTURK, MTURK)
    assert entry == WorkerEntry(
        Platform.MTURK,
        "A1B2C3D4E5F6G7",
        assignment_id=MTURK["assignmentId"],
        hit_id=MTURK["hitId"],
        submit_to="https://www.mturk.com",
    )


def test_mturk_preview_has_no_worker_and_needs_no_worker_id():
    entry = parse_entry(Platform.MTURK, {"assignmentId": "ASSIGNMENT_ID_NOT_AVAILABLE", "hitId": MTURK["hitId"]})
    assert entry == WorkerEntry(Platform.MTURK, None, preview=True, hit_id=MTURK["hitId"])
    # A forged workerId on a preview link creates nothing either.
    entry = parse_entry(Platform.MTURK, {"assignmentId": "ASSIGNMENT_ID_NOT_AVAILABLE", "workerId": "AFORGED"})
    assert isinstance(entry, WorkerEntry) and entry.preview and entry.external_id is None
    assert completion_target(entry, "CODE") is None
    r = refusal(parse_entry(Platform.MTURK, {"assignmentId": "ASSIGNMENT_ID_NOT_AVAILABLE", "hitId": "bad id"}))
    assert r.parameter == "hitId"


@pytest.mark.parametrize("missing", ["workerId", "assignmentId", "hitId", "turkSubmitTo"])
def test_mturk_missing_parameter_is_refused(missing):
    r = refusal(parse_entry(Platform.MTURK, {k: v for k, v in MTURK.items() if k != missing}))
    assert (r.parameter, r.reason) == (missing, RefusalReason.MISSING)


@pytest.mark.parametrize(
    "value, reason",
    [
        ("a1b2c3", RefusalReason.MALFORMED),  # MTurk ids are uppercase
        ("A" * 64, None),
        ("A" * 65, RefusalReason.TOO_LONG),
        ("A1B2-C3", RefusalReason.MALFORMED),
        ("A1B2C3'; DROP TABLE users;--", RefusalReason.MALFORMED),
        ("", RefusalReason.EMPTY),
    ],
)
def test_mturk_worker_id_shape(value, reason):
    result = parse_entry(Platform.MTURK, {**MTURK, "workerId": value})
    if reason is None:
        assert isinstance(result, WorkerEntry) and result.external_id == value
    else:
        assert refusal(result).reason is reason


@pytest.mark.parametrize(
    "value, origin",
    [
        ("https://www.mturk.com", "https://www.mturk.com"),
        ("https://www.mturk.com/", "https://www.mturk.com"),
        ("https://workersandbox.mturk.com", "https://workersandbox.mturk.com"),
        ("https://WWW.MTURK.COM", "https://www.mturk.com"),
        ("http://www.mturk.com", None),
        ("https://www.mturk.com.evil.example", None),
        ("https://evil.example/?x=www.mturk.com", None),
        ("https://www.mturk.com@evil.example", None),
        ("https://user:pw@www.mturk.com", None),
        ("https://www.mturk.com:8443", None),
        ("https://www.mturk.com:443", None),
        ("https://www.mturk.com/mturk/externalSubmit", None),
        ("https://www.mturk.com/?a=b", None),
        ("https://www.mturk.com/#x", None),
        ("https://www.mturk.com:notaport", None),
        ("javascript:alert(1)", None),
        ("https://www.mturk.com\n", None),
        ("//www.mturk.com", None),
        ("", None),
    ],
)
def test_turk_submit_to_must_be_one_of_mturks_two_origins(value, origin):
    assert mturk_submit_origin(value) == origin
    result = parse_entry(Platform.MTURK, {**MTURK, "turkSubmitTo": value})
    if origin is None:
        r = refusal(result)
        assert r.parameter == "turkSubmitTo" and r.reason in (RefusalReason.UNTRUSTED_HOST, RefusalReason.EMPTY)
    else:
        assert isinstance(result, WorkerEntry) and result.submit_to == origin


def test_open_link_with_and_without_an_opaque_id():
    assert parse_entry(Platform.OPEN, {}) == WorkerEntry(Platform.OPEN, None)
    assert parse_entry(Platform.OPEN, {"pid": "panel-42_x.y~z"}) == WorkerEntry(Platform.OPEN, "panel-42_x.y~z")
    assert refusal(parse_entry(Platform.OPEN, {"pid": ""})).reason is RefusalReason.EMPTY
    assert refusal(parse_entry(Platform.OPEN, {"pid": "a b"})).reason is RefusalReason.MALFORMED
    assert refusal(parse_entry(Platform.OPEN, {"pid": "<script>"})).reason is RefusalReason.MALFORMED
    assert refusal(parse_entry(Platform.OPEN, {"pid": "a" * 129})).reason is RefusalReason.TOO_LONG
    # Other platforms' parameters mean nothing on an open campaign.
    assert parse_entry(Platform.OPEN, PROLIFIC) == WorkerEntry(Platform.OPEN, None)


def test_oversized_or_overlong_query_strings_are_refused():
    assert refusal(parse_query("a=" + "x" * 5000)).reason is RefusalReason.TOO_LONG
    assert refusal(parse_query("&".join(f"p{i}=1" for i in range(60)))).reason is RefusalReason.TOO_LONG
    assert parse_query("") == {}


def test_prolific_completion_redirect():
    entry = parse_entry(Platform.PROLIFIC, PROLIFIC)
    assert isinstance(entry, WorkerEntry)
    assert completion_target(entry, "C12FEFJU") == CompletionTarget(
        "GET", "https://app.prolific.com/submissions/complete?cc=C12FEFJU"
    )


def test_mturk_completion_is_a_form_post_to_external_submit():
    entry = parse_entry(Platform.MTURK, {**MTURK, "turkSubmitTo": "https://workersandbox.mturk.com/"})
    assert isinstance(entry, WorkerEntry)
    target = completion_target(entry, "DONE-1")
    assert target == CompletionTarget(
        "POST",
        "https://workersandbox.mturk.com/mturk/externalSubmit",
        (("assignmentId", MTURK["assignmentId"]), ("completionCode", "DONE-1")),
    )


def test_a_hand_built_entry_with_a_foreign_submit_host_gets_no_target():
    entry = WorkerEntry(Platform.MTURK, "A1", assignment_id="B2", hit_id="C3", submit_to="https://evil.example")
    with pytest.raises(ConfigError):
        completion_target(entry, "CODE")


def test_open_completion_uses_the_campaigns_https_redirect_with_the_code():
    entry = WorkerEntry(Platform.OPEN, None)
    assert completion_target(entry, "ABC") is None
    target = completion_target(entry, "A_B-1", "https://survey.example/done?code={code}&src=dyna")
    assert target == CompletionTarget("GET", "https://survey.example/done?code=A_B-1&src=dyna")
    assert completion_target(entry, "ABC", "https://survey.example/thanks") == CompletionTarget(
        "GET", "https://survey.example/thanks"
    )
    assert parse_qs(urlsplit(target.url).query)["code"] == ["A_B-1"]


@pytest.mark.parametrize(
    "redirect",
    [
        "http://survey.example/",
        "javascript:alert(1)",
        "//survey.example",
        "https://u:p@survey.example",
        "https:///path",
        "https://x.example:99999/",
    ],
)
def test_unsafe_redirects_are_config_errors(redirect):
    with pytest.raises(ConfigError) as error:
        completion_target(WorkerEntry(Platform.OPEN, None), "ABC", redirect)
    assert error.value.field == "completionRedirect"


@pytest.mark.parametrize("code", ["", "a b", "x" * 65, "<b>", "ü"])
def test_bad_completion_codes_are_config_errors(code):
    with pytest.raises(ConfigError):
        completion_target(WorkerEntry(Platform.OPEN, None), code)


def test_external_id_key_is_a_stable_keyed_hash_per_platform():
    key = external_id_key(SECRET, Platform.PROLIFIC, PID)
    assert len(key) == 64 and int(key, 16) >= 0
    assert key == external_id_key(SECRET, Platform.PROLIFIC, PID)
    assert PID not in key
    assert key != external_id_key(b"j" * 32, Platform.PROLIFIC, PID)
    assert key != external_id_key(SECRET, Platform.OPEN, PID)
    with pytest.raises(ConfigError):
        external_id_key(b"short", Platform.PROLIFIC, PID)
    with pytest.raises(ValueError):
        external_id_key(SECRET, Platform.PROLIFIC, "")


def test_canonical_external_id_matches_what_a_join_link_stores():
    assert canonical_external_id(Platform.PROLIFIC, f" {PID.upper()} ") == PID
    assert canonical_external_id(Platform.PROLIFIC, "nope") is None
    assert canonical_external_id(Platform.MTURK, "A1B2") == "A1B2"
    assert canonical_external_id(Platform.MTURK, "a1b2") is None
    assert canonical_external_id(Platform.OPEN, "x.y") == "x.y"


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(list(Platform)),
    st.dictionaries(
        st.sampled_from(
            ["PROLIFIC_PID", "STUDY_ID", "SESSION_ID", "workerId", "assignmentId", "hitId", "turkSubmitTo", "pid", "x"]
        ),
        st.one_of(
            st.text(max_size=80),
            st.lists(st.text(max_size=30), max_size=3),
            st.sampled_from([PID, "ASSIGNMENT_ID_NOT_AVAILABLE", "A1B2"]),
        ),
    ),
)
def test_any_parameters_give_an_entry_or_a_refusal_never_an_exception(platform, params):
    result = parse_entry(platform, params)
    assert isinstance(result, WorkerEntry | EntryRefusal)
    if isinstance(result, WorkerEntry):
        assert result.platform is platform
        if result.external_id is not None:
            assert canonical_external_id(platform, result.external_id) == result.external_id
        if result.submit_to is not None:
            assert result.submit_to in ("https://www.mturk.com", "https://workersandbox.mturk.com")
    else:
        assert result.message and result.parameter
