"""Grading the onboarding quiz (server/campaigns/quiz.py)."""

import pytest

from server.campaigns.quiz import Quiz, QuizOutcome, QuizQuestion, QuizRefusal, QuizResult, grade, quiz_from_config
from server.core.errors import ConfigError

QUIZ = Quiz(
    (QuizQuestion("q1", ("positive",)), QuizQuestion("q2", ("negative",)), QuizQuestion("q3", ("neutral", "none"))),
    pass_mark=2,
    attempts=2,
)


def result(value: object) -> QuizResult:
    assert isinstance(value, QuizResult), value
    return value


def test_all_right_passes_with_full_score():
    r = result(grade(QUIZ, {"q1": "positive", "q2": "negative", "q3": "neutral"}, 0))
    assert (r.outcome, r.score, r.total, r.attempt, r.wrong) == (QuizOutcome.PASSED, 3, 3, 1, ())
    assert r.passed and r.attempts_left == 1


def test_exactly_the_pass_mark_passes_and_one_less_fails():
    assert result(grade(QUIZ, {"q1": "positive", "q2": "negative", "q3": "positive"}, 0)).outcome is QuizOutcome.PASSED
    r = result(grade(QUIZ, {"q1": "positive", "q2": "positive", "q3": "positive"}, 0))
    assert (r.outcome, r.score, r.wrong, r.attempts_left) == (QuizOutcome.FAILED_CAN_RETRY, 1, ("q2", "q3"), 1)


def test_failing_the_last_attempt_is_final_and_another_attempt_is_refused():
    r = result(grade(QUIZ, {}, 1))
    assert (r.outcome, r.score, r.attempt, r.attempts_left) == (QuizOutcome.FAILED_FINAL, 0, 2, 0)
    assert isinstance(grade(QUIZ, {"q1": "positive", "q2": "negative"}, 2), QuizRefusal)


def test_passing_on_the_last_attempt_passes():
    assert result(grade(QUIZ, {"q1": "positive", "q2": "negative"}, 1)).outcome is QuizOutcome.PASSED


def test_answers_compare_trimmed_and_case_folded_and_any_accepted_spelling_counts():
    r = result(grade(QUIZ, {"q1": "  POSITIVE ", "q2": "Negative", "q3": "NONE"}, 0))
    assert r.score == 3
    assert result(grade(QUIZ, {"q1": "positiv", "q2": "negative!", "q3": ""}, 0)).score == 0


def test_one_attempt_quiz_fails_final_at_once():
    quiz = Quiz((QuizQuestion("a", ("x",)),), pass_mark=1)
    assert result(grade(quiz, {"a": "y"}, 0)).outcome is QuizOutcome.FAILED_FINAL


def test_hostile_answers_are_refused_not_graded():
    assert isinstance(grade(QUIZ, {"q1": "positive", "q9": "x"}, 0), QuizRefusal)
    assert isinstance(grade(QUIZ, {"q1": "p" * 2001}, 0), QuizRefusal)
    assert isinstance(grade(QUIZ, {"q1": 5}, 0), QuizRefusal)  # type: ignore[dict-item]
    with pytest.raises(ValueError):
        grade(QUIZ, {}, -1)


@pytest.mark.parametrize(
    "build, field",
    [
        (lambda: Quiz((), 1), "quiz.questions"),
        (lambda: Quiz((QuizQuestion("a", ("x",)), QuizQuestion("a", ("y",))), 1), "quiz.questions"),
        (lambda: Quiz((QuizQuestion("a", ("x",)),), 0), "quiz.passMark"),
        (lambda: Quiz((QuizQuestion("a", ("x",)),), 2), "quiz.passMark"),
        (lambda: Quiz((QuizQuestion("a", ("x",)),), 1, attempts=0), "quiz.attempts"),
        (lambda: Quiz((QuizQuestion("a", ("x",)),), 1, attempts=11), "quiz.attempts"),
        (lambda: QuizQuestion("", ("x",)), "quiz.questions"),
        (lambda: QuizQuestion("a", ()), "quiz.questions"),
        (lambda: QuizQuestion("a", ("  ",)), "quiz.questions"),
    ],
)
def test_bad_quiz_settings_are_config_errors_naming_the_field(build, field):
    with pytest.raises(ConfigError) as error:
        build()
    assert error.value.field == field


def test_quiz_from_stored_settings():
    quiz = quiz_from_config([{"id": "a", "answer": "x"}, {"id": "b", "answers": ["y", "z"]}], pass_mark=2, attempts=3)
    assert quiz == Quiz((QuizQuestion("a", ("x",)), QuizQuestion("b", ("y", "z"))), 2, 3)
    with pytest.raises(ConfigError):
        quiz_from_config([{"id": "a"}], 1, 1)
    with pytest.raises(ConfigError):
        quiz_from_config([{"id": 3, "answer": "x"}], 1, 1)
    with pytest.raises(ConfigError):
        quiz_from_config([{"id": "a", "answers": "xyz"}], 1, 1)
