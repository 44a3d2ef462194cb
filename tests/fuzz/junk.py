"""Junk for the mutation fuzzers: huge, empty and whitespace strings, NUL and other control characters, RTL marks,
lone surrogates, invalid UTF-8 (sent as raw bytes), negative and out-of-range numbers, NaN and infinities, values of
the wrong JSON type for the field, and malformed and foreign global ids; and ``weighted``, which mixes strategies."""

from __future__ import annotations

import base64

from hypothesis import strategies as st
from strawberry.relay import to_base64

BODY_LIMIT = 2 * 1024 * 1024  # Settings.request_body_max_bytes

# Replaced in the serialized request body by bytes that are not UTF-8 (a JSON str cannot carry them).
INVALID_UTF8 = "\ue000\ue001"
INVALID_UTF8_BYTES = b"\xff\xfe\xc3\x28\xed\xa0\x80"


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
