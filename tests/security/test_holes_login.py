"""Issue #15 point 6.3: nobody can lock someone else out by failing to log in as them. Failures are limited per
(account, client address) with an exponential backoff, plus a budget per address over all accounts (password
spraying). The client address is the socket peer; X-Forwarded-For counts only from TRUSTED_PROXIES, so these
tests play several addresses through an API process that trusts its loopback peer."""

from tests.api.examples_helpers import wait_until
from tests.authz.conftest import extra_api
from tests.security.holes_helpers import PASSWORD, Client

RULES = {"TRUSTED_PROXIES": "127.0.0.1", "LOGIN_MAX_FAILURES": "3", "LOGIN_FAILURES_PER_ADDRESS": "8"}
PAIR_LIMITED = "Too many failed log-ins to this account from your address; try again in"


def _fail(client: Client, username: str, times: int) -> None:
    for _ in range(times):
        assert client.log_in(username, "wrong password!")["code"] == "INVALID_CREDENTIALS"


def test_failures_from_one_address_never_lock_the_owner_out(stack, api):
    with extra_api(stack, RULES) as (url, _):
        attacker, owner = Client(url, "203.0.113.7"), Client(url, "198.51.100.20")
        owner.token("victim")
        _fail(attacker, "victim", 4)  # three free failures, then the fourth starts a wait of 2 s
        limited = attacker.log_in("victim", PASSWORD)  # the right password waits too: no guessing meanwhile
        assert limited["__typename"] == "RateLimitedError" and limited["message"].startswith(PAIR_LIMITED), limited
        assert 1 <= limited["retryAfterSeconds"] <= 2
        # The owner, from their own address, is not slowed down at all.
        assert owner.log_in("victim", PASSWORD)["__typename"] == "AuthPayload"
        # The attacker's next failure, once the wait is over, doubles it.
        wait_until(
            lambda: attacker.log_in("victim", "another guess")["__typename"] != "RateLimitedError", timeout=30, interval=0.5
        )
        assert 3 <= attacker.log_in("victim", "a third guess")["retryAfterSeconds"] <= 4
        # An account that does not exist is answered exactly like one that does: no existence leak. (From another
        # address: this one's budget over all accounts, 8 failures, is nearly spent.)
        prober = Client(url, "203.0.113.8")
        _fail(prober, "nobody-by-this-name", 4)
        unknown = prober.log_in("nobody-by-this-name", PASSWORD)
        assert unknown["__typename"] == "RateLimitedError" and unknown["message"].startswith(PAIR_LIMITED), unknown
        assert 1 <= unknown["retryAfterSeconds"] <= 2
        for client in (attacker, owner, prober):
            client.close()


def test_password_spraying_from_one_address_is_stopped(stack, api):
    with extra_api(stack, RULES) as (url, _):
        sprayer, colleague = Client(url, "203.0.113.50"), Client(url, "198.51.100.60")
        for i in range(9):
            colleague.token(f"user{i}")
        for i in range(8):  # one guess per account: the per-account backoff never starts
            _fail(sprayer, f"user{i}", 1)
        budget_spent = sprayer.log_in("user8", PASSWORD)
        assert budget_spent["__typename"] == "RateLimitedError", budget_spent
        assert budget_spent["message"].startswith("Too many failed log-ins from your network; try again in")
        assert budget_spent["retryAfterSeconds"] > 0
        for i in (0, 8):  # the accounts themselves are fine
            assert colleague.log_in(f"user{i}", PASSWORD)["__typename"] == "AuthPayload"
        sprayer.close()
        colleague.close()


def test_x_forwarded_for_is_ignored_unless_the_peer_is_a_trusted_proxy(stack, api):
    # The session's API trusts no proxy (the default): every attempt comes from its peer, 127.0.0.1, whatever
    # the header says, so the default five free failures are used up by "five addresses".
    api.sign_up("victim")
    for i in range(6):
        spoofing = Client(stack.api_url, f"192.0.2.{i}")
        assert spoofing.log_in("victim", "wrong password!")["code"] == "INVALID_CREDENTIALS"
        spoofing.close()
    limited = Client(stack.api_url, "192.0.2.99").log_in("victim", PASSWORD)
    assert limited["__typename"] == "RateLimitedError" and limited["message"].startswith(PAIR_LIMITED), limited
