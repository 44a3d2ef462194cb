"""Every rate limit of the platform in one place: sign-ups, task creation, model uploads and examples, each
limited per account and per client address (server/core/client_address.py), with the windows in Settings.

Counted in Redis, so every API process shares the counts. A window starts with the first attempt it
counts and lasts its length (no calendar boundary, so a burst cannot straddle two windows' limits twice
over). An attempt is counted against all of its windows or none: a refused attempt costs nothing, and the
client is told how long to wait. `Taken.give_back()` returns an attempt that turned out not to count (a
retried example answered from the stored one). If Redis cannot be reached the attempt is let through and
logged: the limits protect against abuse, and writing examples must not stop with Redis (docs/security.md).
Failed log-ins have their own rules (server/accounts/lockout.py) in the same key space.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import StrEnum

from redis.asyncio import Redis
from redis.exceptions import RedisError

from server.core.client_address import limit_key
from server.core.errors import rate_limited
from server.core.i18n import Text, tr, trn
from server.core.redis_scripts import Script
from server.core.settings import Settings

log = logging.getLogger("dynabench.limits")

KEY_PREFIX = "dynabench:limit:"
MINUTE, HOUR, DAY = 60, 3600, 86400


class Action(StrEnum):
    SIGN_UP = "sign-ups"
    CREATE_TASK = "new tasks"
    UPLOAD_MODEL = "uploads"
    SUBMIT_EXAMPLE = "examples"
    JOIN_CAMPAIGN = "campaign joins"  # per address, and per campaign (passed as the `account` of the window)
    # Per address when asked; per account (counted by the job that mails it, silently: no account enumeration).
    PASSWORD_RESET = "password reset requests"
    SET_EMAIL = "email changes"
    EXPLAIN = "explanations"
    SEND_MESSAGE = "messages"  # to a generative target: as many per minute as examples
    SUGGEST = "suggestion requests"  # "inspire me": a generator's answer, or a perturbation search of up to 256 target rows


@dataclass(frozen=True)
class Window:
    max: int  # attempts per window; 0 = no limit
    seconds: int
    per_address: bool  # else per account


def windows(settings: Settings, action: Action) -> tuple[Window, ...]:
    """The limits on an action, from the settings (a limit of 0 is left out)."""
    cached = _WINDOWS.get(id(settings))
    if cached is None or cached[0] is not settings:  # built once per settings object (every request asks)
        cached = _WINDOWS[id(settings)] = (settings, _windows_table(settings))
    return cached[1][action]


_WINDOWS: dict[int, tuple[Settings, dict[Action, tuple[Window, ...]]]] = {}


def _windows_table(settings: Settings) -> dict[Action, tuple[Window, ...]]:
    table = {
        Action.SIGN_UP: (Window(settings.signups_per_hour_per_address, HOUR, True),),
        Action.CREATE_TASK: (
            Window(settings.tasks_per_day, DAY, False),
            Window(settings.tasks_per_day_per_address, DAY, True),
        ),
        Action.UPLOAD_MODEL: (
            Window(settings.uploads_per_day, DAY, False),
            Window(settings.uploads_per_day_per_address, DAY, True),
        ),
        Action.SUBMIT_EXAMPLE: (
            Window(settings.submissions_per_minute, MINUTE, False),
            Window(settings.submissions_per_minute_per_address, MINUTE, True),
        ),
        Action.SEND_MESSAGE: (
            Window(settings.submissions_per_minute, MINUTE, False),
            Window(settings.submissions_per_minute_per_address, MINUTE, True),
        ),
        Action.JOIN_CAMPAIGN: (
            Window(settings.campaign_joins_per_minute, MINUTE, False),
            Window(settings.campaign_joins_per_hour_per_address, HOUR, True),
        ),
        Action.PASSWORD_RESET: (
            Window(settings.password_resets_per_hour, HOUR, False),
            Window(settings.password_resets_per_hour_per_address, HOUR, True),
        ),
        Action.SET_EMAIL: (
            Window(settings.email_changes_per_hour, HOUR, False),
            Window(settings.email_changes_per_hour_per_address, HOUR, True),
        ),
        Action.EXPLAIN: (
            Window(settings.explanations_per_minute, MINUTE, False),
            Window(settings.explanations_per_minute_per_address, MINUTE, True),
        ),
        Action.SUGGEST: (
            Window(settings.suggestions_per_minute, MINUTE, False),
            Window(settings.suggestions_per_minute_per_address, MINUTE, True),
        ),
    }
    return {action: tuple(window for window in limits if window.max > 0) for action, limits in table.items()}


# KEYS: one counter per window; ARGV: the cost, then each window's maximum and length in ms. Returns 0 when
# counted, else the 1-based index of the first full window and its remaining time in ms.
_TAKE = Script("""
local cost = tonumber(ARGV[1])
for i = 1, #KEYS do
  local used = tonumber(redis.call('GET', KEYS[i]) or '0')
  if used + cost > tonumber(ARGV[2 * i]) then
    return {i, redis.call('PTTL', KEYS[i])}
  end
