"""Hypothesis strategies for hostile mutation arguments, built by walking the input types of schema.graphql.

Every leaf mixes plausible values (real ids, codes and labels of the fuzz world, as `Ref`s resolved when
a case is sent, so that cases stay printable and usable in `@example`) with junk: huge, empty and
whitespace strings, NUL and other control characters, RTL marks, lone surrogates, invalid UTF-8 (sent as
raw bytes), negative and out-of-range numbers, NaN and infinities, malformed and foreign global ids, and
values of the wrong JSON type for the field.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphql import (
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLInputType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLScalarType,
    Undefined,
    build_schema,
)
from hypothesis import strategies as st
from strawberry.relay import to_base64

from tests.fuzz.world import SENTIMENT_CONFIG

SCHEMA = build_schema((Path(__file__).resolve().parents[2] / "schema.graphql").read_text())
MUTATIONS = SCHEMA.mutation_type.fields
BODY_LIMIT = 2 * 1024 * 1024  # Settings.request_body_max_bytes


@dataclass(frozen=True)
class Ref:
    """An object of the fuzz world (an id, a code, a client UUID), resolved when the case is sent."""

    key: str


# Replaced in the serialized request body by bytes that are not UTF-8 (a JSON str cannot carry them).
INVALID_UTF8 = "\ue000\ue001"
INVALID_UTF8_BYTES = b"\xff\xfe\xc3\x28\xed\xa0\x80"

VIEWERS = (
    "alice",
    "bob",
    "carol",
    "carol:token",
    "alice:token",
    "anonymous",
    "garbage",
    "expired",
    "unknown_api_token",
    "long_api_token",
)
ID_REFS = {
    "round": ("round:alpha", "round:beta", "round:gamma"),
    "context": ("context:alpha:0", "context:alpha:1", "context:beta:0", "context:gamma:0"),
    "example": ("example:carol:alpha", "example:bob:alpha", "example:alice:beta", "example:carol:gamma", "example:carol:delta"),
    "dataset": ("dataset:alpha",),
    "model": ("model:bob",),
    "token": ("apiToken:carol", "apiToken:alice"),
    "user": ("user:alice", "user:bob", "user:carol"),
}
ALL_ID_REFS = tuple(key for keys in ID_REFS.values() for key in keys)
# Only the campaign fuzzers' world has these (tests/fuzz/test_campaigns_fuzz.py); no other mutation takes them.
CAMPAIGN_REFS = ("campaign:alpha", "campaign:beta", "campaign:draft")
CAMPAIGN_CODE_REFS = ("campaignCode:alpha", "campaignCode:beta", "campaignCode:draft")
# Only the webhook fuzzers' world has these (tests/fuzz/test_webhooks_fuzz.py): alice's hook on alpha, bob's on beta.
WEBHOOK_REFS = ("webhook:alpha", "webhook:beta")


def weighted(*pairs: tuple[int, st.SearchStrategy]) -> st.SearchStrategy:
    """One of the strategies, chosen with the given relative weights (shrinking towards the first)."""
    strategies = [strategy for _, strategy in pairs]
    indices = [i for i, (weight, _) in enumerate(pairs) for _ in range(weight)]
    return st.sampled_from(indices).flatmap(lambda i: strategies[i])


# --- strings ---------------------------------------------------------------------------------------
PIECES = st.one_of(
    st.text(max_size=8),
    st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff"]),  # lone surrogates (valid JSON escapes)
    st.sampled_from(["\x00", "\x01", "\x07", "\x08", "\x1b[31m", "\x7f", "\x85", "\u2028", "\u2029", "\r\n"]),
    st.sampled_from(["\u200e", "\u200f", "\u202a", "\u202b", "\u202e", "\u2066", "\u2067", "\u2069", "\u061c"]),
    st.sampled_from(["\ufeff", "\u200b", "\u0301", "\U0001f4a5", "\U0001f468\u200d\U0001f469", "İ", "ﬁ", "\uffff", "\U0010ffff"]),
    st.just(INVALID_UTF8),
)
EDGE_STRINGS = [
    "",
    " ",
    "\t \n",
    "\x00",
    "null",
    "0",
    "-1",
    "' OR '1'='1",
    "%s%n%x",
    "{{7*7}}",
    "${jndi:ldap://x}",
    "../../../etc/passwd",
    "<script>alert(1)</script>",
    "\\",
    '"',
    "\u202eevil.exe",
]
# Just over the services' field limits (names, codes, tags, notes, explanations, contexts), and the body limit.
LENGTHS = (33, 49, 65, 101, 201, 255, 257, 501, 1001, 2001, 5001, 10_001, 100_001)
HUGE = "x" * (BODY_LIMIT + 1)
long_strings = st.builds(
    lambda n, c: c * n, st.sampled_from(LENGTHS), st.sampled_from(["a", "é", " ", "\x00", "💥", "\ud800", "9"])
)
junk_strings = weighted(
    (8, st.lists(PIECES, max_size=5).map("".join)),
    (4, st.sampled_from(EDGE_STRINGS)),
    (4, long_strings),
    (2, st.text()),
    (1, st.just(HUGE)),
)
short_junk = st.one_of(st.sampled_from(EDGE_STRINGS), st.lists(PIECES, max_size=3).map("".join))

# --- numbers ---------------------------------------------------------------------------------------
INT_EDGES = [0, -1, 1, 2, 7, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**53 + 1, 2**63, -(2**63) - 1, 2**64, 10**100]
ints = weighted((3, st.sampled_from(INT_EDGES)), (2, st.integers(-3, 10)), (1, st.integers()))
FLOAT_EDGES = [0.0, -0.0, 0.5, 1.0, -1.0, 1000.0, 1000.5, 1e308, -1e308, 5e-324, float("nan"), float("inf"), float("-inf")]
floats = weighted(
    (3, st.sampled_from(FLOAT_EDGES)),
    (2, st.floats()),
    (1, st.sampled_from(["NaN", "Infinity", "-Infinity", "1e309", "0x10", "1,5"])),  # non-finite as strings too
)

# --- JSON of the wrong type for whatever field it replaces ----------------------------------------
json_leaves = st.one_of(st.none(), st.booleans(), ints, floats, short_junk)
json_values = st.recursive(
    json_leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(short_junk, inner, max_size=3), max_leaves=8
)
wrong_type = st.one_of(
    st.booleans(),
    ints,
    floats,
    short_junk,
    st.lists(json_leaves, max_size=3),
    st.dictionaries(short_junk, json_leaves, max_size=3),
    st.just([[[[]]]]),
)

# --- global ids ------------------------------------------------------------------------------------
_TYPES = ("Task", "Round", "Context", "Example", "Dataset", "Model", "User", "ApiToken", "TrainingRun", "Validation", "Nope", "")


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def _gid(type_name: str, node_id: object) -> str:
    return _b64(f"{type_name}:{node_id}".encode("utf-8", "surrogatepass"))


malformed_ids = st.one_of(
    st.sampled_from(
        [to_base64(t, n) for t in _TYPES for n in (0, -1, 999_999, 2**31, 2**63)]
        + [
            "",
            "x",
            "!!!",
            "Um91bmQ6",
            "Round:1",
            to_base64("Round", "1.5"),
            to_base64("Round", " 1"),
            to_base64("Round", "1e3"),
            to_base64("Round", "0x1"),
            to_base64("Round", "١"),
            _b64(b"\xff\xfe:1"),
            _b64(b"Round:1\x00"),
            _b64(b"Round"),
            _b64(b"Round:1:2"),
            "=" * 8,
            "Um91bmQ6MQ" * 300,
        ]
    ),
    st.builds(_gid, st.sampled_from(_TYPES), short_junk),
    junk_strings,
)


def id_hint(kind: str) -> st.SearchStrategy:
    """Ids of the right type (own and other users' objects), of other types, and malformed ones."""
    return weighted((5, st.sampled_from(ID_REFS[kind]).map(Ref)), (2, st.sampled_from(ALL_ID_REFS).map(Ref)), (3, malformed_ids))


# --- plausible values by argument or input-field name (`Type.field` first, then `field`) -----------
codes = weighted(
    (4, st.sampled_from(["code:alpha", "code:beta", "code:gamma"]).map(Ref)),
    (1, st.sampled_from(["sentiment", "nope"])),
    (1, st.from_regex(r"\A[a-z][a-z0-9_]{1,12}\Z")),
)
# Valid text, some of it unusual: case mappings that change length, combining marks, emoji, RTL, tabs.
texts = st.sampled_from(
    [
        "I loved this film.",
        "The service was slow.",
        "ok",
        "Not bad at all, honestly.",
        "\u0130stanbul was lovely.",
        "\u01c5emal's caf\u00e9 \u2615 was great!",
        "\u202b\u05e9\u05dc\u05d5\u05dd\u202c it was fine",
        "Tab\tand\nnewline",
        "\ufb01ne e\u0301tude",
        "Warsaw",
        "in 1867",
        "Marie Curie",
        "Where was Marie Curie born?",
        "x" * 1000,
    ]
)


def _corrupt_config(key: str, action: int, value: Any) -> dict:
    config = {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v) for k, v in SENTIMENT_CONFIG.items()}
    if action == 0:
        config.pop(key, None)
    elif action == 1:
        config[key] = value
    elif action == 2:
        config[f"{key}_extra"] = value
    elif action == 3:
        config["dynascore"] = {"weights": {"perf": value}}
    elif action == 4:
        config["input_fields"] = [{"name": "statement", "max_length": value, "display_name": value}]
    elif action == 5:
        config["labels"] = [value, "positive"]
    return config


