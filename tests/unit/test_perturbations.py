import os
import random
import string
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.evaluation.metrics.perturbations import FIRST_NAMES, GENDERED_PAIRS, fairness, perturb, perturb_fields, robustness

SENTENCE = "She said her brother does not like the new film, but I'm sure it is fine and Emily agrees."
TEXTS = [
    SENTENCE,
    "The movie was great",
    "Jamal gave her the book and it was his.",
    "I do not think it is a good idea, can't you see?",
    "ok",
    "What is the capital of France?",
]


# ---------------------------------------------------------------------------------------------- API


@pytest.mark.parametrize("kind", ["robustness", "fairness"])
@pytest.mark.parametrize("text", TEXTS)
def test_variants_are_distinct_different_from_the_original_and_at_most_n(text, kind):
    for n in (1, 3, 5):
        variants = perturb(text, kind, seed=7, n=n)
        assert len(variants) <= n
        assert len(set(variants)) == len(variants)
        assert text not in variants
        assert all(isinstance(v, str) for v in variants)


@pytest.mark.parametrize("text", TEXTS)
def test_robustness_always_finds_n_variants_for_ordinary_text(text):
    assert len(perturb(text, "robustness", seed=1, n=3)) == 3


@pytest.mark.parametrize("kind", ["robustness", "fairness"])
def test_same_input_same_output(kind):
    assert perturb(SENTENCE, kind, 42, 4) == perturb(SENTENCE, kind, 42, 4)
    # Fewer variants are a prefix of more: the i-th variant does not depend on n.
    assert perturb(SENTENCE, kind, 42, 2) == perturb(SENTENCE, kind, 42, 4)[:2]


def test_seed_changes_the_output():
    outputs = {tuple(perturb(SENTENCE, "robustness", seed, 3)) for seed in range(10)}
    assert len(outputs) > 5


def test_output_does_not_depend_on_the_process_or_hash_seed():
    code = (
        "from server.evaluation.metrics.perturbations import perturb;"
        f"print(repr([perturb({SENTENCE!r}, k, 3, 4) for k in ('robustness', 'fairness')]))"
    )
    root = Path(__file__).resolve().parents[2]
    outputs = set()
    for hash_seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        run = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True)
        outputs.add(run.stdout)
    assert outputs == {repr([perturb(SENTENCE, k, 3, 4) for k in ("robustness", "fairness")]) + "\n"}


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=80), seed=st.integers(0, 2**32), kind=st.sampled_from(["robustness", "fairness"]))
def test_any_text_gives_valid_variants(text, seed, kind):
    variants = perturb(text, kind, seed, 3)
    assert len(variants) == len(set(variants)) <= 3
    assert text not in variants
    assert variants == perturb(text, kind, seed, 3)


def test_edge_cases():
    assert perturb("", "robustness", 0) == []
    assert perturb("   ", "fairness", 0) == []
    assert perturb(SENTENCE, "robustness", 0, n=0) == []
    with pytest.raises(ValueError):
        perturb(SENTENCE, "robustness", 0, n=-1)
    with pytest.raises(ValueError):
        perturb(SENTENCE, "style", 0)
    with pytest.raises(ValueError):
        perturb_fields({"q": "x"}, [], "style", 0)


# ------------------------------------------------------------------------------------- robustness


def _edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _is_subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)


def _classify(original: str, variant: str) -> str:
    """Which single robustness perturbation turns SENTENCE into ``variant``."""

    def canonical(text: str) -> str:  # undo the contractions SENTENCE allows
        for short, long in (("doesn't", "does not"), ("I am", "I'm"), ("it's", "it is")):
            text = text.replace(short, long)
        return text

    if variant.lower() == original.lower():
        return "case"
    if _is_subsequence(original, variant):
        return "punctuation"
    if canonical(variant) == canonical(original):
        return "contractions"
    words, new_words = original.split(), variant.split()
    if len(words) == len(new_words):
        changed = [(a, b) for a, b in zip(words, new_words) if a != b]
        if changed and all(_edit_distance(a, b) <= 2 for a, b in changed):
            return "typos"
    raise AssertionError(f"unexpected variant {variant!r}")


def test_robustness_covers_every_kind_over_seeds():
    kinds = set()
    for seed in range(40):
        for variant in perturb(SENTENCE, "robustness", seed, 4):
            kinds.add(_classify(SENTENCE, variant))
    assert kinds == {"case", "punctuation", "contractions", "typos"}


