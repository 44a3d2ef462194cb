"""OpenAI-compatible LLM endpoints as generative targets (issue #30 point 4): an admin registers a server (its address,
model, key kept encrypted, limits and prices); a round names one as its target (`endpoint:<name>`); replies stream
through `streaming.stream_endpoint`, within the endpoint's concurrency and its daily token budgets, and every call's
tokens are counted in `generation_usage`.

`rules.py` and `crypto.py` are pure; `queries.py` is the room's SQL; `service.py` the admin's registry; `usage.py`
budgets and the usage report; `slots.py` the concurrency slots (Redis, shared by every process); `failures.py` what a
caller is told; `targets.py` the check when a round names an endpoint."""
