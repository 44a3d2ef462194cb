"""Lua scripts run by their SHA1 (EVALSHA): the text crosses the wire and is hashed by Redis only the first time on a
server (and again after a restart or SCRIPT FLUSH, when EVALSHA answers NOSCRIPT). Hot paths (every createExample
takes its rate-limit counters with a script) then send a few bytes instead of the script."""

from __future__ import annotations

import hashlib
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import NoScriptError


class Script:
    __slots__ = ("sha", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.sha = hashlib.sha1(text.encode()).hexdigest()

    async def __call__(self, redis: Redis, keys: tuple[str, ...] | list[str], *args: Any) -> Any:
        try:
            return await redis.evalsha(self.sha, len(keys), *keys, *args)  # type: ignore[misc]
        except NoScriptError:
            return await redis.eval(self.text, len(keys), *keys, *args)  # type: ignore[misc]