def test_typos_edit_a_few_words_by_one_character():
    text = "The quick brown fox jumps over the lazy dog near the river bank today"
    words = text.split()
    for seed in range(30):
        out = robustness._typos(text, random.Random(seed))
        assert out != text
        out_words = out.split()
        assert len(out_words) == len(words)
        changed = [(a, b) for a, b in zip(words, out_words) if a != b]
        assert 1 <= len(changed) <= max(1, round(0.1 * len(words)))
        for a, b in changed:
            assert _edit_distance(a, b) <= 2  # substitution / deletion 1, adjacent swap 2
            assert len(b) >= len(a) - 1


def test_typo_substitutions_use_adjacent_keys_and_keep_case():
    assert set(robustness._ADJACENT_KEYS["a"]) == set("qwsz")
    assert set(robustness._ADJACENT_KEYS["p"]) == set("ol")
    assert set(robustness._ADJACENT_KEYS["m"]) == set("jkn")
    assert set(robustness._ADJACENT_KEYS["g"]) == set("tyfhvb")
    for seed in range(30):
        word = robustness._typo_word("Hello", random.Random(seed))
        assert word != "Hello"
        if len(word) == 5 and sorted(word) != sorted("Hello"):
            i = next(i for i in range(5) if word[i] != "Hello"[i])
            assert word[i].lower() in robustness._ADJACENT_KEYS["Hello"[i].lower()]
            assert word[i].isupper() == "Hello"[i].isupper()


def test_case_changes_only_change_case():
    for seed in range(20):
        out = robustness._case("The quick brown fox", random.Random(seed))
        assert out != "The quick brown fox" and out.lower() == "the quick brown fox"
    assert robustness._title("don't stop NASA") == "Don't Stop NASA"


def test_punctuation_and_whitespace_only_insert():
    inserted = set(string.punctuation) | {" "}
    for seed in range(30):
        for text in ("The quick brown fox", "Is it raining?", "x"):
            out = robustness._punctuation(text, random.Random(seed))
            assert out != text and _is_subsequence(text, out)
            extra = list(out)
            for ch in text:
                extra.remove(ch)
            assert set(extra) <= inserted


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I do not know him", "I don't know him"),
        ("I do not.", "I don't."),
        ("Do not go", "Don't go"),
        ("DO NOT GO", "DON'T GO"),
        ("He cannot swim", "He can't swim"),
        ("It will not work", "It won't work"),
        ("It is not here", "It isn't here"),
        ("I am here", "I'm here"),
        ("It is raining", "It's raining"),
        ("Don't go", "Do not go"),
        ("I can’t swim", "I cannot swim"),  # curly apostrophe
        ("We won't stop", "We will not stop"),
        ("I've seen it", "I have seen it"),
        ("She'd like tea", None),  # 'd is not in the lists (would/had is ambiguous)
        ("I know what it is.", None),  # never "what it's."
        ("It's been a while", None),  # 's before "been" means "has"
        ("I have a car", None),  # "have" is only ever expanded
    ],
)
def test_contractions(text, expected):
    out = robustness._contractions(text, random.Random(0))
    assert out == (expected if expected is not None else text)


def test_contractions_choose_a_subset_of_sites():
    text = "I do not know and I do not care"
    outs = {robustness._contractions(text, random.Random(seed)) for seed in range(30)}
    assert outs == {"I don't know and I do not care", "I do not know and I don't care", "I don't know and I don't care"}


# --------------------------------------------------------------------------------------- fairness


@pytest.mark.parametrize(
    "text, expected",
    [
        ("He gave his book to her.", "She gave her book to him."),
        ("She gave her book to him.", "He gave his book to her."),
        ("I saw her and waved", "I saw him and waved"),
        ("It is his.", "It is hers."),
        ("It is hers.", "It is his."),
        ("her own car", "his own car"),
        ("HIS MOTHER", "HER FATHER"),
        ("My Mother and my father", "My Father and my mother"),
        ("Mr. Smith met the women", "Mrs. Smith met the men"),
        ("The actress and the waiter", "The actor and the waitress"),
        ("He said he would", "She said she would"),
        ("himself herself", "herself himself"),
    ],
)
def test_gendered_word_swaps(text, expected):
    assert perturb(text, "fairness", seed=0, n=3) == [expected]


def test_gendered_words_are_whole_words_only():
    assert perturb("Theme of the chemistry manual", "fairness", 0) == []  # he/man inside words
    assert perturb("The shepherd", "fairness", 0) == []


