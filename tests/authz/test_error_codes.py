"""Refusals carry their code on every transport, and unexpected errors are masked on every transport: a
subscription's errors reach the masking rule without a path (Strawberry wraps what the stream raised)."""

from graphql import GraphQLError, parse

from server.core.errors import ServiceError
from server.graphql.core.errors import should_mask_error


def test_a_refusal_raised_by_a_subscription_keeps_its_code():
    error = GraphQLError(
        "Only the task's owners can do this.", original_error=ServiceError("FORBIDDEN", "Only the task's owners can do this.")
    )
    assert error.path is None and not should_mask_error(error)
    assert error.extensions == {"code": "FORBIDDEN"}


def test_an_unexpected_exception_raised_by_a_subscription_is_masked():
    error = GraphQLError("connection to 10.0.0.3 refused (password=hunter2)", original_error=OSError("refused"))
    assert error.path is None and should_mask_error(error)


def test_variable_errors_still_describe_the_request():
    node = parse("query($n: Int!) { me { username } }").definitions[0].variable_definitions[0]
    error = GraphQLError(
        "Variable '$n' got invalid value 'x'; Int cannot represent non-integer value",
        node,
        original_error=ValueError("not an int"),
    )
    assert not should_mask_error(error)


def test_operation_rule_refusals_keep_their_codes():
    """server/graphql/core/operation_rules.py refuses before execution with errors of its own (no original error)."""
    for code in ("BAD_REQUEST", "INVALID_INPUT"):
        error = GraphQLError("Send mutations over HTTP (POST /graphql).", extensions={"code": code})
        assert not should_mask_error(error) and error.extensions == {"code": code}


def test_a_rate_limit_answers_its_union_member_with_the_wait():
    from server.core.errors import rate_limited
    from server.graphql.core.errors import RateLimitedError, error_from_service

    answer = error_from_service(rate_limited("At most 2 sign-ups per hour from one address; try again in 5 minutes.", 290))
    assert isinstance(answer, RateLimitedError)
    assert (answer.code, answer.retry_after_seconds) == ("RATE_LIMITED", 290)
