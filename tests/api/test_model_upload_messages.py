"""Issue #19: a refused archive is explained in plain sentences (what is wrong, how to fix it); the refusal's stable
code travels in `reason`, never in front of the message (it read "LAYOUT: ..." / "CONTRACT: ...")."""

import io
import re
import zipfile

from tests.api.models_helpers import upload_model
from tests.conftest import MODEL_CACHE, run_sql, seed_builtin_tasks

CODE_PREFIX = re.compile(r"^[A-Z_]{3,}:")


def _zip(entries: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def test_refusals_are_sentences_with_the_code_apart(api):
    seed_builtin_tasks()
    researcher = api.sign_up("researcher")
    config = (MODEL_CACHE / "sentiment_minilm" / "config.pbtxt").read_text()
    cases = {
        # (archive, reason, the offending entry or None, words of the fix)
        "layout": (
            _zip({"sentiment_minilm/config.pbtxt": config, "sentiment_minilm/model.py": "x"}),
            "LAYOUT",
            "sentiment_minilm/model.py",
            "move it into a version folder",
        ),
        "contract": (
            _zip(
                {
                    "sentiment_minilm/config.pbtxt": config.replace('name: "statement"', 'name: "text"'),
                    "sentiment_minilm/1/model.py": "x",
                }
            ),
            "CONTRACT",
            None,
            "so its inputs and outputs match",
        ),
        "not an archive": (b"hello, this is plain text", "NOT_AN_ARCHIVE", None, "upload a .tar.gz"),
        "no config": (_zip({"m/1/model.py": "x"}), "NO_CONFIG", None, "The expected layout is my_model/config.pbtxt"),
    }
    for label, (archive, reason, entry, fix) in cases.items():
        result = upload_model(api, researcher, "sentiment", label, archive, filename="m.zip")
        assert result["__typename"] == "ArchiveRejectedError", (label, result)
        assert result["code"] == "ARCHIVE_REJECTED" and result["reason"] == reason, (label, result)
        assert result["entry"] == entry, (label, result)
        message = result["message"]
        assert not CODE_PREFIX.match(message) and reason not in message, (label, message)
        assert message[0].isupper() and message.endswith("."), (label, message)
        assert fix in message, (label, message)
    assert run_sql("SELECT count(*) AS n FROM models")[0]["n"] == 0


BROKEN_MODEL = """
class TritonPythonModel:
    def initialize(self, args):
        raise RuntimeError("weights missing on purpose")
"""


def test_a_crash_log_names_the_file_in_the_archive_not_the_server_internals(stack, api, target_models):
    """Triton's load error quotes the model's internal name and the temporary folder its files were written to; the
    owner reads "your model" and the file's path inside the model folder."""
    from tests.api.examples_helpers import wait_until
    from tests.api.models_helpers import model_status

    seed_builtin_tasks()
    researcher = api.sign_up("researcher")
    template = (MODEL_CACHE / target_models["sentiment"] / "config.pbtxt").read_text()
    config = template.replace('name: "sentiment_minilm"', 'name: "broken"')
    archive = _zip({"broken/config.pbtxt": config, "broken/1/model.py": BROKEN_MODEL})
    result = upload_model(api, researcher, "sentiment", "broken", archive, filename="broken.zip")
    assert result["__typename"] == "ModelUploaded", result
    model_id = result["model"]["id"]

    def failed():
        model = model_status(api, researcher, model_id)
        return model if model["status"] == "failed" else None

    log = wait_until(failed, timeout=300)["statusLog"]
    [triton_name] = [row["triton_name"] for row in run_sql("SELECT triton_name FROM models")]
    message = log[-1]["message"]
    assert message.startswith("Triton refused to load the model") and "weights missing on purpose" in message, message
    assert triton_name not in message and "submission_" not in message, message
    assert "/tmp/" not in message and not re.search(r"folder[A-Za-z0-9]{6}", message), message
    assert "your model" in message and "1/model.py(" in message, message
    # Stored scrubbed: the owner's notification quotes the same text.
    stored = run_sql("SELECT status_log FROM models")[0]["status_log"]
    assert "submission_" not in str(stored) and "/tmp/" not in str(stored)
