"""Retraining a task's target model from validated examples, and opening the next round with it."""
