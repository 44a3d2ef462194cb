"""Researchers' models and how they are ranked, in rooms: `models/` (a model's life: upload, deploy, evaluate, status,
take-down, residency), `datasets/` (datasets, their seeds and the contamination check), `metrics/` (what a model is
scored on, pure), `leaderboard/` (ranking by Dynascore), `archive/` (reading an uploaded archive without extracting
it). The domain-wide parts stay here: `tables.py`, `records.py`, `queries.py` (the query room), `reads.py` (what
other domains may read), `jobs.py` / `job_functions.py`, `domain_events.py` / `listeners.py`."""
