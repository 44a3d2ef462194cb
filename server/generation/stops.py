"""Stop strings enforced on our side, whatever the target does with them: some OpenAI-compatible servers (e.g.
`transformers serve`) end a reply at a stop string but keep it in the text, others ignore the parameter. Pure, no I/O.

Text that could be the beginning of a stop string is held back until the next piece shows whether it is one, so a
stop string is never shown, not even in part, and the reply ends where the first one starts. As vLLM's `min_tokens`,
a reply asked for at least N tokens is not stopped before its Nth piece (the contract streams a token per piece)."""

from __future__ import annotations

from collections.abc import Iterable


class StopCutter:
    def __init__(self, stops: Iterable[str], min_pieces: int = 0) -> None:
        self._stops = tuple(s for s in stops if s)
        self._held = ""
        self._unchecked = min_pieces  # pieces still to pass before a stop string may end the reply
        self.stopped = False

    def feed(self, text: str) -> str:
        """The part of the text seen so far that may be shown now."""
        if self.stopped:
            return ""
        if self._unchecked > 0:
            self._unchecked -= 1
            return text
        text = self._held + text
        cuts = [i for i in (text.find(stop) for stop in self._stops) if i >= 0]
        if cuts:
            self.stopped, self._held = True, ""
            return text[: min(cuts)]
        keep = self._partial_stop_length(text)
        self._held = text[len(text) - keep :] if keep else ""
        return text[: len(text) - keep]

    def flush(self) -> str:
        """At the end of the reply: what was held back was not a stop string after all."""
        held, self._held = self._held, ""
        return "" if self.stopped else held

    def _partial_stop_length(self, text: str) -> int:
        """The length of the longest end of `text` that begins a stop string (without being one)."""
        longest = 0
        for stop in self._stops:
            for length in range(min(len(stop) - 1, len(text)), longest, -1):
                if text.endswith(stop[:length]):
                    longest = length
                    break
        return longest
