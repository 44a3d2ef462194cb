"""What other domains read of training runs: the training domain's published reads (its query room stays its own)."""

from server.training.queries import runs_of_task

__all__ = ["runs_of_task"]
