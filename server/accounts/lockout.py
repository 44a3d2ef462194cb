"""Failed log-ins, limited so that nobody can lock someone else out (usernames are public).

* Per (account, client address): a few failures are free (LOGIN_MAX_FAILURES), then each further one
  makes that pair wait 2, 4, 8, ... seconds, at most LOGIN_BACKOFF_MAX_SECONDS. Failures are remembered
  for LOGIN_WINDOW_SECONDS after the last one; a successful log-in forgets them. The account's owner
  logging in from another address is never slowed down by someone else's failures.
* Per client address, over all accounts: LOGIN_FAILURES_PER_ADDRESS failures per LOGIN_WINDOW_SECONDS
  (stops password spraying: many accounts, a few guesses each).

An unknown username is counted exactly like a known one, and the refusal says the same thing, so the
answers reveal nothing about which accounts exist. Counted in Redis (every API process shares them);
unlike the other rate limits, log-in fails closed when Redis is unreachable.
"""

from __future__ import annotations

from dataclasses import dataclass

from redis.asyncio import Redis

from server.core.client_address import limit_key
from server.core.errors import rate_limited
from server.core.i18n import tr
from server.core.rate_limits import KEY_PREFIX, wait_text
from server.core.settings import Settings


@dataclass(frozen=True)
class LoginRules:
    free_failures: int = 5  # per account and address before the backoff starts; 0 = no per-pair limit
    backoff_max_s: int = 900
    window_s: int = 3600
    per_address: int = 50  # failures per address and window over all accounts; 0 = no budget

    @classmethod
    def from_settings(cls, settings: Settings) -> LoginRules:
        return cls(
            settings.login_max_failures,
            settings.login_backoff_max_seconds,
            settings.login_window_seconds,
            settings.login_failures_per_address,
        )


def _keys(account: str, address: str) -> tuple[str, str, str]:
    who = f"{limit_key(address)}|{account.strip().lower()[:100]}"
    return f"{KEY_PREFIX}login:failures:{who}", f"{KEY_PREFIX}login:wait:{who}", f"{KEY_PREFIX}login:address:{limit_key(address)}"


async def check(redis: Redis, rules: LoginRules, account: str, address: str) -> None:
    """Refuse (RATE_LIMITED, with the wait) before the password is even looked at."""
    _, wait_key, address_key = _keys(account, address)
    async with redis.pipeline(transaction=False) as pipe:
        pipe.pttl(wait_key)
        pipe.get(address_key)
        pipe.pttl(address_key)
        wait_ms, address_failures, address_ms = await pipe.execute()
    if rules.per_address > 0 and int(address_failures or 0) >= rules.per_address:
        wait = _seconds(address_ms, rules.window_s)
        raise rate_limited(tr("Too many failed log-ins from your network; try again in {wait}.", wait=wait_text(wait)), wait)
    if rules.free_failures > 0 and int(wait_ms) > 0:
        wait = _seconds(wait_ms, rules.backoff_max_s)
        raise rate_limited(
            tr("Too many failed log-ins to this account from your address; try again in {wait}.", wait=wait_text(wait)), wait
        )


# KEYS: the pair's failures, the pair's wait, the address's failures. ARGV: free failures, longest wait,
# window. Returns the wait (s) the pair now has.
_FAILED = """
local n = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
local free = tonumber(ARGV[1])
local wait = 0
if free > 0 and n > free then
  wait = math.floor(math.min(tonumber(ARGV[2]), 2 ^ math.min(n - free, 30)))
  redis.call('SET', KEYS[2], '1', 'EX', wait)
end
if redis.call('INCR', KEYS[3]) == 1 then redis.call('EXPIRE', KEYS[3], ARGV[3]) end
return wait
"""


async def failed(redis: Redis, rules: LoginRules, account: str, address: str) -> int:
    """Count a failed log-in; returns the wait it imposes on this account and address (0: none yet)."""
    keys = _keys(account, address)
    return int(await redis.eval(_FAILED, 3, *keys, rules.free_failures, rules.backoff_max_s, rules.window_s))


async def succeeded(redis: Redis, account: str, address: str) -> None:
    """The right password from this address: its earlier failures no longer count (the address budget stays)."""
    failures_key, wait_key, _ = _keys(account, address)
    await redis.delete(failures_key, wait_key)


def _seconds(milliseconds: int, fallback: int) -> int:
    milliseconds = int(milliseconds)
    return max(1, (milliseconds + 999) // 1000) if milliseconds > 0 else max(1, fallback)
