"""Request bodies a client can break: not JSON, not an object, not UTF-8, nested too deeply, too large
(declared, chunked, or hidden in a multipart request's JSON parts), malformed multipart. Each is refused
with a 4xx before anything runs; nothing is written.

Extends tests/api/test_limits_and_live.py::test_body_limit (a declared 3 MB JSON body)."""

import json

import pytest

from tests.fuzz.abuse import SIGN_UP, refusal, refused
from tests.fuzz.junk import INVALID_UTF8_BYTES

LIMIT = 2 * 1024 * 1024  # Settings.request_body_max_bytes
UPLOAD = 'mutation($f: Upload!) { createDataset(taskCode: "alpha", name: "n", file: $f) { __typename } }'


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"null",
        b"42",
        b'"{ me { id } }"',
        b"true",
        b"{",
        INVALID_UTF8_BYTES,
        b'{"query": "{ me { id } }", "variables": {"a": "' + INVALID_UTF8_BYTES + b'"}}',
    ],
)
def test_bodies_that_are_not_a_json_object_are_refused(world, send, body):
    refused(world, send, body, "unable to parse")


def test_deeply_nested_json_bodies_are_refused(world, send):
    arrays = b'{"query": "{ me { id } }", "variables": {"v": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}"
    refused(world, send, arrays, "unable to parse")
    objects = b'{"query": "{ me { id } }", "variables": ' + b'{"a":' * 50_000 + b"1" + b"}" * 50_000 + b"}"
    refused(world, send, objects, "unable to parse")


def test_huge_variables_objects(world, send):
    refused(world, send, {"query": "{ me { id } }", "variables": {f"k{i}": i for i in range(150_000)}}, "larger than")
    unused = send({"query": "{ me { username } }", "variables": {f"k{i}": "v" * 10 for i in range(60_000)}}).json()
    assert unused == {"data": {"me": {"username": "alice"}}}


def test_a_chunked_body_without_length_is_cut_off_at_the_limit(world):
    def chunks():
        yield b'{"query": "mutation { ' + SIGN_UP.format(i="chunked").encode() + b' }", "variables": {"pad": "'
        for _ in range(LIMIT // 65536 + 2):
            yield b"x" * 65536
        yield b'"}}'

    before = world.db.fingerprint()
    response = world.http.post("/graphql", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413 and "larger than" in refusal(response)
    assert world.db.fingerprint() == before


def test_multipart_json_parts_have_the_json_limit(world):
    """A multipart body may be as large as a model upload; its `operations` and `map` may not."""
    operations = json.dumps({"query": UPLOAD, "variables": {"f": None, "pad": "a" * (LIMIT + 1)}})
    response = world.http.post(
        "/graphql",
        data={"operations": operations, "map": json.dumps({"0": ["variables.f"]})},
        files={"0": ("d.jsonl", b"{}")},
        headers={"Authorization": f"Bearer {world.tokens['alice']}"},
    )
    assert response.status_code == 413 and "`operations` is larger than" in refusal(response)
    huge_map = json.dumps({str(i): ["variables.f"] for i in range(LIMIT // 20)})
    response = world.http.post(
        "/graphql",
        data={"operations": json.dumps({"query": UPLOAD}), "map": huge_map},
        files={"0": ("d", b"x")},
        headers={"Authorization": f"Bearer {world.tokens['alice']}"},
    )
    assert response.status_code == 413 and "`map` is larger than" in refusal(response)


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        ({"files": [("operations", ("o.json", b'{"query": "{ me { id } }"}')), ("map", ("m", b"{}"))]}, "must be a form field"),
        (
            {"data": {"operations": json.dumps({"query": UPLOAD}), "map": '{"0": ["variables.f"]}'}, "files": {"1": ("d", b"x")}},
            "File(s) missing",
        ),
        (
            {"data": {"operations": json.dumps({"query": UPLOAD}), "map": '{"0": "variables.f"}'}, "files": {"0": ("d", b"x")}},
            "lists of paths",
        ),
        (
            {
                "data": {"operations": json.dumps({"query": UPLOAD}), "map": '{"0": ["variables.f.x.y"]}'},
                "files": {"0": ("d", b"x")},
            },
            "does not lead",
        ),
        (
            {"data": {"operations": json.dumps({"query": UPLOAD}), "map": '{"0": ["query.0"]}'}, "files": {"0": ("d", b"x")}},
            "does not lead",
        ),
        ({"files": [(f"f{i}", ("a", b"x")) for i in range(2000)]}, "too large"),
    ],
)
def test_malformed_multipart_requests(world, parts, expected):
    before = world.db.fingerprint()
    signed_in = {"Authorization": f"Bearer {world.tokens['alice']}"}
    assert expected.lower() in refusal(world.http.post("/graphql", **parts, headers=signed_in)).lower()
    assert world.db.fingerprint() == before


@pytest.mark.parametrize(
    "body", [b"garbage", b'--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{"query": 1}\r\n--x--']
)
@pytest.mark.parametrize(
    "content_type", ["multipart/form-data", "multipart/form-data; boundary=x", 'multipart/form-data; boundary=""']
)
def test_multipart_bodies_that_do_not_parse(world, send, body, content_type):
    refusal(send(body, content_type=content_type))


@pytest.mark.parametrize(
    ("authorization", "code"),
    [
        (None, "AUTHENTICATION_REQUIRED"),
        ("Bearer not-a-token", "AUTHENTICATION_FAILED"),
        ("Bearer dbt_unknownunknownunknown", "AUTHENTICATION_FAILED"),
        ("Basic eDp5", "AUTHENTICATION_FAILED"),
    ],
)
def test_a_multipart_body_without_a_live_account_is_refused_before_it_is_read(world, authorization, code):
    """An anonymous (or badly signed) 600 MB upload is refused, as GraphQL refuses an anonymous call, after its headers
    alone: the server reads none of the body (nothing is spooled to disk), so the answer comes while the client has
    sent almost nothing."""
    import socket
    from urllib.parse import urlsplit

    address = urlsplit(str(world.http.base_url))
    head = (
        f"POST /graphql HTTP/1.1\r\nHost: {address.hostname}\r\nContent-Type: multipart/form-data; boundary=x\r\n"
        f"Content-Length: {600 * 1024 * 1024}\r\n" + (f"Authorization: {authorization}\r\n" if authorization else "") + "\r\n"
    )
    with socket.create_connection((address.hostname, address.port), timeout=30) as connection:
        connection.sendall(head.encode() + b"--x\r\n" + b"A" * 65536)
        answer = b""
        while b"}" not in answer.partition(b"\r\n\r\n")[2] and (data := connection.recv(65536)):
            answer += data  # the headers, then the JSON body (maybe in a second packet)
    status_line, _, rest = answer.decode("latin-1").partition("\r\n")
    assert status_line.split()[1] == "200", answer[:300]
    [error] = json.loads(rest.partition("\r\n\r\n")[2])["errors"]
    assert error["extensions"]["code"] == code and error["message"], error
