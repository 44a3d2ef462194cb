"""Domain events: an outcome recorded with the change that decided it, announced after commit to the listeners each
domain registers (server/domain_events/dispatcher.py)."""
