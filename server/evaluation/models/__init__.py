"""A researcher's model, from upload to ranking: `service.py` (uploads, the owner's list), `deploy.py` (load into the
sandboxed submissions Triton, smoke test), `evaluate.py` (score on every scoring dataset), `pipeline.py` (which step
comes next), `status.py` (the status log, announced as ModelStatusChanged), `takedown.py` (an admin's take-down),
`residency.py` (which submissions stay loaded), `sandbox_agent.py` (what the worker asks the sandbox agent),
`log_text.py` (the log as the owner reads it)."""
