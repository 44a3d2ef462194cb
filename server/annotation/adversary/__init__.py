"""Unattended adversary runs: a task's generator writes examples against a round's target (docs/design.md §4.1f)."""
