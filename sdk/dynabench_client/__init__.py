"""Python client for the Dynabench GraphQL API."""
