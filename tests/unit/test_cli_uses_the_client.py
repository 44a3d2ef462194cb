"""Issue #33: the `dynabench` commands that talk to the API (model upload, contexts add, train) go through the Python
client (sdk/, `dynabench_client`): no module of server/cli/ holds a GraphQL document or posts one by hand."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from graphql import GraphQLSyntaxError, OperationDefinitionNode, parse

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "server" / "cli"
# `query Name(`, `mutation {`, `subscription($x: ID!) {` ... at the start of a string or after a brace or a newline.
OPERATION = re.compile(r"(?:^|[\n{])\s*(?:query|mutation|subscription)\b\s*\w*\s*[({]")


def graphql_documents(source: str) -> list[str]:
    """The string constants of a module that are GraphQL operations (they parse as one, or start like one), and
    the `"query"` keys of hand-built request bodies."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            found += [f'a request body\'s "query" key (line {key.lineno})' for key in node.keys if _is(key, "query")]
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        text = node.value
        if OPERATION.search(text) or (text.lstrip().startswith("{") and _is_operation(text)):
            found.append(f"line {node.lineno}: {text.strip()[:60]!r}")
    return found


def _is(node: ast.expr | None, value: str) -> bool:
    return isinstance(node, ast.Constant) and node.value == value


def _is_operation(text: str) -> bool:
    try:
        document = parse(text)
    except GraphQLSyntaxError:
        return False
    return any(isinstance(d, OperationDefinitionNode) for d in document.definitions)


def test_the_scan_finds_graphql_documents() -> None:
    """The guard below would catch what the CLI used to carry."""
    assert graphql_documents('UPLOAD = """mutation($t: String!) { uploadModel(taskCode: $t) { __typename } }"""')
    assert graphql_documents('ROUND = """query($c: String!) { task(code: $c) { id } }"""')
    assert graphql_documents('RUN = "{ me { id } }"')
    assert graphql_documents('client.post("/graphql", json={"query": TEXT, "variables": {}})')
    assert not graphql_documents('print("create one with the createApiToken mutation")')
    assert not graphql_documents('print("watch it with `model {{ status statusLog }}`")')


def test_no_cli_module_holds_graphql() -> None:
    offending = {
        path.relative_to(ROOT).as_posix(): found
        for path in sorted(CLI.glob("*.py"))
        if (found := graphql_documents(path.read_text(encoding="utf-8")))
    }
    assert not offending, (
        "the CLI calls the Python client (dynabench_client) instead of writing GraphQL; add the operation to "
        f"sdk/queries/*.graphql and a client method (scripts/sdk-codegen.sh): {offending}"
    )
