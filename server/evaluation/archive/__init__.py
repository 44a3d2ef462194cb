"""Uploaded Triton model archives: safe inspection, reading and the per-task I/O contract check.

Researchers upload one Triton model (a model directory: ``config.pbtxt`` + numbered version
folders) as a .tar.gz / .tgz / .tar or .zip file. Everything here treats the upload as hostile:

* the format is detected from the content (magic bytes), never from the file name;
* entries are validated *before* any of their data is read: absolute paths, ``..`` components,
  backslashes, NUL/control characters, links, devices/fifos, too long or too deep paths,
  duplicates, too many entries (counted while iterating; a zip's entry count is read from its
  end-of-central-directory record before the directory itself is parsed);
* sizes are checked twice: the declared sizes (tar headers, zip central directory) against
  ``max_file_bytes``/``max_total_bytes`` and against ``max_compression_ratio`` x the archive's
  size on disk, and the bytes actually produced while streaming decompression against the same
  hard caps. Memory stays bounded: data is read in 1 MiB chunks, only the kept files (at most
  ``max_total_bytes``; peak about that plus the largest file, which is copied once into ``bytes``)
  are held, and tar metadata records are size-capped;
* tar is parsed here (a small ustar/GNU/pax reader), not with :mod:`tarfile`, so that every read
  is bounded and pax records are parsed linearly (CPython 3.11.7's pax regex backtracks
  quadratically); zip uses :mod:`zipfile` after the pre-checks, and only stored/deflate entries
  (bzip2/lzma decompression in :mod:`zipfile` is not output-bounded).

Nothing is extracted to disk: :func:`read_model_repository` returns the files as bytes (the deploy
job sends them to Triton's load API as ``files={"file:1/model.py": bytes}``);
:func:`write_model_repository` can write a checked repository into a directory.

:func:`check_config_limits` refuses a config that asks for more than submitted models may use (GPUs,
instances, batch size, parameters, repository agents, the response cache).

Every refusal is an :class:`ArchiveRejected` with a stable ``code`` and a message a researcher can
act on, naming the offending entry.
"""

from server.evaluation.archive.config_limits import ConfigLimits, check_config_limits
from server.evaluation.archive.contract import check_contract

# The stable refusal codes and the bytes allowed after a tar's end marker (tests read both).
from server.evaluation.archive.limits import CODES as CODES
from server.evaluation.archive.limits import TAR_TRAILING_MAX as TAR_TRAILING_MAX
from server.evaluation.archive.limits import ArchiveLimits, ArchiveRejected, Member
from server.evaluation.archive.repository import ModelRepository, read_model_repository
from server.evaluation.archive.scan import inspect_archive
from server.evaluation.archive.write import write_model_repository

__all__ = [
    "ArchiveLimits",
    "ArchiveRejected",
    "ConfigLimits",
    "Member",
    "ModelRepository",
    "check_config_limits",
    "check_contract",
    "inspect_archive",
    "read_model_repository",
    "write_model_repository",
]
