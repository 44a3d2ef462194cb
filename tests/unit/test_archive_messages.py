"""A refused archive is explained to the researcher in plain sentences: what is wrong and how to fix it, never an
internal code in front (the code travels in the API error's `reason`)."""

import io
import re
import tarfile

import pytest

from server.evaluation.archive import CODES, ArchiveLimits, ArchiveRejected, read_model_repository
from server.evaluation.archive.messages import FIXES, researcher_message

CODE_PREFIX = re.compile(r"^[A-Z_]{3,}:")


def test_every_code_has_a_fix_entry():
    assert set(FIXES) == set(CODES)


@pytest.mark.parametrize("code", CODES)
def test_a_message_is_sentences_without_its_code(code):
    text = researcher_message(ArchiveRejected(code, "the archive holds 2 models (a, b); upload one model per archive"))
    assert not CODE_PREFIX.match(text) and code not in text
    assert text[0].isupper() and text.endswith(".")


def test_the_fix_follows_the_explanation():
    text = researcher_message(
        ArchiveRejected("LAYOUT", "config.pbtxt names label_filename \"l.txt\" but 'm/l.txt' is not in the archive")
    )
    assert text.startswith("config.pbtxt names label_filename") and "my_model/1/" in text


def test_an_explanation_that_says_how_is_not_repeated():
    message = (
        "entry '/etc/x' has an absolute path; archive the model directory with relative paths (e.g. `tar czf m.tar.gz -C p m`)"
    )
    assert researcher_message(ArchiveRejected("ABSOLUTE_PATH", message)) == "E" + message[1:] + "."
    upload = "the uploaded file is empty; upload a .tar.gz / .tgz / .tar / .zip of the model directory"
    assert researcher_message(ArchiveRejected("NOT_AN_ARCHIVE", upload)) == "T" + upload[1:] + "."


def _tar(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def test_a_real_refusal_reads_as_sentences(tmp_path):
    path = tmp_path / "m.tar.gz"
    path.write_bytes(_tar({"m/config.pbtxt": b'name: "m"\nbackend: "python"\n', "m/model.py": b"x = 1\n"}))
    with pytest.raises(ArchiveRejected) as refused:
        read_model_repository(path, ArchiveLimits())
    text = researcher_message(refused.value)
    assert refused.value.code == "LAYOUT" and not CODE_PREFIX.match(text)
    assert text.startswith("Stray file 'm/model.py' next to config.pbtxt") and text.endswith(".")
