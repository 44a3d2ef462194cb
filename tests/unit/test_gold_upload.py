"""uploadGold's file parsing (server/annotation/quality/gold_upload.py): every bad line named, nothing half-read."""

import pytest

from server.annotation.quality.gold_upload import MAX_ROWS, parse_rows
from server.core.errors import ServiceError


def test_rows_are_read_with_their_line_numbers():
    text = '{"fields": {"statement": "Fine."}, "label": "positive", "gold": "CORRECT"}\n\n{"fields": {}, "answer": "x", "gold": "flagged", "contextId": 7}\n'
    rows = parse_rows(text)
    assert [(r.line, r.gold, r.intended, r.context_id) for r in rows] == [
        (1, "correct", "positive", None),
        (3, "flagged", "x", 7),
    ]


@pytest.mark.parametrize(
    "line, field",
    [
        ("{", "line 1"),
        ("[1]", "line 1"),
        ('{"gold": "maybe"}', "line 1.gold"),
        ('{"gold": "correct", "extra": 1}', "line 1"),
        ('{"gold": "correct", "contextId": true}', "line 1.contextId"),
        ('{"gold": "correct", "answerStart": "0"}', "line 1.answerStart"),
    ],
)
def test_a_bad_line_refuses_the_file(line, field):
    with pytest.raises(ServiceError) as raised:
        parse_rows('{"fields": {}, "label": "positive", "gold": "correct"}\n' + line.replace("line 1", ""))
    assert raised.value.code == "INVALID_INPUT"
    assert [p.field for p in raised.value.fields] == [field.replace("line 1", "line 2")]


def test_empty_and_oversized_files_are_refused():
    for text in ("", "\n \n"):
        with pytest.raises(ServiceError, match="no rows"):
            parse_rows(text)
    with pytest.raises(ServiceError, match="At most"):
        parse_rows('{"gold": "correct"}\n' * (MAX_ROWS + 1))
