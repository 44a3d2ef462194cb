"""Every GraphQL document in docs/api.md is valid against the exported schema (a renamed field breaks this)."""

import re
from pathlib import Path

import pytest
from graphql import build_schema, parse, validate

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = re.findall(r"```graphql\n(.*?)```", (ROOT / "docs" / "api.md").read_text(), flags=re.S)


def test_the_guide_has_examples():
    assert len(DOCUMENTS) >= 10


@pytest.mark.parametrize("document", DOCUMENTS, ids=[f"example{i}" for i in range(len(DOCUMENTS))])
def test_example_is_valid_against_schema_graphql(document):
    schema = build_schema((ROOT / "schema.graphql").read_text())
    assert validate(schema, parse(document)) == []
