"""One module per mutation of writing and validating examples: its input, success type, result union and resolver."""
