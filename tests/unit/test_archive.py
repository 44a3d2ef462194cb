"""Uploaded model archives (server/evaluation/archive/): good archives, read in every format and layout.

Every archive is built at runtime in tmp_path with the builders in tests/unit/archive_builders.py.
"""

from __future__ import annotations

import json
import stat
import tarfile

import pytest

from server.evaluation.archive import (
    ModelRepository,
    check_contract,
    inspect_archive,
    read_model_repository,
    write_model_repository,
)
from server.modelbuild.repository import model_py_template
from server.modelbuild.tasks import get_task
from server.tasks.builtin import BUILTIN_TASKS
from tests.unit.archive_builders import (
    LIMITS,
    MODEL_PY,
    ROOT,
    SENTIMENT_LABELS,
    classification_config,
    model_entries,
    rejected,
    write_tar,
    write_zip,
)


def assert_good(repo: ModelRepository, name: str = "my_model") -> None:
    assert repo.name == name
    assert repo.backend == "python"
    assert repo.versions == [1]
    assert repo.files == {"1/model.py": MODEL_PY, "1/weights/head.json": model_entries()["my_model/1/weights/head.json"]}
    assert repo.config["name"] == name
    assert repo.config["max_batch_size"] == 8
    assert repo.config["output"][1]["data_type"] == "TYPE_FP32"
    assert repo.config_text.startswith(f'name: "{name}"')
    assert repo.triton_files() == {"file:1/model.py": MODEL_PY, "file:1/weights/head.json": repo.files["1/weights/head.json"]}
    assert json.loads(repo.triton_config_json())["name"] == name


@pytest.mark.parametrize("nested", [True, False], ids=["nested", "top-level"])
@pytest.mark.parametrize("kind", ["tar.gz", "tar", "zip"])
def test_good_archives_both_layouts(tmp_path, kind, nested):
    entries = model_entries(nested=nested)
    path = tmp_path / f"upload.{kind}"
    if kind == "zip":
        write_zip(path, entries)
    else:
        write_tar(path, entries, compression="gz" if kind == "tar.gz" else "")
    repo = read_model_repository(path, LIMITS)
    assert_good(repo)
    check_contract(repo, "classification", ["statement"], SENTIMENT_LABELS)


@pytest.mark.parametrize("fmt", [tarfile.USTAR_FORMAT, tarfile.GNU_FORMAT, tarfile.PAX_FORMAT], ids=["ustar", "gnu", "pax"])
def test_long_names_in_every_tar_format(tmp_path, fmt):
    """Names over 100 characters use the ustar prefix, a GNU long-name record or a pax record."""
    entries = model_entries()
    deep = "my_model/1/" + "/".join(["d" * 20] * 6) + "/vocab.txt"  # 143 characters, 9 levels
    entries[deep] = b"vocab"
    repo = read_model_repository(write_tar(tmp_path / "m.tgz", entries, fmt=fmt), LIMITS)
    assert repo.files[deep.removeprefix("my_model/")] == b"vocab"


def test_format_is_detected_by_content_not_name(tmp_path):
    zip_named_tgz = write_zip(tmp_path / "model.tar.gz", model_entries())
    tgz_named_zip = write_tar(tmp_path / "model.zip", model_entries())
    no_extension = write_tar(tmp_path / "upload", model_entries(), compression="")
    for path in (zip_named_tgz, tgz_named_zip, no_extension):
        assert_good(read_model_repository(path, LIMITS))


def test_os_junk_and_dot_prefix_are_dropped(tmp_path):
    entries = {"./": None, **{f"./{k}": v for k, v in model_entries().items()}}
    entries["./.DS_Store"] = b"\x00\x00\x00\x01Bud1"
    entries["./my_model/._config.pbtxt"] = b"\x00\x05\x16\x07"
    entries["./my_model/1/.DS_Store"] = b"junk"
    tar_path = write_tar(tmp_path / "mac.tgz", entries)
    assert_good(read_model_repository(tar_path, LIMITS))

    zip_entries = dict(model_entries())
    zip_entries["__MACOSX/"] = None
    zip_entries["__MACOSX/my_model/._config.pbtxt"] = b"\x00\x05\x16\x07"
    zip_entries["my_model/.DS_Store"] = b"junk"
    zip_path = write_zip(tmp_path / "mac.zip", zip_entries)
    assert_good(read_model_repository(zip_path, LIMITS))

    members = inspect_archive(zip_path, LIMITS)
    assert {m.path for m in members if m.ignored} == {"__MACOSX", "__MACOSX/my_model/._config.pbtxt", "my_model/.DS_Store"}
    config = next(m for m in members if m.path == "my_model/config.pbtxt")
    assert not config.is_dir and not config.ignored and config.size > 0


def test_inspect_lists_entries_without_the_root(tmp_path):
    entries = {"./": None, **{f"./{k}": v for k, v in model_entries().items()}}
    members = inspect_archive(write_tar(tmp_path / "m.tgz", entries), LIMITS)
    assert [m.path for m in members] == [
        "my_model",
        "my_model/config.pbtxt",
        "my_model/1",
        "my_model/1/model.py",
        "my_model/1/weights/head.json",
    ]
    assert members[3].size == len(MODEL_PY) and members[3].raw_name == "./my_model/1/model.py"


@pytest.mark.parametrize("spec", BUILTIN_TASKS, ids=lambda s: s["code"])
def test_builtin_templates_pass_their_own_contract(tmp_path, spec):
    """The shipped templates (triton_models/) are valid uploads for their tasks."""
    name = spec["target"]
    entries = {f"{name}/config.pbtxt": (ROOT / "triton_models" / name / "config.pbtxt").read_bytes()}
    entries[f"{name}/1/model.py"] = model_py_template(get_task(spec["code"])).read_bytes()
    repo = read_model_repository(write_tar(tmp_path / "m.tgz", entries), LIMITS)
    config = spec["config"]
    check_contract(repo, config["kind"], config["model_inputs"], config.get("labels"))


def test_label_file_next_to_config_and_several_versions(tmp_path):
    config = classification_config().replace(
        'name: "probs" data_type: TYPE_FP32 dims: [ 3 ] }',
        'name: "probs" data_type: TYPE_FP32 dims: [ 3 ] label_filename: "labels.txt" }',
    )
    entries = model_entries(config=config)
    entries["my_model/labels.txt"] = b"negative\npositive\nneutral\n"
    entries["my_model/2/model.py"] = MODEL_PY
    repo = read_model_repository(write_zip(tmp_path / "m.zip", entries), LIMITS)
    assert repo.versions == [1, 2]
    assert repo.files["labels.txt"].startswith(b"negative")

    del entries["my_model/labels.txt"]
    error = rejected(write_zip(tmp_path / "n.zip", entries), "LAYOUT")
    assert "labels.txt" in error.message


def test_write_model_repository(tmp_path):
    repo = read_model_repository(write_tar(tmp_path / "m.tgz", model_entries()), LIMITS)
    destination = tmp_path / "repository"
    target = write_model_repository(repo, destination)
    assert target == destination / "my_model"
    assert (target / "config.pbtxt").read_text() == repo.config_text
    assert (target / "1" / "model.py").read_bytes() == MODEL_PY
    assert stat.S_IMODE((target / "1" / "model.py").stat().st_mode) == 0o644
    assert stat.S_IMODE((target / "1").stat().st_mode) == 0o755
    assert sorted(p.name for p in destination.iterdir()) == ["my_model"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".my_model")]  # staging removed
    with pytest.raises(FileExistsError):
        write_model_repository(repo, destination)
