"""Observability: Prometheus metrics (API `/metrics`, worker metrics server) and structured logs with request ids.

`logs` (formatters, redaction, request-id contextvar), `metrics` (metric definitions), `graphql`
(the Strawberry extension), `http` (ASGI wrapper and the /metrics route), `jobs` (arq hooks).
See docs/deploy.md, "Metrics and logs".
"""
