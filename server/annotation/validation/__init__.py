"""Validation: handing examples to validators, votes, and outcomes and counters recomputed from votes."""
