"""The plain chat format the built-in generative model is trained on and Triton targets receive
(triton_models/README.md): optional system text and a blank line, then `User: …` / `Assistant: …` lines,
ending with `Assistant:` for the reply to write. Pure."""

from __future__ import annotations

from collections.abc import Sequence

from server.generation.params import ChatMessage

DEFAULT_STOP = "\nUser:"
_SPEAKER = {"user": "User", "assistant": "Assistant"}


def render_plain(messages: Sequence[ChatMessage]) -> str:
    """The prompt for the next assistant reply. A line break inside a message is kept; a line that would
    start a new turn (`User:`/`Assistant:`) is indented, so an author cannot write the model's side."""
    system = "\n\n".join(m.content for m in messages if m.role == "system")
    lines = [f"{_SPEAKER[m.role]}: {_guarded(m.content)}" for m in messages if m.role != "system"]
    body = "\n".join([*lines, "Assistant:"])
    return f"{system}\n\n{body}" if system else body


def _guarded(text: str) -> str:
    out = []
    for line in text.strip().split("\n"):
        if line.lstrip().startswith(("User:", "Assistant:")):
            line = " " + line.lstrip()
        out.append(line)
    return "\n".join(out)
