"""Suggestions for the adversary ("inspire me", docs/design.md §4.1e): candidate examples from a generator and, for
classifier tasks, a perturbation search on the author's draft; issued suggestions are kept so an example's assistance
cannot be forged."""
