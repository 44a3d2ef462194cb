"""The notification mutations, one module each: input, success type, result union and a thin resolver."""
