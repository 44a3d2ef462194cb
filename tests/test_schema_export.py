from pathlib import Path

from server.graphql.schema import export_sdl

SCHEMA = Path(__file__).resolve().parent.parent / "schema.graphql"


def test_schema_graphql_is_current():
    assert SCHEMA.read_text() == export_sdl(), "schema.graphql is stale: run `dynabench export-schema`"


def test_mutations_are_verb_noun():
    from graphql import build_schema

    names = list(build_schema(export_sdl()).mutation_type.fields)
    assert len(names) > 10
    assert all(name[0].islower() and any(c.isupper() for c in name) for name in names), names
