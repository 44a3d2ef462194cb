"""The sandbox agent (run as a folder inside the sandbox: __main__.py says what it does)."""
