"""Fuzzing the owners' gold-item operations (issue #17): markGold, unmarkGold, uploadGold (multipart JSONL files, and
as JSON), reinstateValidator and reinstateBattleVoter."""

import json

from hypothesis import example, given
from hypothesis import strategies as st

from tests.fuzz.conftest import FUZZ
from tests.fuzz.junk import INVALID_UTF8_BYTES, junk_strings, weighted
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import Case, cases
from tests.fuzz.uploads import MultipartCase, multipart_cases, send_multipart


@FUZZ
@example(Case("markGold", "alice", {"exampleId": Ref("example:bob:alpha"), "answer": "FLAGGED"}))
@given(case=cases("markGold"))
def test_mark_gold(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("unmarkGold", "carol", {"exampleId": Ref("example:alice:beta")}))
@given(case=cases("unmarkGold"))
def test_unmark_gold(fuzzer, case):
    fuzzer.send(case)


gold_lines = st.one_of(
    st.fixed_dictionaries(
        {
            "fields": st.one_of(
                st.fixed_dictionaries({"statement": weighted((3, st.sampled_from(["Lovely.", "Awful."])), (1, junk_strings))}),
                st.sampled_from([None, [], "x", {"other": "y"}]),
            ),
            "gold": st.sampled_from(["correct", "INCORRECT", "flagged", "maybe", "", 1, None]),
        },
        optional={
            "label": st.sampled_from(["positive", "negative", "Positive", "", None, 3]),
            "answer": junk_strings,
            "answerStart": st.sampled_from([0, -1, 10**12, "0", True]),
            "contextId": st.sampled_from([1, 0, -5, 2**40, "1", None, True]),
            "uid": junk_strings,
        },
    ).map(lambda row: json.dumps(row).encode()),
    st.sampled_from([b"", b"{", b"[]", b"null", b'"x"', INVALID_UTF8_BYTES, b"\x00", b'{"gold": "correct"}']),
)
gold_files = weighted(
    (4, st.lists(gold_lines, max_size=5).map(b"\n".join)),
    (1, st.sampled_from([b"", b"\n\n", INVALID_UTF8_BYTES * 5, b'{"gold":"correct"}\n' * 1500])),
)


@FUZZ
@example(MultipartCase("uploadGold", "bob", {"roundId": Ref("round:alpha")}, (("0", "gold.jsonl", b"\x00"),)))
@given(case=multipart_cases("uploadGold", "file", gold_files))
def test_upload_gold_multipart(fuzzer, case):
    send_multipart(fuzzer, case, "file")


@FUZZ
@given(case=cases("uploadGold"))
def test_upload_gold_as_json(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("reinstateValidator", "alice", {"taskCode": Ref("code:alpha"), "username": Ref("username:bob")}))
@example(Case("reinstateValidator", "alice", {"taskCode": Ref("code:alpha"), "username": "\x00" * 70}))
@given(case=cases("reinstateValidator"))
def test_reinstate_validator(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("reinstateBattleVoter", "alice", {"taskCode": Ref("code:alpha"), "username": Ref("username:bob")}))
@example(Case("reinstateBattleVoter", "bob", {"taskCode": Ref("code:alpha"), "username": "\x00" * 70}))
@given(case=cases("reinstateBattleVoter"))
def test_reinstate_battle_voter(fuzzer, case):
    fuzzer.send(case)
