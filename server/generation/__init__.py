"""Generative targets in the loop: conversations with a model whose reply streams to the author token by token.

`params.py` and `prompt.py` are pure (generation parameters, the plain chat format); `triton_stream.py` streams
from a decoupled Triton model (triton_models/README.md, "Generative tasks"); `endpoints/` registers
OpenAI-compatible servers as targets; `conversations/` stores the turns and relays their streams.
"""
