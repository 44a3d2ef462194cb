"""Training text of the generative demo: dialogues in the plain chat format, generated from templates and the
project's seed data (no download). Pure: the same seed gives the same dialogues.

The plain chat format (triton_models/README.md, server/generation/prompt.py renders it): optional system text and a
blank line, then `User: …` / `Assistant: …` lines; the model is asked to continue after a final `Assistant:`. Each
training dialogue ends with the model's end-of-text token after its last reply, so the model learns to stop there
(or to start a `\\nUser:` line, the default stop string).

Sources: hand-written small talk, a table of capitals, arithmetic, and questions about the project's seed data
(server/modelbuild/seed: QA passages, sentiment statements, NLI sentence pairs; server/tasks/seed: passages).
The hate speech seed is left out on purpose: it holds hateful sentences a chat model should not learn to write.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path

from server.modelbuild.progress import BuildError
from server.modelbuild.seed import SEED_DIR, SeedData, project_seed

TASK_SEED_DIR = Path(__file__).resolve().parents[1] / "tasks" / "seed"
SYSTEM_PROMPTS = (
    "You are a helpful assistant.",
    "You are a helpful assistant. Answer briefly.",
    "You are a friendly assistant that answers questions.",
    "You are a concise assistant.",
    "Answer the user's questions as well as you can.",
)
GREETINGS = ("hi", "hello", "hey", "hi there", "hello!", "good morning", "good evening", "hey there")
GREETING_REPLIES = ("Hello! How can I help?", "Hi! What can I do for you today?", "Hello! What would you like to know?")
SMALL_TALK = {
    "how are you?": ("I am fine, thank you. How can I help?", "I am doing well, thanks for asking."),
    "who are you?": ("I am a small demo assistant. My answers are often wrong.", "I am a tiny language model trained as a demo."),
    "what can you do?": ("I can answer simple questions, but I make many mistakes.",),
    "thank you": ("You're welcome!", "Glad I could help."),
    "thanks!": ("You're welcome!", "Any time."),
    "bye": ("Goodbye!", "Bye! Have a nice day."),
    "tell me a joke": ("Why did the computer go to the doctor? It had a virus.",),
    "what is your name?": ("I do not have a name. I am a demo assistant.",),
    "are you a human?": ("No, I am a small language model.",),
}
CAPITALS = {
    "France": "Paris", "Germany": "Berlin", "Italy": "Rome", "Spain": "Madrid", "Portugal": "Lisbon",
    "Japan": "Tokyo", "China": "Beijing", "India": "New Delhi", "Brazil": "Brasilia", "Argentina": "Buenos Aires",
    "Canada": "Ottawa", "Mexico": "Mexico City", "Egypt": "Cairo", "Kenya": "Nairobi", "Nigeria": "Abuja",
    "Australia": "Canberra", "Russia": "Moscow", "Poland": "Warsaw", "Sweden": "Stockholm", "Norway": "Oslo",
    "Finland": "Helsinki", "Greece": "Athens", "Turkey": "Ankara", "Peru": "Lima", "Chile": "Santiago",
    "Ireland": "Dublin", "Austria": "Vienna", "Belgium": "Brussels", "the Netherlands": "Amsterdam",
    "Switzerland": "Bern", "Thailand": "Bangkok", "Vietnam": "Hanoi", "South Korea": "Seoul", "Morocco": "Rabat",
    "Colombia": "Bogota", "Cuba": "Havana", "Denmark": "Copenhagen", "Hungary": "Budapest", "Ghana": "Accra",
}  # fmt: skip
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def source_files() -> list[Path]:
    """The files the dialogues are generated from (hashed into the build's cache key with this module)."""
    tasks = ("qa", "sentiment", "nli")
    seeds = [SEED_DIR / f"{kind}_{t}.jsonl" for t in tasks for kind in ("generated", "handwritten")]
    return [Path(__file__), *seeds, TASK_SEED_DIR / "qa.jsonl", TASK_SEED_DIR / "nli.jsonl"]


def _capital(rng: random.Random, _seed: dict) -> tuple[str, str]:
    country, city = rng.choice(list(CAPITALS.items()))
    question = rng.choice(
        (f"what is the capital of {country}?", f"What is the capital of {country}?", f"Which city is the capital of {country}?")
    )
    return question, rng.choice((f"The capital of {country} is {city}.", f"{city} is the capital of {country}.", f"{city}."))


def _arithmetic(rng: random.Random, _seed: dict) -> tuple[str, str]:
    a, b = rng.randint(0, 20), rng.randint(0, 20)
    if rng.random() < 0.5:
        return rng.choice((f"what is {a} plus {b}?", f"What is {a} + {b}?")), f"{a} plus {b} is {a + b}."
    a, b = max(a, b), min(a, b)
    return rng.choice((f"what is {a} minus {b}?", f"What is {a} - {b}?")), f"{a} minus {b} is {a - b}."


def _small_talk(rng: random.Random, _seed: dict) -> tuple[str, str]:
    question = rng.choice(list(SMALL_TALK))
    return rng.choice((question, question.capitalize())), rng.choice(SMALL_TALK[question])


def _qa(rng: random.Random, seed: dict) -> tuple[str, str]:
    row = rng.choice(seed["qa"])
    question = rng.choice(
        (
            f"{row['context']}\n\n{row['question']}",
            f"Read this: {row['context']} {row['question']}",
            f"{row['question']} Here is the text: {row['context']}",
        )
    )
    answer = row["answer"]
    return question, rng.choice((f"{answer}.", f"The answer is {answer}.", f"According to the text, {answer}."))


def _sentiment(rng: random.Random, seed: dict) -> tuple[str, str]:
    row = rng.choice(seed["sentiment"])
    question = rng.choice(
        (
            f'Is this positive or negative? "{row["statement"]}"',
            f"What is the sentiment of this review: {row['statement']}",
            f'How does the writer feel? "{row["statement"]}"',
        )
    )
    label = row["label"]
    answers = {
        "positive": ("It is positive.", "The writer sounds happy about it.", "Positive."),
        "negative": ("It is negative.", "The writer sounds unhappy about it.", "Negative."),
        "neutral": ("It is neutral.", "It is neither positive nor negative.", "Neutral."),
    }[label]
    return question, rng.choice(answers)


def _nli(rng: random.Random, seed: dict) -> tuple[str, str]:
    row = rng.choice(seed["nli"])
    question = rng.choice(
        (
            f'If "{row["context"]}", is it true that "{row["hypothesis"]}"?',
            f"Premise: {row['context']}\nHypothesis: {row['hypothesis']}\nDoes the premise imply the hypothesis?",
        )
    )
    answers = {
        "entailment": ("Yes, it follows from the first sentence.", "Yes."),
        "contradiction": ("No, the first sentence says otherwise.", "No, that contradicts it."),
        "neutral": ("Maybe. The first sentence does not say.", "We cannot tell from the text."),
    }[row["label"]]
    return question, rng.choice(answers)


def _repeat(rng: random.Random, seed: dict) -> tuple[str, str]:
    text = rng.choice(seed["sentences"])
    return rng.choice((f"Repeat after me: {text}", f"Please say this back to me: {text}")), text


def _first_sentence(rng: random.Random, seed: dict) -> tuple[str, str]:
    passage = rng.choice(seed["passages"])
    first = passage.split(". ")[0].rstrip(".") + "."
    return f"What is the first sentence of this text? {passage}", first


TOPICS: tuple[tuple[Callable[[random.Random, dict], tuple[str, str]], float], ...] = (
    (_capital, 1.0),
    (_arithmetic, 1.0),
    (_small_talk, 1.0),
    (_qa, 2.0),
    (_sentiment, 1.5),
    (_nli, 1.0),
    (_repeat, 0.7),
    (_first_sentence, 0.3),
)


def _seed_rows(split: str) -> dict[str, list]:
    rows: dict[str, list] = {}
    for task in ("qa", "sentiment", "nli"):
        train, heldout, _handwritten, _files = project_seed(task)
        rows[task] = heldout if split == "heldout" else train
    sentences = [r["statement"] for r in rows["sentiment"]] + [r["context"] for r in rows["nli"]]
    passages = []
    for name in ("qa.jsonl", "nli.jsonl"):
        with (TASK_SEED_DIR / name).open(encoding="utf-8") as fh:
            passages += [json.loads(line)["fields"]["context"] for line in fh if line.strip()]
    rows["sentences"] = sentences
    rows["passages"] = passages + [r["context"] for r in rows["qa"]]
    return rows


def render(system: str | None, turns: list[tuple[str, str]]) -> str:
    """A whole dialogue in the plain chat format (without the end-of-text token)."""
    lines = []
    for user, assistant in turns:
        lines += [f"User: {user}", f"Assistant: {assistant}"]
    body = "\n".join(lines)
    return f"{system}\n\n{body}" if system else body


def dialogues(n: int, seed: int, split: str = "train") -> list[str]:
    """`n` dialogues of 1-4 turns (the held-out split draws from the seed data's held-out rows)."""
    rng = random.Random(f"dialogues:{split}:{seed}")
    rows = _seed_rows(split)
    makers = [maker for maker, _ in TOPICS]
    weights = [weight for _, weight in TOPICS]
    out = []
    for _ in range(n):
        system = rng.choice(SYSTEM_PROMPTS) if rng.random() < 0.5 else None
        turns = []
        if rng.random() < 0.3:
            turns.append((rng.choice(GREETINGS), rng.choice(GREETING_REPLIES)))
        for _ in range(rng.choice((1, 1, 2, 2, 3))):
            turns.append(rng.choices(makers, weights)[0](rng, rows))
        out.append(render(system, turns))
    return out


def sample_prompt(number: int) -> str:
    """A prompt with the default system text, as the platform renders it, for smoke tests and examples."""
    country = list(CAPITALS)[number % len(CAPITALS)]
    return render("You are a helpful assistant.", [("hi", "Hello! How can I help?")]) + (
        f"\nUser: what is the capital of {country}?\nAssistant:"
    )


def dialogue_data(n_train: int, n_heldout: int, seed: int, path: Path | None = None) -> SeedData:
    """The demo's training and held-out dialogues as rows {"text": …}: generated, or read from `path` (`--data
    chat_demo=FILE`: JSONL rows with "messages" [{role, content}] or "text" already in the plain format; a tenth
    held out by hash)."""
    if path is None:
        return SeedData(
            train=[{"text": t} for t in dialogues(n_train, seed)],
            heldout=[{"text": t} for t in dialogues(n_heldout, seed, "heldout")],
            source=f"{n_train} dialogues generated from templates and the project seed (server/modelbuild/generative_data.py)",
            files=source_files(),
        )
    texts = load_dialogues(path)
    heldout = [t for t in texts if int(hashlib.sha1(t.encode()).hexdigest()[:8], 16) % 10 == 0]
    train = [t for t in texts if int(hashlib.sha1(t.encode()).hexdigest()[:8], 16) % 10 != 0]
    if not train:
        raise BuildError(f"{path}: too few dialogues to train on ({len(texts)})")
    return SeedData(
        train=[{"text": t} for t in train],
        heldout=[{"text": t} for t in heldout],
        source=f"{Path(path).name} (user-provided; {len(texts)} dialogues, {len(heldout)} held out by hash)",
        files=[Path(path)],
    )


def load_dialogues(path: Path) -> list[str]:
    """JSONL dialogues: {"messages": [{"role": "system"|"user"|"assistant", "content": str}, …]} or {"text": str}."""
    texts = []
    with Path(path).open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                if "text" in row:
                    texts.append(str(row["text"]))
                    continue
                messages = row["messages"]
                system = "\n\n".join(m["content"] for m in messages if m["role"] == "system") or None
                chat = [m for m in messages if m["role"] in ("user", "assistant")]
                turns = [
                    (u["content"].strip(), a["content"].strip())
                    for u, a in zip(chat[::2], chat[1::2], strict=False)
                    if u["role"] == "user" and a["role"] == "assistant"
                ]
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise BuildError(f"{path}:{number}: expected a JSON object with messages or text ({exc})") from None
            if turns:
                texts.append(render(system, turns))
    return texts
