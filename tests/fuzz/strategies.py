"""Hypothesis strategies for hostile mutation arguments, built by walking the input types of schema.graphql,
and the `Case` (viewer + variables) each fuzzer sends.

Every leaf mixes plausible values (tests/fuzz/plausible.py: real ids, codes and labels of the fuzz world, as `Ref`s
resolved when a case is sent, so that cases stay printable and usable in `@example`) with junk (tests/fuzz/junk.py:
huge, empty and whitespace strings, NUL and other control characters, RTL marks, lone surrogates, invalid UTF-8 (sent
as raw bytes), negative and out-of-range numbers, NaN and infinities, malformed and foreign global ids, and values of
the wrong JSON type for the field).
"""

from __future__ import annotations

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

from tests.fuzz.junk import floats, ints, json_leaves, json_values, junk_strings, malformed_ids, short_junk, weighted, wrong_type
from tests.fuzz.plausible import ALL_ID_REFS, HINTS, Ref, texts

SCHEMA = build_schema((Path(__file__).resolve().parents[2] / "schema.graphql").read_text())
MUTATIONS = SCHEMA.mutation_type.fields

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
