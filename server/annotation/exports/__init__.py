"""Round exports: JSONL in the shape of the public releases, HF-datasets archives, short-lived links."""
