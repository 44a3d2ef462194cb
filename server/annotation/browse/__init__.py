"""Owners look through what a round collected: search and filters, one example's votes and history, bulk actions."""
