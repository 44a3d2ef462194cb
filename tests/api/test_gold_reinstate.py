"""Reinstating a paused validator through GraphQL (docs/design.md §4.2): the owner's reinstateValidator gives a
validator the gold rule paused a fresh start in the task: queue items again, votes again, their votes on undecided
examples count again (re-aggregated by the real job); only later gold answers count toward the rule."""

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example, wait_until
from tests.api.test_gold import MARK, NEXT, QUALITY, VALIDATE, _configure, _pk
from tests.conftest import run_sql, seed_builtin_tasks

REINSTATE = """mutation($c: String!, $u: String!) { reinstateValidator(taskCode: $c, username: $u) { __typename
  ... on ValidatorReinstated { validator { username votes goldAnswered goldCorrect paused reinstatedAt } }
  ... on Error { code message } } }"""
TEXTS = (
    "The soundtrack alone made me want to walk out of the cinema, and yet I stayed.",
    "A kitchen that burns the toast every morning still serves the warmest breakfast in town.",
    "Nobody expected the sequel to be better, least of all the people who made it.",
    "The hotel lobby smelled of fresh paint and broken promises.",
    "My grandmother's old bicycle rides smoother than this brand-new electric scooter.",
    "Three hours of waiting for a concert that lasted forty minutes, worth every second.",
    "The museum's new wing is a maze of glass where every exhibit feels like an afterthought.",
)


def _status(example_id: str) -> str:
    return run_sql("SELECT status FROM examples WHERE id = $1", _pk(example_id))[0]["status"]


def test_a_paused_validator_is_reinstated_by_the_owner_only(api, target_models):
    seed_builtin_tasks()
    owner = api.sign_up("owner")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'owner'")
    author = api.sign_up("author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    ids = [fooling_example(api, author, round_id, context_id, text)["id"] for text in TEXTS]
    _configure(gold_rate=0.0, gold_min_answers=2, gold_pause_below=0.7, num_matching_validations=2)
    for gold_id in (ids[0], ids[1]):
        assert api(MARK, {"e": gold_id, "a": "CORRECT"}, token=owner)["markGold"]["__typename"] == "GoldMarked"
    careless, careful = api.sign_up("careless"), api.sign_up("careful")

    # careless votes, then fails both gold items: paused, and the vote stops counting.
    assert api(VALIDATE, {"e": ids[2], "l": "INCORRECT"}, token=careless)["validateExample"]["__typename"] == "ExampleValidated"
    for gold_id in (ids[0], ids[1]):
        api(VALIDATE, {"e": gold_id, "l": "INCORRECT"}, token=careless)
    assert api(NEXT, {"r": round_id, "n": 5}, token=careless)["nextExamplesToValidate"] == []
    assert api(VALIDATE, {"e": ids[2], "l": "INCORRECT"}, token=careful)["validateExample"]["__typename"] == "ExampleValidated"
    wait_until(lambda: run_sql("SELECT bool_and(aggregated) AS done FROM validations WHERE example = $1", _pk(ids[2]))[0]["done"])
    assert _status(ids[2]) == "open"

    # Only the task's owners reinstate; unknown names and tasks are not found; nothing is written on a refusal.
    assert api(REINSTATE, {"c": "sentiment", "u": "careless"}, token=careful)["reinstateValidator"]["code"] == "FORBIDDEN"
    assert api(REINSTATE, {"c": "sentiment", "u": "careless"})["reinstateValidator"]["code"] == "AUTHENTICATION_REQUIRED"
    for task, name in (("sentiment", "nobody-here"), ("sentiment", "author"), ("no_such_task", "careless")):
        assert api(REINSTATE, {"c": task, "u": name}, token=owner)["reinstateValidator"]["code"] == "NOT_FOUND", name
    assert run_sql("SELECT count(*) AS n FROM validator_reinstatements")[0]["n"] == 0

    reinstated = api(REINSTATE, {"c": "sentiment", "u": "careless"}, token=owner)["reinstateValidator"]
    assert reinstated["__typename"] == "ValidatorReinstated", reinstated
    validator = reinstated["validator"]
    assert validator["paused"] is False and validator["reinstatedAt"]
    assert (validator["votes"], validator["goldAnswered"], validator["goldCorrect"]) == (1, 2, 0)  # history kept
    # Their undecided vote counts again: with careful's, two matching INCORRECT votes decide the example.
    wait_until(lambda: _status(ids[2]) == "rejected")
    # Queue items again, and votes again.
    served = {item["id"] for item in api(NEXT, {"r": round_id, "n": 10}, token=careless)["nextExamplesToValidate"]}
    assert ids[3] in served and ids[2] not in served
    assert api(VALIDATE, {"e": ids[3], "l": "CORRECT"}, token=careless)["validateExample"]["__typename"] == "ExampleValidated"

    # Reinstating again is fine (nothing to undo: the first reinstatement's time stays).
    again = api(REINSTATE, {"c": "sentiment", "u": "careless"}, token=owner)["reinstateValidator"]
    assert again["__typename"] == "ValidatorReinstated" and again["validator"] == {**validator, "votes": 2}
    assert run_sql("SELECT count(*) AS n FROM validator_reinstatements")[0]["n"] == 1

    # Only gold answers after the reinstatement count: one right answer keeps them going, two wrong ones pause again.
    for gold_id in (ids[4], ids[5], ids[6]):
        assert api(MARK, {"e": gold_id, "a": "CORRECT"}, token=owner)["markGold"]["__typename"] == "GoldMarked"
    api(VALIDATE, {"e": ids[4], "l": "CORRECT"}, token=careless)
    api(VALIDATE, {"e": ids[5], "l": "INCORRECT"}, token=careless)  # 1 of 2 since: 0.5 < 0.7
    quality = {v["username"]: v for v in api(QUALITY, {"c": "sentiment"}, token=owner)["taskQuality"]["validators"]}
    assert quality["careless"]["paused"] is True and quality["careless"]["goldAnswered"] == 4
    assert api(NEXT, {"r": round_id, "n": 5}, token=careless)["nextExamplesToValidate"] == []
