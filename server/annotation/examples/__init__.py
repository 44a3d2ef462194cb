"""Writing examples: creating them (with the model in the loop), re-judging pending ones, the author's own changes."""
