"""Side-by-side battles of generative models (issue #31): the pure rating core (Bradley–Terry with bootstrap intervals)."""
