"""The reliability outcome rule through GraphQL (docs/design.md §4.2): on a task configured with
`validation.rule: "reliability"`, the aggregation job weighs votes by each validator's Dawid–Skene reliability fitted
from the task's vote history, so an example's outcome follows the reliable validators even where the N-matching rule
would follow two unreliable ones; owners read each validator's reliability in taskQuality."""

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example, wait_until
from tests.api.test_gold import QUALITY, VALIDATE, _configure, _pk
from tests.conftest import run_sql, seed_builtin_tasks

QUALITY_WITH_RELIABILITY = """query($c: String!) { taskQuality(taskCode: $c) { validators { username votes reliability } } }"""


def _vote(api, token, example_id, label):
    result = api(VALIDATE, {"e": example_id, "l": label}, token=token)["validateExample"]
    assert result["__typename"] == "ExampleValidated", result


def _aggregated(example_ids):
    pks = [_pk(i) for i in example_ids]
    return run_sql("SELECT bool_and(aggregated) AS done FROM validations WHERE example = ANY($1::int[])", pks)[0]["done"]


def _status(example_id):
    return run_sql("SELECT status FROM examples WHERE id = $1", _pk(example_id))[0]["status"]


def test_reliability_rule_follows_the_reliable_validators(api, target_models):
    seed_builtin_tasks()
    owner = api.sign_up("owner")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'owner'")
    author = api.sign_up("author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    ids = [
        fooling_example(api, author, round_id, context_id, f"Reliability world review {i}: unlike any other, really.")["id"]
        for i in range(11)
    ]
    _configure(rule="reliability", reliability_threshold=0.9, num_matching_validations=2, gold_rate=0.0)
    careful = [api.sign_up(f"careful{i}") for i in range(3)]
    sloppy = [api.sign_up(f"sloppy{i}") for i in range(2)]
    # History: three validators agree with each other on every example; two answer INCORRECT whatever it is.
    history, target = ids[:10], ids[10]
    for n, example_id in enumerate(history):
        truth = "CORRECT" if n % 2 == 0 else "INCORRECT"
        for token in careful:
            _vote(api, token, example_id, truth)
        for token in sloppy:
            _vote(api, token, example_id, "INCORRECT")
    wait_until(lambda: _aggregated(history))

    # Two sloppy INCORRECT votes would reject the example under the 2-matching rule; weighted, they stay open...
    for token in sloppy:
        _vote(api, token, target, "INCORRECT")
    wait_until(lambda: _aggregated([target]))
    assert _status(target) == "open"
    # ...and one careful CORRECT vote makes the third (2N − 1) vote: the most probable label, CORRECT, decides.
    _vote(api, careful[0], target, "CORRECT")
    wait_until(lambda: _aggregated([target]))
    assert _status(target) == "validated"

    quality = api(QUALITY_WITH_RELIABILITY, {"c": "sentiment"}, token=owner)["taskQuality"]
    by_name = {v["username"]: v for v in quality["validators"]}
    careful_scores = [by_name[f"careful{i}"]["reliability"] for i in range(3)]
    sloppy_scores = [by_name[f"sloppy{i}"]["reliability"] for i in range(2)]
    assert min(careful_scores) > 0.7 and max(sloppy_scores) < 0.6, (careful_scores, sloppy_scores)
    assert by_name["careful0"]["votes"] == 11 and by_name["sloppy0"]["votes"] == 11
    # The old QUALITY selection still answers (the field is additive).
    assert api(QUALITY, {"c": "sentiment"}, token=owner)["taskQuality"]["duplicatesRefused"] == 0


def test_matching_rule_is_unchanged_by_default(api, target_models):
    seed_builtin_tasks()
    author = api.sign_up("author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    example_id = fooling_example(api, author, round_id, context_id, "Matching world review: plainly odd, truly.")["id"]
    _configure(num_matching_validations=2, gold_rate=0.0)
    for name in ("first", "second"):
        _vote(api, api.sign_up(name), example_id, "INCORRECT")
    wait_until(lambda: _status(example_id) == "rejected")
