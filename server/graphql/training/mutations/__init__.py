"""The retraining mutations, one module each: success type, result union and a thin resolver."""
