"""Hardening of Strawberry's HTTP view: requests it would answer with a 500 are refused with a 400.

* a body that is not UTF-8 (`json.loads` raises UnicodeDecodeError), nested too deeply for the JSON
  decoder (RecursionError), or whose top level is not an object or an array (Strawberry calls `.get`);
* a multipart request whose `operations` or `map` does not follow the GraphQL multipart request spec
  (Strawberry walks the map's paths without checking types), or is larger than a JSON request may be
  (413: a multipart body may be as large as a model upload, its JSON parts may not);
* a subscription sent as a plain HTTP request: Strawberry executes it like a query and fails on the
  stream its resolver returns. Subscriptions are served over graphql-transport-ws on the same path;
* a document of several operations without an `operationName`: Strawberry runs the first one, where
  the GraphQL spec requires an error (a client, proxy or log must never guess which one ran).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import partialmethod
from typing import Any

from cross_web import HTTPException
from graphql import GraphQLSyntaxError, OperationDefinitionNode, parse
from litestar import Request, Response, get, post
from litestar.background_tasks import BackgroundTasks
from litestar.exceptions import NotFoundException, ValidationException
from strawberry.exceptions import MissingQueryError
from strawberry.file_uploads.utils import replace_placeholders_with_files
from strawberry.schema.exceptions import (
    CannotGetOperationTypeError,
    InvalidOperationTypeError,
)
from strawberry.types.graphql import OperationType
from strawberry.types.unset import UNSET, UnsetType

from server.graphql.core.websocket import GuardedTransportWSHandler, reject_bad_credentials


def decode_request_json(_view: Any, data: str | bytes) -> object:
    """As a JSONDecodeError, each of these becomes Strawberry's 400 "Unable to parse request body as JSON"."""
    try:
        if isinstance(data, bytes):
            data = data.decode(json.detect_encoding(data))
        value = json.loads(data)
    except UnicodeDecodeError as exc:
        raise json.JSONDecodeError(f"not {exc.encoding} ({exc.reason})", "", exc.start) from None
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", "", 0) from None
    if not isinstance(value, (dict, list)):
        raise json.JSONDecodeError("a GraphQL request is a JSON object", "", 0)
    return value


async def parse_multipart_strictly(view: Any, request: Any, json_limit: int) -> dict | list:
    """Strawberry's `parse_multipart`, checking what it trusts: `operations` and `map` are JSON no larger
    than a JSON request may be (the multipart body limit is the upload limit), `map` is an object of lists
    of paths, and every path leads into `operations`."""
    try:
        form = await request.get_form_data()
    except ValueError:
        raise HTTPException(400, "Unable to parse the multipart body") from None
    parts = {}
    for name in ("operations", "map"):
        raw = form.form.get(name, "{}")
        if not isinstance(raw, (str, bytes)):
            raise HTTPException(400, f"The multipart request's `{name}` must be a form field, not a file.")
        if len(raw) > json_limit:
            raise HTTPException(413, f"The multipart request's `{name}` is larger than {json_limit:,} bytes.")
        parts[name] = view.parse_json(raw)
    files_map = parts["map"]
    if not isinstance(files_map, dict) or not all(
        isinstance(paths, list) and all(isinstance(path, str) for path in paths) for paths in files_map.values()
    ):
        raise HTTPException(400, "The multipart request's `map` must be an object of lists of paths.")
    if any(name not in form.files for name in files_map):
        raise HTTPException(400, "File(s) missing in form data")
    try:
        return replace_placeholders_with_files(parts["operations"], files_map, form.files)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        raise HTTPException(400, "A path of the multipart request's `map` does not lead into `operations`.") from None


_OPERATION_KEYWORD = re.compile(r"\b(?:query|mutation|subscription)\b")


