"""Grading a campaign's onboarding quiz. Pure, no I/O.

A quiz is a few questions (an example and the answer the task wants, e.g. its label), a pass mark (how many answers
must be right) and a number of attempts. `grade(quiz, answers, attempts_used)` grades one attempt:

- **passed** when at least `pass_mark` answers are right;
- **failed, may retry** when not, and this was not the last attempt;
- **failed, final** when not, and it was: the session ends politely with the campaign's screened-out code.

An answer is right when, stripped of surrounding whitespace and case-folded, it equals one of the question's accepted
answers (compared the same way). A question left unanswered is wrong. Answers to questions the quiz does not have, an
attempt after the last one, or more than `MAX_ANSWER_LENGTH` characters in one answer are refused (`QuizRefusal`),
never graded: they come from a client that is not the PWA. The result lists which questions were wrong so the service
may record it; show the worker the score, never the right answers (they would be shared).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from server.core.errors import ConfigError
from server.core.i18n import tr

MAX_QUESTIONS = 50
MAX_ATTEMPTS = 10
MAX_ANSWER_LENGTH = 2000


class QuizOutcome(StrEnum):
    PASSED = "passed"
    FAILED_CAN_RETRY = "failed_can_retry"
    FAILED_FINAL = "failed_final"


@dataclass(frozen=True)
class QuizQuestion:
    id: str
    accepted: tuple[str, ...]  # the answers counted right (one for a label; several spellings for a text answer)

    def __post_init__(self) -> None:
        if not self.id:
            raise ConfigError("quiz.questions", tr("Every quiz question needs an id."))
        if not self.accepted or any(not _norm(a) for a in self.accepted):
            raise ConfigError("quiz.questions", tr("Quiz question {id!r} needs at least one non-empty right answer.", id=self.id))


@dataclass(frozen=True)
class Quiz:
    questions: tuple[QuizQuestion, ...]
    pass_mark: int  # right answers needed, 1..len(questions)
    attempts: int = 1  # attempts allowed, 1..MAX_ATTEMPTS

    def __post_init__(self) -> None:
        if not 1 <= len(self.questions) <= MAX_QUESTIONS:
            raise ConfigError("quiz.questions", tr("A quiz has 1 to {limit} questions.", limit=MAX_QUESTIONS))
        if len({q.id for q in self.questions}) != len(self.questions):
            raise ConfigError("quiz.questions", tr("Two quiz questions have the same id."))
        if not 1 <= self.pass_mark <= len(self.questions):
            raise ConfigError(
                "quiz.passMark",
                tr("The pass mark is between 1 and the number of questions ({count}).", count=len(self.questions)),
            )
        if not 1 <= self.attempts <= MAX_ATTEMPTS:
            raise ConfigError("quiz.attempts", tr("A quiz allows 1 to {limit} attempts.", limit=MAX_ATTEMPTS))


@dataclass(frozen=True)
class QuizResult:
    outcome: QuizOutcome
    score: int  # right answers
    total: int  # questions
    attempt: int  # this attempt's number, from 1
    attempts_left: int
    wrong: tuple[str, ...]  # ids of the questions answered wrong or not at all, in the quiz's order

    @property
    def passed(self) -> bool:
        return self.outcome is QuizOutcome.PASSED


@dataclass(frozen=True)
class QuizRefusal:
    message: str


def grade(quiz: Quiz, answers: Mapping[str, str], attempts_used: int) -> QuizResult | QuizRefusal:
    """Grade one attempt; `attempts_used` is how many attempts the worker had already made (0 for the first)."""
    if attempts_used < 0:
        raise ValueError("attempts_used is a count")
    if attempts_used >= quiz.attempts:
        return QuizRefusal(tr("You have no attempts left at this quiz."))
    known = {q.id for q in quiz.questions}
    unknown = sorted(k for k in answers if k not in known)
    if unknown:
        return QuizRefusal(tr("These answers are for questions this quiz does not have."))
    if any(not isinstance(a, str) or len(a) > MAX_ANSWER_LENGTH for a in answers.values()):
        return QuizRefusal(tr("An answer is longer than {limit} characters.", limit=MAX_ANSWER_LENGTH))
    wrong = tuple(q.id for q in quiz.questions if not _is_right(q, answers.get(q.id)))
    score = len(quiz.questions) - len(wrong)
    attempt = attempts_used + 1
    left = quiz.attempts - attempt
    if score >= quiz.pass_mark:
        outcome = QuizOutcome.PASSED
    elif left > 0:
        outcome = QuizOutcome.FAILED_CAN_RETRY
    else:
        outcome = QuizOutcome.FAILED_FINAL
    return QuizResult(outcome, score, len(quiz.questions), attempt, left, wrong)


def _is_right(question: QuizQuestion, answer: str | None) -> bool:
    return answer is not None and _norm(answer) in {_norm(a) for a in question.accepted}


def _norm(text: str) -> str:
    return text.strip().casefold()


def quiz_from_config(questions: Sequence[Mapping[str, object]], pass_mark: int, attempts: int) -> Quiz:
    """A Quiz from stored settings: each question a mapping with "id" and "answer" (a string) or "answers" (a list)."""
    built = []
    for i, raw in enumerate(questions):
        qid = raw.get("id")
        accepted = raw.get("answers", [raw.get("answer")])
        if not isinstance(qid, str) or not isinstance(accepted, list | tuple) or not all(isinstance(a, str) for a in accepted):
            raise ConfigError("quiz.questions", tr("Quiz question {number} needs an id and a text answer.", number=i + 1))
        built.append(QuizQuestion(qid, tuple(str(a) for a in accepted)))
    return Quiz(tuple(built), pass_mark, attempts)
