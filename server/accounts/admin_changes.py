"""The account changes only an admin makes: roles, disabling, ending sessions. server/admin/service.py runs each in
the transaction that writes its audit row (and decides, with permissions.administer, who may)."""

from server.accounts.queries import lock_admins, raise_session_epoch, set_admin, set_disabled

__all__ = ["lock_admins", "raise_session_epoch", "set_admin", "set_disabled"]
