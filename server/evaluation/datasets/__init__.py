"""Scoring and other datasets of a task: `service.py` (create, upload rows), `seed/` (the datasets the built-in tasks
ship with), the contamination check (`contamination.py` pure, `contamination_check.py` the job's work,
`contamination_queries.py` its statements, `encoder.py` the task's own sentence embeddings; docs/design.md §4.9)."""