HINTS: dict[str, st.SearchStrategy] = {
    "taskCode": codes,
    "code": codes,
    "roundId": id_hint("round"),
    "contextId": id_hint("context"),
    "exampleId": id_hint("example"),
    "modelId": id_hint("model"),
    "tokenId": id_hint("token"),
    "datasetId": id_hint("dataset"),
    "username": st.one_of(
        st.sampled_from(["username:alice", "username:bob"]).map(Ref), st.from_regex(r"\A[A-Za-z0-9_.-]{3,12}\Z")
    ),
    "password": st.sampled_from(["correct horse battery", "short", "p" * 257]),
    "email": st.one_of(st.emails(), st.sampled_from(["alice@example.org", "a@b.c", f"{'a' * 64}@{'b' * 189}.{'c' * 63}"])),
    "name": st.one_of(st.sampled_from(["fuzz model", "gold", "balanced", "My token"]), st.from_regex(r"\A[\w .:()+-]{1,30}\Z")),
    "TargetModelInput.name": st.sampled_from(["sentiment_minilm", "nli_minilm", "no_such_model", "a" * 201]),
    "TargetModelInput.version": st.sampled_from(["", "1", "7", "0001", "\u0663", "1" * 40, " 1 "]),
    "label": st.sampled_from(["negative", "positive", "neutral", "Positive", "entailment"]),
    "answer": texts,
    "explanation": texts,
    "reason": texts,
    "note": texts,
    "description": texts,
    "tag": st.sampled_from(["food", None]),
    "modelVersion": st.one_of(st.just(Ref("version:published")), st.sampled_from(["8", " 7 ", "", "7" * 40])),
    "baseModel": st.sampled_from(["", "/etc/passwd", "../../model", "b" * 501]),
    "clientId": st.one_of(
        st.uuids().map(str),
        st.sampled_from(["clientId:carol:alpha", "clientId:bob:alpha", "clientId:alice:beta", "clientId:carol:gamma"]).map(Ref),
        st.sampled_from(["00000000-0000-0000-0000-000000000000", "not-a-uuid", "{12345678-1234-5678-1234-567812345678}"]),
    ),
    "fromRounds[]": st.sampled_from([1, 2, 0, -1]),
    "roundNumber": st.sampled_from([1, 2, 0, -1]),
    "weight": st.sampled_from([0.0, 1.0, 2.5]),
    "timeSpentMs": st.sampled_from([0.0, 1234.5]),
    "answerStart": st.sampled_from([0, 3, 24, 34, 99]),
    "CreateExampleInput.fields": weighted(
        (
            1,
            st.fixed_dictionaries(
                {"statement": weighted((4, texts), (1, junk_strings))},
                optional={"context": texts, "label": texts, "": short_junk},
            ),
        ),
        (
            1,
            st.fixed_dictionaries(
                {"question": weighted((4, texts), (1, junk_strings))}, optional={"context": texts, "answer": texts}
            ),
        ),
    ),
    "ContextInput.fields": st.fixed_dictionaries(
        {"context": weighted((4, texts), (1, junk_strings))}, optional={"statement": texts}
    ),
    # Crowd campaigns (tests/fuzz/test_campaigns_fuzz.py adds the campaigns and their codes to its world).
    "campaignId": weighted(
        (5, st.sampled_from(CAMPAIGN_REFS).map(Ref)), (2, st.sampled_from(ALL_ID_REFS).map(Ref)), (3, malformed_ids)
    ),
    "JoinCampaignInput.code": weighted(
        (5, st.sampled_from(CAMPAIGN_CODE_REFS).map(Ref)), (1, st.from_regex(r"\A[A-Za-z0-9_-]{1,40}\Z")), (1, junk_strings)
    ),
    "JoinParam.name": st.sampled_from(
        ["PROLIFIC_PID", "STUDY_ID", "SESSION_ID", "workerId", "assignmentId", "hitId", "turkSubmitTo", "pid", "", "\x00"]
    ),
    "JoinParam.value": st.sampled_from(
        [
            "5e9088a8a4b6ed018b45ba7b",
            "6" * 24,
            "A1B2C3D4E5F6G7",
            "ASSIGNMENT_ID_NOT_AVAILABLE",
            "3AAAAAAAAAAAAAAAAAAAAA",
            "https://www.mturk.com",
            "javascript:alert(1)",
            "x" * 300,
            "",
        ]
    ),
    "JoinCampaignInput.query": st.sampled_from(
        [
            "PROLIFIC_PID=5e9088a8a4b6ed018b45ba7b&STUDY_ID=" + "6" * 24 + "&SESSION_ID=" + "7" * 24,
            "?workerId=A1B2C3D4E5F6G7&assignmentId=3AAAAAAAAAAAAAAAAAAAAA&hitId=3H&turkSubmitTo=https%3A%2F%2Fwww.mturk.com",
            "assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=3H",
            "pid=a&pid=b",
            "%ZZ%00=%ff",
            "&&==",
            "a=" + "b" * 5000,
        ]
    ),
    "questionId": st.sampled_from(["q1", "q2", "q3", "", "Q1", "q1 "]),
    "QuizAnswer.answer": st.sampled_from(["a", "b", "A", "", " a"]),
    "QuizQuestionInput.answer": st.sampled_from(["a", "b", "c", ""]),
    "choices[]": st.sampled_from(["a", "b", "", "a"]),
    "passMark": st.sampled_from([1, 2, 0, -1, 50]),
    "attempts": st.sampled_from([1, 3, 0, -1, 1000]),
    "currency": st.sampled_from(["GBP", "USD", "gbp", "EURO", "", "XXX"]),
    "baseCents": st.sampled_from([0, 100, 10_000_000, 10_000_001, -1]),
    "foolingBonusCents": st.sampled_from([0, 50, 10_000_001, -1]),
    "agreementBonusCents": st.sampled_from([0, 10, -5]),
    "bonusCapCents": st.sampled_from([0, 500, None, -1]),
    "completionCode": st.sampled_from(["C1ABCDEF", "", "c" * 65, "=cmd|' /C calc'!A0", "CODE WITH SPACES"]),
    "failureCode": st.sampled_from(["SCREENED1", "", "C1ABCDEF", "\u202eEVIL"]),
    "completionRedirect": st.sampled_from(
        ["https://example.org/done", "javascript:alert(1)", "http://localhost/", "//evil.example", "", "h" * 3000]
    ),
    "consent": st.sampled_from(
        ["# Consent\n\nI **agree**.", "<script>alert(1)</script>", "[x](javascript:alert(1))", "<img src=x onerror=alert(1)>"]
    ),
    "instructions": texts,
    "examplesPerCampaign": st.sampled_from([None, 0, 1, 2, -1, 10**6]),
    "examplesPerDay": st.sampled_from([None, 1, 0, -1]),
    "keepPreviousHours": st.sampled_from([0, 1, 24, 168, 169, -1, 2**31 - 1]),
    # Webhooks (tests/fuzz/test_webhooks_fuzz.py adds the hooks to its world); update/rotate/delete, webhookDeliveries.
    "webhookId": weighted(
        (5, st.sampled_from(WEBHOOK_REFS).map(Ref)), (2, st.sampled_from(ALL_ID_REFS).map(Ref)), (3, malformed_ids)
    ),
    "url": st.sampled_from(
        [
            "https://hooks.example.org/dynabench",
            "http://127.0.0.1:9/fuzz",
            "https://127.0.0.1/",
            "https://[::1]:8443/",
            "https://2130706433/",
            "javascript:alert(1)",
            "https://user:pw@hooks.example.org/",
            "ftp://hooks.example.org/",
            "https://hooks.example.org/#x",
            "https://exa mple.org/",
            "https://hooks.example.org:99999/",
            "//hooks.example.org/",
            "https://" + "h" * 3000 + ".org/",
        ]
    ),
    "config": st.one_of(
        st.just(SENTIMENT_CONFIG),
        st.builds(_corrupt_config, st.sampled_from(sorted(SENTIMENT_CONFIG)), st.integers(0, 5), json_values),
    ),
}


