"""What other domains read of models and datasets: the evaluation domain's published reads (its query room stays its
own). Models come with their card and log decoded."""

from server.evaluation.queries import datasets_of_task, model, published_models, scoring_datasets

__all__ = ["datasets_of_task", "model", "published_models", "scoring_datasets"]
