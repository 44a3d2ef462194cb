"""Side-by-side battles of generative targets (docs/design.md §4.1d): start, blind vote, reveal, leaderboard."""
