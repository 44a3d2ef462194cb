"""What other domains read of accounts: the accounts domain's published reads (its query room stays its own). Users
come without their password hash."""

from server.accounts.queries import user_id_by_username, users_by_id

__all__ = ["user_id_by_username", "users_by_id"]
