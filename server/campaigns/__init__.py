"""Crowd campaigns (issue #17): campaigns of a task's round, the join flow of pseudonymous workers, quotas at the write
and the payments ledger. The pure rules are in server/crowd/; this domain stores and serves them (docs/design.md §8)."""
