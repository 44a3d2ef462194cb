"""Conversations with a generative target (docs/design.md §4.11): sending a message starts a reply that streams to
its author (relay.py) while it is generated (replies.py); a submitted conversation becomes an example."""