def _operations(query: str, max_tokens: int) -> int:
    """How many operations the document defines (only parsed when it could define several)."""
    keywords = _OPERATION_KEYWORD.finditer(query)
    if next(keywords, None) is None or next(keywords, None) is None:
        return 1
    try:
        document = parse(query, no_location=True, max_tokens=max_tokens)
    except GraphQLSyntaxError:
        return 1  # execution reports the syntax error
    return sum(isinstance(definition, OperationDefinitionNode) for definition in document.definitions)


async def execute_over_http(
    view: Any,
    request: Any,
    request_adapter: Any,
    sub_response: Any,
    context: Any,
    root_value: Any,
    request_data: Any,
    max_tokens: int,
) -> Any:
    """Strawberry's `execute_single` (one operation over plain HTTP), without subscriptions, and without
    guessing the operation."""
    if (
        request_data.operation_name is None
        and isinstance(request_data.query, str)
        and _operations(request_data.query, max_tokens) > 1
    ):
        raise HTTPException(400, "Must provide operation name if query contains multiple operations.")
    allowed = OperationType.from_http(request_adapter.method) - {OperationType.SUBSCRIPTION}
    if not view.allow_queries_via_get and request_adapter.method == "GET":
        allowed -= {OperationType.QUERY}
    try:
        return await view.schema.execute(
            request_data.query,
            root_value=root_value,
            variable_values=request_data.variables,
            context_value=context,
            operation_name=request_data.operation_name,
            allowed_operation_types=allowed,
            operation_extensions=request_data.extensions,
        )
    except CannotGetOperationTypeError as exc:
        raise HTTPException(400, exc.as_http_error_reason()) from exc
    except InvalidOperationTypeError as exc:
        if exc.operation_type == OperationType.SUBSCRIPTION:
            raise HTTPException(400, "Subscriptions are served over WebSocket (graphql-transport-ws) on this path.") from exc
        raise HTTPException(400, exc.as_http_error_reason(request_adapter.method)) from exc
    except MissingQueryError as exc:
        raise HTTPException(400, "No GraphQL query found in the request") from exc


_SUB_RESPONSE = "dynabench.graphql_sub_response"


def harden(controller: type, max_tokens: int, json_limit: int, make_context: Callable[[Request], Any]) -> type:
    """The controller class `make_graphql_controller` returned, hardened (WebSockets keep checking their
    credentials: websocket.py), with HTTP handlers that take no
    dependencies: Litestar resolves the stock handlers' dependencies (context, root value, response) in
    an anyio task group per request, ~10% of a createExample's CPU in the API. Each request's response
    is also kept on the request: the stock controller keeps it on the one shared controller instance,
    where concurrent requests can swap each other's (headers, cookies, status)."""

    class HardenedController(controller):  # type: ignore[misc, valid-type]
        decode_json = decode_request_json
        parse_multipart = partialmethod(parse_multipart_strictly, json_limit=json_limit)
        execute_single = partialmethod(execute_over_http, max_tokens=max_tokens)
        # Credentials checked at connect, on every operation and while the socket is open (websocket.py).
        graphql_transport_ws_handler_class = GuardedTransportWSHandler

        async def on_ws_connect(self, context: Any) -> UnsetType:
            await reject_bad_credentials(context)
            return UNSET

        @get(raises=[ValidationException, NotFoundException])
        async def handle_http_get(self, request: Request) -> Response:
            return await self._execute_http(request)

        @post(status_code=200)
        async def handle_http_post(self, request: Request) -> Response:
            return await self._execute_http(request)

        async def _execute_http(self, request: Request) -> Response:
            sub_response = Response({}, background=BackgroundTasks([]))
            request.scope[_SUB_RESPONSE] = sub_response  # type: ignore[literal-required]
            context = make_context(request)
            context.request, context.response = request, sub_response
            return await self.execute_request(request=request, context=context, root_value=None)

        async def get_sub_response(self, request: Request) -> Response:
            return request.scope[_SUB_RESPONSE]  # type: ignore[literal-required]

    return HardenedController
