"""Leave-one-out occlusion, the pure part: pieces, removing one, and the attributions."""

from server.annotation.occlusion import Piece, attributions, pieces, support, without


def test_words_and_punctuation_are_pieces_with_their_offsets():
    found = pieces({"statement": "I don't like it, at all!"}, ["statement"], 63)
    assert [p.text for p in found] == ["I", "don't", "like", "it", ",", "at", "all", "!"]
    assert all(p.field == "statement" for p in found)
    assert found[1] == Piece("statement", 2, 7, "don't")


def test_only_the_named_fields_and_long_texts_are_grouped_to_fit():
    fields = {"premise": "Not mine.", "hypothesis": " ".join(f"w{i}" for i in range(100))}
    found = pieces(fields, ["hypothesis"], 63)
    assert len(found) <= 63 and {p.field for p in found} == {"hypothesis"}
    assert found[0].text == "w0 w1" and found[-1].text.endswith("w99")  # covered end to end, two words a piece
    covered = " ".join(p.text for p in found)
    assert covered == fields["hypothesis"]
    assert pieces({"h": "   "}, ["h"], 63) == [] and pieces({}, ["h"], 63) == []


def test_removing_a_piece_closes_up_the_spaces():
    fields = {"statement": "The plot was not good.", "other": "kept"}
    not_piece = next(p for p in pieces(fields, ["statement"], 63) if p.text == "not")
    assert without(fields, not_piece) == {"statement": "The plot was good.", "other": "kept"}


def test_attributions_are_the_fall_in_support_for_the_original_answer():
    original = {"label": "negative", "probs": {"negative": 0.9, "positive": 0.1}}
    variants = [
        {"label": "positive", "probs": {"negative": 0.2, "positive": 0.8}},  # this piece carried the verdict
        {"label": "negative", "probs": {"negative": 0.95, "positive": 0.05}},  # this one pulled the other way
    ]
    assert attributions("classification", original, variants) == [0.7, -0.05]


def test_qa_support_is_the_confidence_in_the_same_answer_only():
    original = {"answer": "The Eiffel Tower", "confidence": 0.8}
    assert support("extractive_qa", {"answer": "eiffel tower.", "confidence": 0.6}, original) == 0.6
    assert support("extractive_qa", {"answer": "Paris", "confidence": 0.99}, original) == 0.0
    assert attributions("extractive_qa", original, [{"answer": "Paris", "confidence": 0.99}]) == [0.8]
