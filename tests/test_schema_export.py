from pathlib import Path

from server.graphql.schema import export_sdl

SCHEMA = Path(__file__).resolve().parent.parent / "schema.graphql"


def test_schema_graphql_is_current():
    assert SCHEMA.read_text() == export_sdl(), "schema.graphql is stale: run `dynabench export-schema`"


def test_mutations_are_verb_noun():
    sdl = export_sdl()
    block = sdl.split("type Mutation {", 1)[1].split("\n}", 1)[0]
    names = [line.strip().split("(")[0] for line in block.splitlines() if "(" in line and not line.strip().startswith('"')]
    assert names and all(name[0].islower() and any(c.isupper() for c in name) for name in names), names
