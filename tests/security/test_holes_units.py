"""Unit tests of the pure parts of the issue #15 point 6 fixes: who the client is (peer or trusted proxy), how
addresses are counted, how waits are written, and the target-model rules."""

import pytest

from server import permissions
from server.accounts.viewer import Viewer
from server.core.client_address import TrustedProxies, client_address, limit_key, trusted_proxies
from server.core.rate_limits import wait_text

NONE = TrustedProxies([])
LOOPBACK = TrustedProxies(["127.0.0.1", "10.0.0.0/8"])


def test_without_trusted_proxies_the_client_is_the_peer():
    assert client_address("203.0.113.9", ["1.2.3.4"], NONE) == "203.0.113.9"
    assert client_address(None, [], NONE) == "unknown"


def test_a_trusted_proxy_names_the_client_and_spoofed_hops_are_skipped_from_the_right():
    assert client_address("127.0.0.1", ["198.51.100.7"], LOOPBACK) == "198.51.100.7"
    # The client sent "1.1.1.1" itself; the proxy appended the real peer: the rightmost untrusted hop wins.
    assert client_address("127.0.0.1", ["1.1.1.1, 198.51.100.7"], LOOPBACK) == "198.51.100.7"
    assert client_address("127.0.0.1", ["1.1.1.1", "198.51.100.7, 10.1.2.3"], LOOPBACK) == "198.51.100.7"
    assert client_address("127.0.0.1", ["[2001:db8::1]:4711"], LOOPBACK) == "2001:db8::1"
    assert client_address("127.0.0.1", ["198.51.100.7:8080"], LOOPBACK) == "198.51.100.7"
    assert client_address("127.0.0.1", [], LOOPBACK) == "127.0.0.1"  # no header: the proxy itself
    assert client_address("203.0.113.9", ["198.51.100.7"], LOOPBACK) == "203.0.113.9"  # not a trusted peer
    assert client_address("203.0.113.9", ["198.51.100.7"], TrustedProxies(["*"])) == "198.51.100.7"


def test_bad_trusted_proxies_stop_the_start():
    with pytest.raises(ValueError):
        trusted_proxies(("not-an-address",))


def test_ipv6_clients_are_counted_by_their_64():
    assert limit_key("2001:db8:1:2:aaaa::1") == limit_key("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert limit_key("2001:db8:1:3::1") != limit_key("2001:db8:1:2::1")
    assert limit_key("::ffff:198.51.100.7") == "198.51.100.7"
    assert limit_key("198.51.100.7") == "198.51.100.7"


def test_waits_read_as_people_say_them():
    assert [wait_text(s) for s in (1, 2, 89, 90, 3599, 5400, 86400)] == [
        "1 second",
        "2 seconds",
        "89 seconds",
        "2 minutes",
        "60 minutes",
        "2 hours",
        "24 hours",
    ]


def _viewer(owned=(), admin=False) -> Viewer:
    return Viewer(user_id=1, username="u", is_admin=admin, owned_task_ids=frozenset(owned))


def test_builtin_target_models_belong_to_their_builtin_task():
    sentiment, mine = {"id": 1, "code": "sentiment"}, {"id": 7, "code": "mine"}
    owner_of_mine, owner_of_sentiment, admin = _viewer({7}), _viewer({1}), _viewer(admin=True)
    assert permissions.use_target_models(owner_of_mine, mine, ["sentiment_minilm"]).code == "FORBIDDEN"
    assert permissions.use_target_models(owner_of_mine, mine, ["my_own_model"]) is None
    assert permissions.use_target_models(admin, mine, ["sentiment_minilm"]) is None
    assert permissions.use_target_models(owner_of_sentiment, sentiment, ["sentiment_minilm"]) is None
    assert permissions.retrain_target_model(owner_of_mine, mine, "sentiment_minilm").code == "FORBIDDEN"
    assert permissions.retrain_target_model(owner_of_sentiment, sentiment, "sentiment_minilm") is None
    assert permissions.retrain_target_model(owner_of_mine, sentiment, "sentiment_minilm").code == "FORBIDDEN"  # not an owner
    assert permissions.retrain_target_model(admin, mine, "sentiment_minilm") is None
    assert permissions.create_task(owner_of_mine, "nli").code == "FORBIDDEN"
    assert permissions.create_task(owner_of_mine, "my_nli") is None
