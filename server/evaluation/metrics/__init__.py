"""What a model is scored on (pure): `measures.py` (performance, throughput, memory, robustness and fairness as
consistency, docs/design.md §4.5–4.7) and `perturbations/` (the deterministic perturbed copies they read)."""
