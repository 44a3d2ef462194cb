"""One file per campaign mutation."""