end
for i = 1, #KEYS do
  if redis.call('INCRBY', KEYS[i], cost) == cost then
    redis.call('PEXPIRE', KEYS[i], ARGV[2 * i + 1])
  end
end
return {0, 0}
""")
# Only counters still in their window are lowered (an expired one is gone, and stays gone).
_GIVE_BACK = Script("""
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 and tonumber(redis.call('GET', KEYS[i])) > 0 then
    redis.call('DECRBY', KEYS[i], ARGV[1])
  end
end
return 0
""")


@dataclass(frozen=True)
class Taken:
    """The counters one attempt was added to."""

    keys: tuple[str, ...] = ()
    cost: int = 1

    async def give_back(self, redis: Redis) -> None:
        if not self.keys:
            return
        try:
            await _GIVE_BACK(redis, self.keys, self.cost)
        except (RedisError, OSError):
            log.warning("could not give back a rate-limited attempt (%s)", self.keys[0], exc_info=True)


def counter_key(action: Action, window: Window, account: int | None, address: str | None) -> str | None:
    who = (
        (f"address:{limit_key(address)}" if address else None)
        if window.per_address
        else (f"account:{account}" if account is not None else None)
    )
    return f"{KEY_PREFIX}{action.name.lower()}:{window.seconds}:{who}" if who else None


async def take(
    redis: Redis,
    settings: Settings,
    action: Action,
    *,
    account: int | None = None,
    address: str | None = None,
    cost: int = 1,
    note: str = "",
) -> Taken:
    """Count one attempt at `action` by this account from this address, or refuse it (RATE_LIMITED, with
    the wait) when any of its windows is full."""
    counted = [(window, key) for window in windows(settings, action) if (key := counter_key(action, window, account, address))]
    if not counted:
        return Taken()
    args: list[int] = [cost]
    for window, _ in counted:
        args += [window.max, window.seconds * 1000]
    keys = tuple(key for _, key in counted)
    try:
        full, wait_ms = await _TAKE(redis, keys, *args)
    except (RedisError, OSError):
        log.warning("rate limits unavailable (Redis); %s let through", action.value, exc_info=True)
        return Taken()
    if int(full) == 0:
        return Taken(keys, cost)
    window = counted[int(full) - 1][0]
    wait_s = max(1, (int(wait_ms) + 999) // 1000) if int(wait_ms) > 0 else window.seconds
    whom = _FROM_ONE_ADDRESS if window.per_address else _PER_KEY.get(action, _PER_ACCOUNT)
    raise rate_limited(
        tr(
            "At most {amount} {period} {whom}; try again in {wait}{note}.",
            amount=_amount(action, window.max),
            period=_PERIODS[window.seconds],
            whom=whom,
            wait=wait_text(wait_s),
            note=note,
        ),
        wait_s,
    )


_PERIODS = {MINUTE: tr("per minute"), HOUR: tr("per hour"), DAY: tr("per day")}
_FROM_ONE_ADDRESS, _PER_ACCOUNT = tr("from one address"), tr("per account")
_PER_KEY = {Action.JOIN_CAMPAIGN: tr("per campaign")}  # what the non-address window counts, when not an account


def _amount(action: Action, count: int) -> Text:
    """How many of `action` a window allows: "5 examples", "1 example"."""
    if action == Action.SIGN_UP:
        return trn("{count} sign-up", "{count} sign-ups", count=count)
    if action == Action.CREATE_TASK:
        return trn("{count} new task", "{count} new tasks", count=count)
    if action == Action.UPLOAD_MODEL:
        return trn("{count} upload", "{count} uploads", count=count)
    if action == Action.SUBMIT_EXAMPLE:
        return trn("{count} example", "{count} examples", count=count)
    if action == Action.JOIN_CAMPAIGN:
        return trn("{count} campaign join", "{count} campaign joins", count=count)
    if action == Action.PASSWORD_RESET:
        return trn("{count} password reset request", "{count} password reset requests", count=count)
    if action == Action.SET_EMAIL:
        return trn("{count} email change", "{count} email changes", count=count)
    if action == Action.EXPLAIN:
        return trn("{count} explanation", "{count} explanations", count=count)
    if action == Action.SEND_MESSAGE:
        return trn("{count} message", "{count} messages", count=count)
    if action == Action.SUGGEST:
        return trn("{count} suggestion request", "{count} suggestion requests", count=count)
    raise AssertionError(f"no wording for {action!r}")  # every Action has one (tests/unit/test_server_messages.py)


def wait_text(seconds: int) -> str:
    """A wait as people say it: "40 seconds", "12 minutes", "3 hours" (rounded up)."""
    if seconds < 90:
        return trn("{count} second", "{count} seconds", count=seconds)
    if seconds < 90 * 60:
        return trn("{count} minute", "{count} minutes", count=(seconds + 59) // 60)  # 2 or more
    return trn("{count} hour", "{count} hours", count=(seconds + 3599) // 3600)  # 2 or more
