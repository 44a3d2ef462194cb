"""Deterministic text perturbations for robustness and fairness scores (docs/design.md §4). Pure, no I/O.

Robustness perturbations (meaning-preserving noise; one kind per variant):
  * typos: on ~10% of the words (at least one), an adjacent-QWERTY-key substitution, a swap of two
    adjacent letters, or a deletion of one letter;
  * case changes: lower-case everything, upper-case everything, Title Case, or upper-case one word;
  * punctuation / whitespace insertion: a doubled space, a punctuation mark after a word, or a
    repeated / added final mark;
  * contractions: "do not" → "don't", "I am" → "I'm", … and back ("can't" → "cannot"), on a
    random non-empty subset of the places where one applies, case preserved.
Fairness perturbations (demographic swaps; the label should not change):
  * names: every first name from ``FIRST_NAMES`` is replaced by a name of the same gender from
    another ethnicity list (consistently: the same name gets the same replacement everywhere,
    also across the fields of one example, and never a name already in the text);
  * gender: gendered words are swapped (he↔she, his↔her, man↔woman, mother↔father, …, case
    preserved) and names are swapped to the other gender of the same ethnicity list, so that
    "Emily said she …" becomes e.g. "Greg said he …" rather than "Emily said he …".
  Text with no listed name and no gendered word has no fairness variant: ``perturb`` returns [].

Determinism: every choice comes from ``random.Random(f"{seed}:{kind}:{text}")`` (for several
fields the texts are joined with U+001F); ``random.Random`` seeds a str through SHA-512, so the
output does not depend on PYTHONHASHSEED, the process, or the machine. No set is ever iterated.

Why not AugLy or nlpaug (the design notes prefer them when they run offline) — checked on this machine:
  * ``augly[text]`` 1.0.0 (2022) installs from PyPI and its text functions do run offline, but only
    after adding dependencies it does not declare (numpy, requests); it pins ``nlpaug==1.1.3`` and
    needs ``python-magic`` (libmagic), in a 24 MB wheel that is mostly image/video assets.
  * Both draw from the process-global ``random`` / numpy state. Seeding per call would mean
    reseeding globals: not safe with concurrent jobs, and outputs change with library versions.
    Our outputs are stored as dataset rows (perturbed copies), so they must be reproducible.
  * AugLy's ``swap_gendered_words`` left a sentence-initial "She" unswapped in our trial
    ("She said he … mother" → "She said she … father"), and neither library has the demographic
    first-name lists that the fairness score needs.
  * nlpaug 1.1.11 alone requires pandas, requests and gdown; its word-level augmenters download
    models or data at run time, which cannot work here.
So this module implements the few perturbations §4 names itself, in the spirit of AugLy's
``simulate_typos`` / ``change_case`` / ``insert_punctuation_chars`` / ``contractions`` /
``swap_gendered_words`` and of the name lists used in fairness work (Bertrand & Mullainathan 2004;
Caliskan et al. 2017), which are written out below by hand.

Public API: ``perturb``, ``perturb_fields``, ``KINDS``, ``FIRST_NAMES``, ``GENDERED_PAIRS``,
``CONTRACTIONS``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Literal

Kind = Literal["robustness", "fairness"]
KINDS: tuple[str, ...] = ("robustness", "fairness")
_FIELD_SEPARATOR = "\x1f"
_ATTEMPTS_PER_VARIANT = 10

# --------------------------------------------------------------------------------------------------
# Word lists
# --------------------------------------------------------------------------------------------------

# (ethnicity, gender) -> first names. Hand-written from lists common in fairness work (Bertrand &
# Mullainathan 2004 résumé names, Caliskan et al. 2017 WEAT names, and frequent given names).
# Names that are also common English words (Hope, Grace, Will, Mark, Rose, June, Frank, …) are left
# out so that swaps do not hit ordinary words; every name is in exactly one list.
FIRST_NAMES: dict[tuple[str, str], tuple[str, ...]] = {
    ("white", "female"): (
        "Emily",
        "Anne",
        "Jill",
        "Allison",
        "Laurie",
        "Sarah",
        "Meredith",
        "Carrie",
        "Kristen",
        "Amanda",
        "Courtney",
        "Heather",
        "Melanie",
        "Katie",
        "Betsy",
        "Nancy",
        "Stephanie",
        "Ellen",
        "Lauren",
        "Colleen",
        "Megan",
        "Rachel",
        "Molly",
        "Claire",
        "Abigail",
    ),
    ("white", "male"): (
        "Greg",
        "Brendan",
        "Geoffrey",
        "Brett",
        "Matthew",
        "Neil",
        "Todd",
        "Brad",
        "Adam",
        "Harry",
        "Josh",
        "Alan",
        "Ian",
        "Justin",
        "Ryan",
        "Andrew",
        "Fred",
        "Jack",
        "Paul",
        "Jonathan",
        "Peter",
        "Connor",
        "Scott",
        "Kevin",
        "Dylan",
    ),
    ("black", "female"): (
        "Lakisha",
        "Latoya",
        "Tamika",
        "Imani",
        "Shanice",
        "Aisha",
        "Keisha",
        "Tanisha",
        "Latisha",
        "Nichelle",
        "Shereen",
        "Temeka",
        "Shaniqua",
        "Latonya",
        "Malika",
        "Yolanda",
        "Ayana",
        "Tyra",
        "Nia",
        "Kiara",
        "Ebonee",
        "Tameka",
        "Lashonda",
        "Precious",
        "Aaliyah",
    ),
    ("black", "male"): (
        "Darnell",
        "Hakim",
        "Jermaine",
        "Kareem",
        "Jamal",
        "Leroy",
        "Rasheed",
        "Tremayne",
        "Tyrone",
        "DeShawn",
        "Darius",
        "Lamar",
        "Malik",
        "Terrell",
        "Jamar",
        "Marquis",
        "Tyree",
        "Alonzo",
        "Cedric",
        "Dwayne",
        "Reginald",
        "Demetrius",
        "Andre",
        "Rashad",
        "Kendrick",
    ),
    ("hispanic", "female"): (
        "Maria",
        "Guadalupe",
        "Rosa",
        "Carmen",
        "Ana",
        "Lucia",
        "Sofia",
        "Isabella",
        "Valentina",
        "Ximena",
        "Camila",
        "Daniela",
        "Gabriela",
        "Alejandra",
        "Mariana",
        "Fernanda",
        "Paola",
        "Adriana",
        "Yesenia",
        "Marisol",
        "Esperanza",
        "Beatriz",
        "Leticia",
        "Graciela",
        "Veronica",
    ),
    ("hispanic", "male"): (
        "Jose",
        "Juan",
        "Carlos",
        "Luis",
        "Miguel",
        "Jorge",
        "Alejandro",
        "Diego",
        "Santiago",
        "Javier",
        "Ricardo",
        "Fernando",
        "Eduardo",
        "Pedro",
        "Manuel",
        "Francisco",
        "Rafael",
        "Sergio",
        "Mateo",
        "Raul",
        "Hector",
        "Ramon",
        "Pablo",
        "Andres",
        "Gustavo",
    ),
    ("asian", "female"): (
        "Mei",
        "Priya",
        "Ananya",
        "Aiko",
        "Yuki",
        "Sakura",
        "Linh",
        "Thuy",
        "Lakshmi",
        "Deepika",
        "Kavya",
        "Jing",
        "Meiling",
        "Haruka",
        "Yoko",
        "Keiko",
        "Divya",
        "Sunita",
        "Anjali",
        "Xiaoling",
        "Minji",
        "Soojin",
        "Hiroko",
        "Nguyet",
        "Shreya",
    ),
    ("asian", "male"): (
        "Wei",
        "Hiroshi",
        "Takeshi",
        "Kenji",
        "Raj",
        "Rahul",
        "Arjun",
        "Vikram",
        "Amit",
        "Hao",
        "Jian",
        "Minh",
        "Tuan",
        "Sanjay",
        "Ravi",
        "Haruto",
        "Daisuke",
        "Hyun",
        "Jin",
        "Kazuo",
        "Rohan",
        "Ajay",
        "Deepak",
        "Jae",
        "Zhiwei",
    ),
}
_GENDERS = ("female", "male")
_OTHER_GENDER = {"female": "male", "male": "female"}
_NAME_GROUP: dict[str, tuple[str, str]] = {name.lower(): group for group, names in FIRST_NAMES.items() for name in names}
# Names are matched as whole words with a capital first letter ("Emily", "EMILY", "Emily's").
_NAME_RE = re.compile(
    r"\b(" + "|".join(sorted((re.escape(n) for n in _NAME_GROUP), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)

# Gendered words, male -> female. Swapped both ways; his/her/him/hers are handled by _swap_gendered.
GENDERED_PAIRS: tuple[tuple[str, str], ...] = (
    ("he", "she"),
    ("himself", "herself"),
    ("man", "woman"),
    ("men", "women"),
    ("boy", "girl"),
    ("boys", "girls"),
    ("gentleman", "lady"),
    ("gentlemen", "ladies"),
    ("father", "mother"),
    ("fathers", "mothers"),
    ("dad", "mom"),
    ("dads", "moms"),
    ("daddy", "mommy"),
    ("papa", "mama"),
    ("son", "daughter"),
    ("sons", "daughters"),
    ("brother", "sister"),
    ("brothers", "sisters"),
    ("husband", "wife"),
    ("husbands", "wives"),
    ("boyfriend", "girlfriend"),
    ("boyfriends", "girlfriends"),
    ("groom", "bride"),
    ("grooms", "brides"),
    ("fiance", "fiancee"),
    ("uncle", "aunt"),
    ("uncles", "aunts"),
    ("nephew", "niece"),
    ("nephews", "nieces"),
    ("grandfather", "grandmother"),
    ("grandfathers", "grandmothers"),
    ("grandpa", "grandma"),
    ("grandson", "granddaughter"),
    ("grandsons", "granddaughters"),
    ("stepfather", "stepmother"),
    ("stepson", "stepdaughter"),
    ("godfather", "godmother"),
    ("king", "queen"),
    ("kings", "queens"),
    ("prince", "princess"),
    ("princes", "princesses"),
    ("lord", "lady"),
    ("sir", "madam"),
    ("mr", "mrs"),
    ("male", "female"),
    ("males", "females"),
    ("masculine", "feminine"),
    ("boyhood", "girlhood"),
    ("actor", "actress"),
    ("actors", "actresses"),
    ("waiter", "waitress"),
    ("waiters", "waitresses"),
    ("hero", "heroine"),
    ("heroes", "heroines"),
    ("monk", "nun"),
    ("monks", "nuns"),
    ("businessman", "businesswoman"),
    ("businessmen", "businesswomen"),
    ("chairman", "chairwoman"),
    ("spokesman", "spokeswoman"),
    ("policeman", "policewoman"),
    ("policemen", "policewomen"),
    ("sportsman", "sportswoman"),
    ("salesman", "saleswoman"),
)


def _gender_swap_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for male, female in GENDERED_PAIRS:
        table.setdefault(male, female)
        table.setdefault(female, male)  # "lady" -> "gentleman" (the first pair wins)
    table.update({"ms": "mr", "him": "her", "hers": "his"})
    return table


_GENDER_SWAP = _gender_swap_table()
_PRONOUNS = ("his", "her")
_GENDERED_RE = re.compile(
    r"\b(" + "|".join(sorted((re.escape(w) for w in [*_GENDER_SWAP, *_PRONOUNS]), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
# After "her", these words mean it is an object ("saw her and", "gave her the") -> "him";
# another word means a possessive ("her book") -> "his". After "his", they (or no word at all)
# mean a standalone possessive ("it is his and …") -> "hers".
_NOT_A_NOUN = frozenset(
    """
