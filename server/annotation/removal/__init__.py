"""A deleted account's work removed from the tasks whose config says so (docs/design.md §11), every counter and
outcome it touched recomputed from the rows left."""
