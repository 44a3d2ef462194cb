"""The leaderboard: `service.py` (dataset-weighted metrics per model, saved configurations) and `dynascore.py` (the
pure Dynascore, docs/design.md §4.4)."""
