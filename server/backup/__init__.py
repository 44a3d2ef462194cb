"""Backups: one archive holding a consistent snapshot of the database, every stored file, and a manifest."""
