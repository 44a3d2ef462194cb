"""The contamination check's pure core (server/evaluation/datasets/contamination.py): normalization, exact keys, the
n-gram join (checked against comparing every pair), the embedding test and the report's counts."""

import random

import numpy as np
import pytest

from server.evaluation.datasets import contamination as c


def test_normalize_lowercases_strips_accents_and_punctuation_and_collapses_spaces():
    assert c.normalize("  Café   CRÈME brûlée!!  ") == "cafe creme brulee"
    assert c.normalize("It's   great,\tisn't it?") == "it s great isn t it"
    assert c.normalize("Ünïcödé —  dash…") == "unicode dash"
    assert c.normalize("") == "" and c.normalize(" ?! ") == ""
    # Symbols are words: an emoji can be what a hateful statement says.
    assert c.normalize("I would love to 🔪some 👳🏾!") == "i would love to 🔪 some 👳 🏾"
    assert c.exact_key(["I would love to 👏🏽 some 👳🏾"]) != c.exact_key(["I would love to 🔪 some 👳🏾"])
    assert c.normalize("Price: $5+tax") == "price $ 5 + tax"


def test_exact_key_ignores_case_accents_and_punctuation_but_not_field_boundaries():
    assert c.exact_key(["The food was GREAT!"]) == c.exact_key(["the food was great"])
    assert c.exact_key(["Résumé", "ok"]) == c.exact_key(["resume", "OK."])
    assert c.exact_key(["a b", "c"]) != c.exact_key(["a", "b c"])
    assert c.exact_key(["the food was great"]) != c.exact_key(["the food was good"])


def test_ngrams_of_short_and_long_texts():
    assert c.ngrams("One two.") == frozenset({"one two"})  # fewer than 3 words: the text is its one n-gram
    assert c.ngrams("") == frozenset()
    assert c.ngrams("A b c d") == frozenset({"a b c", "b c d"})
    assert c.ngrams("a b c d", n=2) == frozenset({"a b", "b c", "c d"})


def test_jaccard():
    assert c.jaccard(frozenset("ab"), frozenset("ab")) == 1.0
    assert c.jaccard(frozenset("ab"), frozenset("bc")) == pytest.approx(1 / 3)
    assert c.jaccard(frozenset(), frozenset()) == 1.0
    assert c.jaccard(frozenset("a"), frozenset()) == 0.0


def test_prefix_length_keeps_a_token_that_floating_point_would_drop():
    # 0.7 * 10 == 7.000000000000001: a naive ceil gives 8 and a prefix of 3 instead of 4.
    assert c.prefix_length(10, 0.7) == 4
    assert c.prefix_length(1, 0.7) == 1
    assert c.prefix_length(0, 0.7) == 0


def _brute_force(rows, corpus, n, threshold):
    found = {}
    for i, row in enumerate(rows):
        best = None
        for j, item in enumerate(corpus):
            sim = min(c.jaccard(c.ngrams(a, n), c.ngrams(b, n)) for a, b in zip(row, item, strict=True))
            if sim >= threshold - 1e-9 and (best is None or sim > best[1]):
                best = (j, sim)
        if best is not None:
            found[i] = best
    return found


@pytest.mark.parametrize("threshold", [0.5, 0.7, 0.9])
@pytest.mark.parametrize("seed", range(4))
def test_ngram_join_finds_exactly_the_pairs_that_comparing_every_pair_finds(seed, threshold):
    rng = random.Random(seed)
    words = [f"w{k}" for k in range(25)]  # a small vocabulary: many partial overlaps

    def text():
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 12)))

    corpus = [(text(), text()) for _ in range(120)]
    rows = []
    for _ in range(80):
        base = list(rng.choice(corpus))
        edit = rng.random()
        if edit < 0.3:  # a word replaced
            tokens = base[0].split()
            tokens[rng.randrange(len(tokens))] = rng.choice(words)
            base[0] = " ".join(tokens)
        elif edit < 0.6:  # a word added at the end of one field or the other
            f = rng.randrange(2)
            base[f] = f"{base[f]} {rng.choice(words)}"
        elif edit < 0.7:  # a copy
            pass
        else:
            base = [text(), text()]
        rows.append(tuple(base))
    expected = _brute_force(rows, corpus, 3, threshold)
    got = c.ngram_matches(rows, corpus, threshold=threshold, key_field=0)
    assert {i: round(s, 9) for i, (_, s) in got.items()} == {i: round(s, 9) for i, (_, s) in expected.items()}
    assert len(got) >= 8 and any(s < 1 for _, s in got.values())  # the case is not vacuous
    for i, (j, s) in got.items():  # the returned match has that similarity
        assert min(c.jaccard(c.ngrams(a), c.ngrams(b)) for a, b in zip(rows[i], corpus[j], strict=True)) == pytest.approx(s)


def test_a_shared_premise_alone_is_not_a_duplicate():
    premise = "A man in a blue coat is walking his dog along the river on a cold morning in the city."
    rows = [(premise, "The man is outside with an animal.")]
    corpus = [(premise, "Nobody is walking near the river today.")]
    assert c.ngram_matches(rows, corpus, key_field=1) == {}
    assert c.compare(rows, corpus, key_field=1).counts()["rows"] == 0