def _hint(names: list[str]) -> st.SearchStrategy | None:
    return next((HINTS[name] for name in names if name in HINTS), None)


def _scalar(type_: GraphQLScalarType, names: list[str], trust: int) -> st.SearchStrategy:
    generic = {
        "String": junk_strings,
        "ID": malformed_ids,
        "Int": ints,
        "Float": floats,
        "Boolean": st.booleans(),
        "UUID": st.one_of(st.uuids().map(str), junk_strings),
        "JSON": json_values,
        # Over JSON, an Upload can only be some other JSON value; multipart tests send real files.
        "Upload": st.one_of(st.none(), short_junk, st.dictionaries(short_junk, json_leaves, max_size=2)),
    }[type_.name]
    hint = _hint(names)
    if type_.name == "String" and hint is None:
        hint = texts
    if type_.name == "ID" and hint is None:
        hint = weighted((1, st.sampled_from(ALL_ID_REFS).map(Ref)), (1, malformed_ids))
    if hint is None:
        return weighted((6, generic), (1, wrong_type))
    return weighted((2 * trust, hint), (3, generic), (1, wrong_type))


def for_type(type_: GraphQLInputType, names: list[str], trust: int = 3) -> st.SearchStrategy:
    """Values for one GraphQL input type; `names` are the hint keys of the argument or field, and
    `trust` weighs plausible values against junk (3: mostly junk; 30: mostly plausible)."""
    if isinstance(type_, GraphQLNonNull):
        return weighted((5 * trust, for_type(type_.of_type, names, trust)), (1, st.none()))
    if isinstance(type_, GraphQLList):
        item = for_type(type_.of_type, [f"{name}[]" for name in names], trust)
        return weighted(
            (3 * trust, st.lists(item, min_size=1, max_size=3)),
            (1, st.just([])),
            (1, item),  # a single value where a list is expected (GraphQL coerces it to a list of one)
            (1, st.lists(st.lists(item, max_size=2), min_size=1, max_size=2)),
            (1, item.map(lambda value: [value] * 101)),  # just over the batch limits
            (1, st.none() | wrong_type),
        )
    if isinstance(type_, GraphQLEnumType):
        return weighted((3 * trust, st.sampled_from(sorted(type_.values))), (2, junk_strings), (1, wrong_type))
    if isinstance(type_, GraphQLInputObjectType):
        return weighted((4 * trust, _input_object(type_, trust)), (1, wrong_type))
    return weighted((4 * trust, _scalar(type_, names, trust)), (1, st.none()))


