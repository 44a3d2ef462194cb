"""Notifications: each user's inbox, what produces its entries, and the optional email copies (docs/design.md §9)."""