def test_nothing_to_swap_gives_no_fairness_variant():
    assert perturb("The movie was great", "fairness", 0, 5) == []
    assert perturb("jack up the car", "fairness", 0) == []  # lower-case: not a name


def _name_tokens(text: str) -> list[str]:
    return [m.group() for m in fairness._NAME_RE.finditer(text) if m.group()[0].isupper()]


def test_name_swaps_keep_gender_or_flip_it_with_the_pronouns():
    text = "Emily said she would call Emily's brother Jamal."
    variants = perturb(text, "fairness", seed=3, n=6)
    assert len(variants) >= 3
    for variant in variants:
        names = _name_tokens(variant)
        assert len(names) == 3
        assert names[0] == names[1]  # the same person keeps one name
        assert names[0] != names[2]
        new_emily, new_jamal = (fairness._NAME_GROUP[n.lower()] for n in (names[0], names[2]))
        if " she " in variant:  # name swap: same gender, another ethnicity
            assert new_emily[1] == "female" and new_emily[0] != "white"
            assert new_jamal[1] == "male" and new_jamal[0] != "black"
            assert "brother" in variant
        else:  # gender flip: names of the other gender, same ethnicity, gendered words swapped
            assert " he " in variant and "sister" in variant
            assert new_emily == ("white", "male") and new_jamal == ("black", "female")
            assert f"{names[1]}'s" in variant


def test_name_swap_preserves_case_and_possessives():
    variants = perturb("EMILY met Emily's friend", "fairness", seed=5, n=4)
    for variant in variants:
        first, second = variant.split()[0], variant.split()[2]
        assert first.isupper() and second.endswith("'s")
        assert first.lower() == second[:-2].lower()


def test_name_lists():
    all_names = [name for names in FIRST_NAMES.values() for name in names]
    assert len(all_names) == len({n.lower() for n in all_names}), "a name is in two lists"
    for group, names in FIRST_NAMES.items():
        assert 20 <= len(names) <= 40, group
        for name in names:
            assert name[0].isupper() and name.isalpha()
            assert _name_tokens(f"I met {name} today") == [name]
    assert {g for _, g in FIRST_NAMES} == {"female", "male"}
    assert {e for e, _ in FIRST_NAMES} == {"white", "black", "hispanic", "asian"}
    gendered = {w for pair in GENDERED_PAIRS for w in pair}
    assert not gendered & {n.lower() for n in all_names}


# ------------------------------------------------------------------------------------------ fields


def test_perturb_fields_with_one_field_equals_perturb():
    fields = {"question": "Where did Emily and her brother go?", "context": "Emily and her brother went to Paris."}
    for kind in ("robustness", "fairness"):
        copies = perturb_fields(fields, ["question"], kind, 11, 3)
        assert [c["question"] for c in copies] == perturb(fields["question"], kind, 11, 3)
        assert all(c["context"] == fields["context"] for c in copies)  # answer spans stay valid
        assert all(set(c) == set(fields) for c in copies)


def test_perturb_fields_swaps_names_consistently_across_fields():
    fields = {"premise": "Emily bought a car for her mother.", "hypothesis": "Emily has a mother."}
    copies = perturb_fields(fields, ["premise", "hypothesis"], "fairness", 2, 4)
    assert copies
    for copy in copies:
        assert _name_tokens(copy["premise"])[0] == _name_tokens(copy["hypothesis"])[0]
        assert (copy["premise"], copy["hypothesis"]) != (fields["premise"], fields["hypothesis"])
    assert len({(c["premise"], c["hypothesis"]) for c in copies}) == len(copies)


def test_perturb_fields_robustness_changes_at_least_one_field():
    fields = {"premise": "A man is playing a guitar on stage.", "hypothesis": "Someone makes music.", "label": 3}
    copies = perturb_fields(fields, ["premise", "hypothesis", "label", "missing"], "robustness", 9, 3)
    assert len(copies) == 3
    for copy in copies:
        assert copy["label"] == 3 and "missing" not in copy
        assert (copy["premise"], copy["hypothesis"]) != (fields["premise"], fields["hypothesis"])
    assert perturb_fields(fields, ["label"], "robustness", 9, 3) == []
    assert perturb_fields(fields, [], "fairness", 9, 3) == []


def test_perturb_fields_does_not_mutate_its_input():
    fields = {"premise": "He is tall.", "hypothesis": "She is short."}
    before = dict(fields)
    perturb_fields(fields, ["premise", "hypothesis"], "fairness", 0, 3)
    perturb_fields(fields, ["premise", "hypothesis"], "robustness", 0, 3)
    assert fields == before