def test_compare_counts_each_row_once_exact_first():
    corpus = [
        ("The waiter smiled at us the whole evening and brought extra bread.",),
        ("I waited forty minutes for a cold pizza with no cheese at all.",),
    ]
    rows = [
        ("THE WAITER smiled at us, the whole evening and brought extra bread!",),  # exact after normalization
        ("I waited forty minutes for a cold pizza with no cheese at all today.",),  # one word added: near
        ("Completely different sentence about a bicycle race in the mountains.",),
    ]
    report = c.compare(rows, corpus)
    assert report.counts() == {"compared": 2, "exact": 1, "near_ngram": 1, "near_embedding": 0, "rows": 2}
    assert report.matches[0] == c.Match(0, 0, c.EXACT, 1.0)
    assert report.matches[1].match == 1 and 0.7 <= report.matches[1].similarity < 1
    assert not report.embeddings


def test_compare_with_empty_sides():
    assert c.compare([], [("a",)]).counts()["rows"] == 0
    assert c.compare([("a",)], []).counts() == {"compared": 0, "exact": 0, "near_ngram": 0, "near_embedding": 0, "rows": 0}


def _unit(rng, n, d):
    v = rng.normal(size=(n, d)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_embedding_matches_take_the_minimum_over_fields_and_the_best_corpus_row(monkeypatch):
    monkeypatch.setattr(c, "_BLOCK", 3)  # several blocks on both sides
    monkeypatch.setattr(c, "_CORPUS_BLOCK", 4)
    rng = np.random.default_rng(7)
    corpus = [_unit(rng, 10, 16), _unit(rng, 10, 16)]
    rows = [_unit(rng, 7, 16), _unit(rng, 7, 16)]
    rows[0][2], rows[1][2] = corpus[0][9], corpus[1][9]  # row 2 = corpus row 9 on both fields
    rows[0][4], rows[1][4] = corpus[0][5], corpus[1][6]  # row 4: one field matches row 5, the other row 6
    rows[0][5] = corpus[0][8] + 0.05 * rows[0][5]  # row 5: close to corpus row 8 on both fields
    rows[1][5] = corpus[1][8] + 0.05 * rows[1][5]
    found = c.embedding_matches(rows, corpus, threshold=0.95)
    assert set(found) == {2, 5}
    assert found[2][0] == 9 and found[2][1] == pytest.approx(1.0, abs=1e-5)
    assert found[5][0] == 8 and 0.95 <= found[5][1] < 1.0
    # The same as the full matrices.
    sims = np.minimum(c.unit_rows(rows[0]) @ c.unit_rows(corpus[0]).T, c.unit_rows(rows[1]) @ c.unit_rows(corpus[1]).T)
    assert {i for i in range(7) if sims[i].max() >= 0.95} == {2, 5}
    assert c.embedding_matches(rows, corpus, threshold=0.95, only=[0, 1, 5]) == {5: found[5]}


def test_compare_runs_the_embedding_test_only_on_rows_not_matched_before():
    rows = [("alpha beta gamma delta",), ("one two three four",), ("red green blue",)]
    corpus = [("alpha beta gamma delta",), ("completely unrelated words here",)]
    vectors = np.eye(3, 4, dtype=np.float32)
    corpus_vectors = np.array([[1, 0, 0, 0], [0, 0.999, 0.02, 0]], dtype=np.float32)
    report = c.compare(rows, corpus, row_vectors=[vectors], corpus_vectors=[corpus_vectors])
    assert report.embeddings
    assert report.matches[0].kind == c.EXACT
    assert report.matches[1] == c.Match(1, 1, c.NEAR_EMBEDDING, pytest.approx(0.9998, abs=1e-4))
    assert 2 not in report.matches
    assert report.counts() == {"compared": 2, "exact": 1, "near_ngram": 0, "near_embedding": 1, "rows": 2}


def test_vectors_may_cover_only_some_corpus_rows():
    rows = [("one two three four",)]
    corpus = [("a b c d",), ("e f g h",), ("i j k l",)]
    report = c.compare(
        rows,
        corpus,
        row_vectors=[np.array([[0, 1]], dtype=np.float32)],
        corpus_vectors=[np.array([[1, 0], [0, 1]], dtype=np.float32)],  # rows 0 and 2 of the corpus only
        vector_rows=[0, 2],
    )
    assert report.matches[0] == c.Match(0, 2, c.NEAR_EMBEDDING, 1.0)


def test_examples_are_capped_and_spread_over_kinds():
    report = c.OverlapReport(rows=10, compared=5)
    for i in range(6):
        report.matches[i] = c.Match(i, 0, c.EXACT, 1.0)
    report.matches[7] = c.Match(7, 1, c.NEAR_NGRAM, 0.8)
    report.matches[8] = c.Match(8, 2, c.NEAR_EMBEDDING, 0.97)
    picked = report.examples(4)
    assert [(m.kind, m.row) for m in picked] == [(c.EXACT, 0), (c.EXACT, 1), (c.NEAR_NGRAM, 7), (c.NEAR_EMBEDDING, 8)]
    assert len(report.examples(100)) == 8
