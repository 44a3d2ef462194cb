"""Every HTTP response carries the security headers (server/core/security_headers.py): the PWA's pages a
Content-Security-Policy that keeps them to their own origin, /graphql (whose GraphiQL page loads from a CDN) only the
framing rule; 404s and refused bodies included. The browser tests fail on any CSP refusal (tests/browser/conftest.py)."""

from __future__ import annotations

COMMON = {"x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "no-referrer"}


def _assert_common(response) -> None:
    assert {name: response.headers.get(name) for name in COMMON} == COMMON, response.headers
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


def test_the_pwa_is_kept_to_its_own_origin(stack, api):
    page = api.http.get("/")
    assert page.status_code == 200 and '<div id="app">' in page.text
    _assert_common(page)
    policy = dict(directive.partition(" ")[::2] for directive in page.headers["content-security-policy"].split("; "))
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self' 'wasm-unsafe-eval'"  # no inline or remote script
    assert policy["connect-src"] == "'self'" and policy["object-src"] == "'none'"


def test_graphql_404s_and_refused_bodies_carry_the_headers(stack, api):
    answered = api.http.post("/graphql", json={"query": "{ __typename }"})
    assert answered.status_code == 200
    _assert_common(answered)
    assert answered.headers["content-security-policy"] == "frame-ancestors 'none'"
    graphiql = api.http.get("/graphql", headers={"Accept": "text/html"})
    assert graphiql.status_code == 200 and "default-src" not in graphiql.headers["content-security-policy"]
    missing = api.http.get("/no-such-page.txt")
    assert missing.status_code == 404
    _assert_common(missing)
    too_large = api.http.post("/graphql", content=b"{" + b" " * (3 << 20), headers={"Content-Type": "application/json"})
    assert too_large.status_code == 413
    _assert_common(too_large)
