"""A full disk, said plainly: writes of files (uploads, export archives) that meet ENOSPC (or a quota, or a file-size
limit) become one expected error instead of a masked crash, and leave nothing half-written behind (the callers remove
their partial files). The database is elsewhere: examples and votes are not affected."""

from __future__ import annotations

import errno

from server.core.errors import ServiceError
from server.core.i18n import Text, tr

DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def is_disk_full(exc: BaseException) -> bool:
    return isinstance(exc, OSError) and exc.errno in DISK_FULL_ERRNOS


def disk_full(what: Text) -> ServiceError:
    return ServiceError(
        "SERVICE_UNAVAILABLE",
        tr("The server's disk is full: {what} was not stored. Nothing else was lost; try again later.", what=what),
    )