def has_default(spec: Any) -> bool:
    """Whether an argument or input field declares a default (graphql-core keeps SDL defaults in `default`)."""
    return spec.default_value is not Undefined or getattr(spec, "default", None) is not None


def _fields(specs: dict, names: Any, trust: int) -> st.SearchStrategy[dict]:
    """Required fields and arguments are (nearly) always sent; optional ones half the time when wild,
    three times in four when careful."""
    required, optional = {}, {}
    for name, spec in specs.items():
        strategy = for_type(spec.type, names(name), trust)
        if isinstance(spec.type, GraphQLNonNull) and not has_default(spec):
            required[name] = weighted((5 * trust, strategy), (1, st.just(Undefined)))
        elif trust > 3:
            required[name] = weighted((3, strategy), (1, st.just(Undefined)))
        else:
            optional[name] = strategy
    return st.fixed_dictionaries(required, optional=optional).map(
        lambda values: {k: v for k, v in values.items() if v is not Undefined}
    )


def _input_object(type_: GraphQLInputObjectType, trust: int) -> st.SearchStrategy:
    base = _fields(type_.fields, lambda name: [f"{type_.name}.{name}", name], trust)
    return weighted(
        (3 * trust, base),
        (
            1,
            st.builds(
                lambda value, extra: {**value, **extra}, base, st.dictionaries(short_junk, json_leaves, min_size=1, max_size=2)
            ),
        ),
    )


@dataclass(frozen=True)
class Case:
    """One request: who sends it and the variables (absent keys are not sent; Refs are world objects)."""

    mutation: str
    viewer: str
    variables: dict[str, Any] = field(default_factory=dict)


def variables_for(mutation: str, skip: tuple[str, ...], trust: int) -> st.SearchStrategy[dict]:
    args = {name: arg for name, arg in MUTATIONS[mutation].args.items() if name not in skip}
    return _fields(args, lambda name: [name], trust)


def cases(mutation: str, skip: tuple[str, ...] = ()) -> st.SearchStrategy[Case]:
    """Cases for one Mutation field: half wild (mostly junk), half careful (mostly plausible values with
    a little junk, which gets past GraphQL validation into the resolver's own checks and writes).
    `skip` leaves arguments out (the multipart tests send the files themselves)."""
    variables = st.one_of(variables_for(mutation, skip, trust=3), variables_for(mutation, skip, trust=30))
    viewers = weighted((6, st.sampled_from(VIEWERS[:3])), (2, st.sampled_from(VIEWERS[3:5])), (1, st.sampled_from(VIEWERS[5:])))
    return st.builds(Case, st.just(mutation), viewers, variables)