a about after again all also an and any as at away back be because before but by down either
enough everything for from here how if in into is it like me nothing now of off on once or out
over since so something than that the their them then there these this those to today tomorrow
too until up us very was were what when where whether which while who why with yesterday
""".split()
)

# Expanded -> contracted. "X is/are/will" contract only before another word (never "what it's."),
# and the "have"/"would" forms are only ever expanded (contracting "I have a car" or expanding
# "I'd gone" would make the text ungrammatical).
CONTRACTIONS: tuple[tuple[str, str], ...] = (
    ("are not", "aren't"),
    ("cannot", "can't"),
    ("could not", "couldn't"),
    ("did not", "didn't"),
    ("does not", "doesn't"),
    ("do not", "don't"),
    ("had not", "hadn't"),
    ("has not", "hasn't"),
    ("have not", "haven't"),
    ("is not", "isn't"),
    ("must not", "mustn't"),
    ("should not", "shouldn't"),
    ("was not", "wasn't"),
    ("were not", "weren't"),
    ("will not", "won't"),
    ("would not", "wouldn't"),
    ("I am", "I'm"),
    ("you are", "you're"),
    ("we are", "we're"),
    ("they are", "they're"),
    ("he is", "he's"),
    ("she is", "she's"),
    ("it is", "it's"),
    ("that is", "that's"),
    ("there is", "there's"),
    ("what is", "what's"),
    ("who is", "who's"),
    ("where is", "where's"),
    ("let us", "let's"),
    ("I will", "I'll"),
    ("you will", "you'll"),
    ("he will", "he'll"),
    ("she will", "she'll"),
    ("we will", "we'll"),
    ("they will", "they'll"),
    ("it will", "it'll"),
)
_EXPAND_ONLY: tuple[tuple[str, str], ...] = (
    ("I have", "I've"),
    ("you have", "you've"),
    ("we have", "we've"),
    ("they have", "they've"),
    ("I would", "I'd"),
    ("you would", "you'd"),
    ("we would", "we'd"),
    ("they would", "they'd"),
)
_CONTRACT = {expanded.lower(): contracted for expanded, contracted in CONTRACTIONS}
_EXPAND = {contracted.lower(): expanded for expanded, contracted in (*CONTRACTIONS, *_EXPAND_ONLY)}


def _phrase_pattern(expanded: str) -> str:
    pattern = re.escape(expanded).replace(r"\ ", r"\s+")
    # A negation contracts anywhere ("I do not." -> "I don't."); "it is" only before another word,
    # and not before "not" ("it will not" -> "it won't", never "it'll not").
    return pattern if expanded.endswith("not") else pattern + r"(?=\s+\w)(?!\s+not\b)"


_CONTRACT_RE = re.compile(
    r"\b(?:" + "|".join(_phrase_pattern(e) for e, _ in CONTRACTIONS) + r")\b",
    re.IGNORECASE,
)
_EXPAND_RE = re.compile(
    r"\b(" + "|".join(re.escape(c).replace("'", "['’]") for c in _EXPAND) + r")\b(?!\s+(?:been|got)\b)",
    re.IGNORECASE,
)

# Keys that touch each other on a QWERTY keyboard. Each row is shifted right of the one above, so
# the key at column c touches columns c and c+1 of the row above and c-1 and c of the row below
# ("g": t y / f h / v b).
_QWERTY_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")


def _adjacent_keys() -> dict[str, str]:
    adjacent: dict[str, str] = {}
    for r, row in enumerate(_QWERTY_ROWS):
        for c, ch in enumerate(row):
            near: list[str] = []
            for rr, cols in ((r - 1, (c, c + 1)), (r, (c - 1, c + 1)), (r + 1, (c - 1, c))):
                if 0 <= rr < len(_QWERTY_ROWS):
                    near += [_QWERTY_ROWS[rr][cc] for cc in cols if 0 <= cc < len(_QWERTY_ROWS[rr])]
            adjacent[ch] = "".join(near)
    return adjacent


_ADJACENT_KEYS = _adjacent_keys()

_WORD_RE = re.compile(r"[^\W\d_]+")  # runs of letters
_WORD_START_RE = re.compile(r"(?<![\w'’])[^\W\d_]+")  # letter runs not right after a letter or ' ("don't": "don")
_GAP_RE = re.compile(r"(?<=\S) (?=\S)")  # single spaces between two non-spaces
_INSERTED_MARKS = (",", ".", "!", "?", ";", " -", "...")


# --------------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------------


def _match_case(source: str, replacement: str) -> str:
    """``replacement`` in the case pattern of ``source``: UPPER, Capitalized or as given."""
    if len(source) > 1 and source.isupper():
        return replacement.upper()
    if source[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def _next_word(text: str, end: int) -> str | None:
    """The word right after position ``end`` (lower-cased), or None at punctuation / end of text."""
    match = re.match(r"\s+([^\W\d_]+)", text[end:])
    return match.group(1).lower() if match else None


# --------------------------------------------------------------------------------------------------
# Robustness operations: (text, rng) -> text
# --------------------------------------------------------------------------------------------------


def _typo_word(word: str, rng: random.Random) -> str:
    operations = ["substitute", "swap"] + (["delete"] if len(word) >= 3 else [])
    operation = rng.choice(operations)
    if operation == "substitute":
        candidates = [i for i, ch in enumerate(word) if ch.lower() in _ADJACENT_KEYS]
        if candidates:
            i = rng.choice(candidates)
            new = rng.choice(_ADJACENT_KEYS[word[i].lower()])
            return word[:i] + (new.upper() if word[i].isupper() else new) + word[i + 1 :]
        operation = "swap"
    if operation == "swap":
        candidates = [i for i in range(len(word) - 1) if word[i] != word[i + 1]]
        if candidates:
            i = rng.choice(candidates)
            return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        if len(word) < 3:
            return word
    i = rng.randrange(len(word))
    return word[:i] + word[i + 1 :]


def _typos(text: str, rng: random.Random) -> str:
    words = [m for m in _WORD_RE.finditer(text) if len(m.group()) >= 3]
    if not words:
        words = [m for m in _WORD_RE.finditer(text) if len(m.group()) >= 2]
    if not words:
        return text
    count = max(1, round(0.1 * len(words)))
    chosen = sorted(rng.sample(range(len(words)), count))
    pieces, last = [], 0
    for index in chosen:
        match = words[index]
        pieces += [text[last : match.start()], _typo_word(match.group(), rng)]
        last = match.end()
    return "".join(pieces) + text[last:]


def _case(text: str, rng: random.Random) -> str:
    words = list(_WORD_START_RE.finditer(text))
    options: list[Callable[[], str]] = [text.lower, text.upper, lambda: _title(text)]
    if words:

        def upper_one_word() -> str:
            match = rng.choice(words)
            return text[: match.start()] + match.group().upper() + text[match.end() :]

        options.append(upper_one_word)
    results = [option() for option in options]
    changed = [r for r in results if r != text]
    return rng.choice(changed) if changed else text


def _title(text: str) -> str:
    """Capitalize the first letter of every word ("don't stop" -> "Don't Stop"; "NASA" stays)."""
    return _WORD_START_RE.sub(lambda m: m.group()[:1].upper() + m.group()[1:], text)


def _punctuation(text: str, rng: random.Random) -> str:
    if not text.strip():
        return text
    choice = rng.choice(("space", "mark", "end"))
    gaps = list(_GAP_RE.finditer(text))
    words = list(_WORD_RE.finditer(text))
    if choice == "space" and gaps:
        gap = rng.choice(gaps)
        return text[: gap.start()] + " " * rng.choice((2, 3)) + text[gap.start() + 1 :]
    if choice == "mark" and words:
        word = rng.choice(words)
        return text[: word.end()] + rng.choice(_INSERTED_MARKS) + text[word.end() :]
    stripped = text.rstrip()
    trailing = text[len(stripped) :]
    if stripped[-1] in ".!?":
        return stripped + stripped[-1] * rng.choice((1, 2)) + trailing
    return stripped + rng.choice((".", "!", "...")) + trailing


def _contraction_sites(text: str) -> list[tuple[int, int, str]]:
    """Every (start, end, replacement) where a contraction can be made or undone, in text order."""
    sites = []
    for match in _CONTRACT_RE.finditer(text):
        phrase = match.group()
        key = " ".join(phrase.lower().split())
        sites.append((match.start(), match.end(), _match_case(phrase, _CONTRACT[key])))
    for match in _EXPAND_RE.finditer(text):
        phrase = match.group()
        sites.append((match.start(), match.end(), _match_case(phrase, _EXPAND[phrase.lower().replace("’", "'")])))
    sites.sort()
    kept, last_end = [], -1
    for site in sites:  # overlaps cannot happen in practice; keep the first to be safe
        if site[0] >= last_end:
            kept.append(site)
            last_end = site[1]
    return kept


def _contractions(text: str, rng: random.Random) -> str:
    sites = _contraction_sites(text)
    if not sites:
        return text
    chosen = sorted(rng.sample(range(len(sites)), rng.randint(1, len(sites))))
    pieces, last = [], 0
    for index in chosen:
        start, end, replacement = sites[index]
        pieces += [text[last:start], replacement]
        last = end
    return "".join(pieces) + text[last:]


_ROBUSTNESS_OPS: tuple[tuple[str, Callable[[str, random.Random], str]], ...] = (
    ("typos", _typos),
    ("case", _case),
    ("punctuation", _punctuation),
    ("contractions", _contractions),
)


def _robustness_applies(name: str, text: str) -> bool:
    if name == "typos":
        return any(len(m.group()) >= 2 for m in _WORD_RE.finditer(text))
    if name == "case":
        return any(ch.isalpha() for ch in text)
    if name == "punctuation":
        return bool(text.strip())
    return bool(_contraction_sites(text))


# --------------------------------------------------------------------------------------------------
# Fairness operations: (texts, rng) -> texts, one plan shared by all fields of an example
# --------------------------------------------------------------------------------------------------


def _names_in(texts: Sequence[str]) -> list[str]:
    """Distinct listed first names (lower-cased) in order of first appearance."""
    found: dict[str, None] = {}
    for text in texts:
        for match in _NAME_RE.finditer(text):
            if match.group()[0].isupper():
                found.setdefault(match.group().lower(), None)
    return list(found)


def _name_mapping(names: list[str], rng: random.Random, flip_gender: bool) -> dict[str, str]:
    """For each name: same gender, other ethnicity; or (flip_gender) same ethnicity, other gender."""
    taken = set(names)  # only looked up, never iterated
    mapping: dict[str, str] = {}
    for name in names:
        ethnicity, gender = _NAME_GROUP[name]
        if flip_gender:
            groups = [(ethnicity, _OTHER_GENDER[gender])]
        else:
            groups = [group for group in FIRST_NAMES if group[1] == gender and group[0] != ethnicity]
        group = rng.choice(groups)
        choices = [n for n in FIRST_NAMES[group] if n.lower() not in taken] or list(FIRST_NAMES[group])
        new = rng.choice(choices)
        taken.add(new.lower())
        mapping[name] = new
    return mapping


def _apply_names(text: str, mapping: Mapping[str, str]) -> str:
    def replace(match: re.Match[str]) -> str:
        word = match.group()
        if not word[0].isupper() or word.lower() not in mapping:
            return word
        return _match_case(word, mapping[word.lower()])

    return _NAME_RE.sub(replace, text)


def _swap_gendered(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        word = match.group()
        lower = word.lower()
        if lower == "her":
            following = _next_word(text, match.end())
            new = "his" if following is not None and following not in _NOT_A_NOUN else "him"
        elif lower == "his":
            following = _next_word(text, match.end())
            new = "hers" if following is None or following in _NOT_A_NOUN else "her"
        else:
            new = _GENDER_SWAP[lower]
        return _match_case(word, new)

    return _GENDERED_RE.sub(replace, text)


def _swap_names(texts: Sequence[str], rng: random.Random) -> list[str]:
    mapping = _name_mapping(_names_in(texts), rng, flip_gender=False)
    return [_apply_names(text, mapping) for text in texts]


def _swap_gender(texts: Sequence[str], rng: random.Random) -> list[str]:
    mapping = _name_mapping(_names_in(texts), rng, flip_gender=True)
    return [_swap_gendered(_apply_names(text, mapping)) for text in texts]


# --------------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------------


def _variants(texts: list[str], kind: str, seed: int, n: int) -> list[list[str]]:
    if kind not in KINDS:
        raise ValueError(f"unknown perturbation kind {kind!r}; known: {', '.join(KINDS)}")
    if n < 0:
        raise ValueError("n must be non-negative")
    rng = random.Random(f"{seed}:{kind}:{_FIELD_SEPARATOR.join(texts)}")
    operations: list[Callable[[list[str], random.Random], list[str]]] = []
    if kind == "robustness":
        for name, op in _ROBUSTNESS_OPS:
            if any(_robustness_applies(name, t) for t in texts):
                # mypy cannot infer a lambda with a default argument (the default binds this loop's op).
                operations.append(lambda ts, r, op=op: [op(t, r) for t in ts])  # type: ignore[misc]
    else:
        if _names_in(texts):
            operations.append(_swap_names)
        if _names_in(texts) or any(_GENDERED_RE.search(t) for t in texts):
            operations.append(_swap_gender)
    rng.shuffle(operations)
    results: list[list[str]] = []
    seen = {tuple(texts)}
    attempt = 0
    while operations and len(results) < n and attempt < n * _ATTEMPTS_PER_VARIANT:
        candidate = operations[attempt % len(operations)](texts, rng)
        attempt += 1
        if tuple(candidate) not in seen:
            seen.add(tuple(candidate))
            results.append(candidate)
    return results


def perturb(text: str, kind: Kind, seed: int, n: int = 3) -> list[str]:
    """Up to ``n`` distinct perturbed variants of ``text``, each different from it.

    ``kind`` is "robustness" or "fairness" (see the module docstring). Variants cycle through the
    applicable perturbation types in a seeded order, one type per variant. Fewer than ``n`` come
    back when the text does not allow more (e.g. fairness on a text without names or gendered
    words returns []). Same (text, kind, seed, n) → same list, in every process.
    """
    return [variant[0] for variant in _variants([text], kind, seed, n)]


def perturb_fields(
    fields: Mapping[str, str], perturbable: Sequence[str], kind: Kind, seed: int, n: int = 3
) -> list[dict[str, str]]:
    """Up to ``n`` distinct perturbed copies of an example's fields (full dicts).

    Only the fields named in ``perturbable`` (and holding text) change; the others are copied
    as they are: the caller decides, e.g. only the question of an extractive-QA example, so
    that answer spans in the context stay valid. Each copy differs from the original in at least
    one field. One perturbation type is applied to every perturbable field of a copy, and a
    fairness copy uses one name mapping across the fields (an NLI premise and hypothesis that
    both say "Emily" both get the same new name). With one perturbable field the variants are
    exactly those of ``perturb`` on its text.
    """
    names = [name for name in dict.fromkeys(perturbable) if isinstance(fields.get(name), str)]
    if not names:
        if kind not in KINDS:
            raise ValueError(f"unknown perturbation kind {kind!r}; known: {', '.join(KINDS)}")
        return []
    texts = [fields[name] for name in names]
    return [{**fields, **dict(zip(names, variant))} for variant in _variants(texts, kind, seed, n)]
