"""Uploaded model archives: the model directory's layout and its config.pbtxt (name, backend, versions, model.py).

Every archive is built at runtime in tmp_path with the builders in tests/unit/archive_builders.py.
"""

from __future__ import annotations

import pytest

from server.evaluation.archive import read_model_repository
from tests.unit.archive_builders import LIMITS, MODEL_PY, classification_config, model_entries, rejected, write_tar, write_zip


def test_no_config(tmp_path):
    entries = model_entries()
    del entries["my_model/config.pbtxt"]
    rejected(write_zip(tmp_path / "m.zip", entries), "NO_CONFIG")
    deeper = {f"models/{k}": v for k, v in model_entries().items()}
    error = rejected(write_tar(tmp_path / "deep.tgz", deeper), "NO_CONFIG")
    assert "models/my_model/config.pbtxt" in error.message
    rejected(write_zip(tmp_path / "junk-only.zip", {"__MACOSX/.DS_Store": b"x"}), "NO_CONFIG")


def test_unparsable_config_reports_line_and_column(tmp_path):
    config = classification_config() + "instance_group [ { count: 1 kind: KIND_GPUU } ]\n"
    error = rejected(write_tar(tmp_path / "m.tgz", model_entries(config=config)), "BAD_CONFIG")
    line = config.count("\n")
    assert f"line {line}, column" in error.message and "KIND_GPUU" in error.message
    error = rejected(write_tar(tmp_path / "n.tgz", model_entries(config="name: my_model\n")), "BAD_CONFIG")
    assert "line 1" in error.message
    latin1 = model_entries()
    latin1["my_model/config.pbtxt"] = classification_config().encode() + b"# caf\xe9\n"
    assert "UTF-8" in rejected(write_tar(tmp_path / "o.tgz", latin1), "BAD_CONFIG").message


def test_config_name_rules(tmp_path):
    mismatch = model_entries(config=classification_config(name="other_name"))
    error = rejected(write_tar(tmp_path / "a.tgz", mismatch), "BAD_CONFIG")
    assert "other_name" in error.message and "my_model" in error.message

    unnamed_nested = model_entries(config=classification_config(name=None))
    assert read_model_repository(write_tar(tmp_path / "b.tgz", unnamed_nested), LIMITS).config["name"] == "my_model"

    unnamed_top = model_entries(config=classification_config(name=None), nested=False)
    assert "name" in rejected(write_tar(tmp_path / "c.tgz", unnamed_top), "BAD_CONFIG").message

    bad_folder = {k.replace("my_model", "my model"): v for k, v in model_entries(config=classification_config(name=None)).items()}
    rejected(write_tar(tmp_path / "d.tgz", bad_folder), "LAYOUT")


@pytest.mark.parametrize(
    ("backend", "asked"),
    [
        ('platform: "onnxruntime_onnx"', "onnxruntime"),
        ('backend: "onnxruntime"', "onnxruntime"),
        ('platform: "tensorrt_plan"', "tensorrt"),
        ('platform: "ensemble"', "ensemble"),
    ],
)
def test_wrong_backend(tmp_path, backend, asked):
    entries = model_entries(config=classification_config(backend=backend))
    path = write_tar(tmp_path / "m.tgz", entries)
    error = rejected(path, "BACKEND")
    assert "runs only the python backend" in error.message and asked in error.message
    if asked == "onnxruntime":
        del entries["my_model/1/model.py"]
        entries["my_model/1/model.onnx"] = b"onnx"
        repo = read_model_repository(write_tar(tmp_path / "n.tgz", entries), LIMITS, supported_backends={"python", "onnxruntime"})
        assert repo.backend == "onnxruntime"


def test_no_backend(tmp_path):
    entries = model_entries(config=classification_config(backend=""))
    assert 'backend: "python"' in rejected(write_tar(tmp_path / "m.tgz", entries), "BACKEND").message


def test_two_models_in_one_archive(tmp_path):
    entries = {**model_entries("first"), **model_entries("second", config=classification_config("second"))}
    error = rejected(write_zip(tmp_path / "two.zip", entries), "LAYOUT")
    assert "2 models" in error.message and "first" in error.message and "second" in error.message
    top_and_nested = {**model_entries(nested=False), **model_entries("second", config=classification_config("second"))}
    error = rejected(write_tar(tmp_path / "two.tgz", top_and_nested), "LAYOUT")
    assert "second/" in error.message and "one model per archive" in error.message


def test_stray_entries(tmp_path):
    top_level_folder = {**model_entries(), "notes/readme.txt": b"hi"}
    error = rejected(write_tar(tmp_path / "a.tgz", top_level_folder), "LAYOUT")
    assert "'notes/'" in error.message

    top_level_file = {**model_entries(), "README.md": b"hi"}
    assert "'README.md'" in rejected(write_zip(tmp_path / "b.zip", top_level_file), "LAYOUT").message

    folder_in_model = {**model_entries(), "my_model/weights/encoder.bin": b"w"}
    error = rejected(write_tar(tmp_path / "c.tgz", folder_in_model), "LAYOUT")
    assert "'my_model/weights/'" in error.message and "1/weights/" in error.message

    file_next_to_config = {**model_entries(nested=False), "README.md": b"hi"}
    assert "README.md" in rejected(write_tar(tmp_path / "d.tgz", file_next_to_config), "LAYOUT").message


@pytest.mark.parametrize("version", ["0", "01", "v1", "latest"])
def test_bad_version_folders(tmp_path, version):
    entries = {k.replace("/1/", f"/{version}/"): v for k, v in model_entries().items()}
    error = rejected(write_tar(tmp_path / "m.tgz", entries), "LAYOUT")
    assert f"my_model/{version}/" in error.message


def test_no_version_folder(tmp_path):
    entries = {"my_model/config.pbtxt": classification_config().encode()}
    assert "my_model/1/" in rejected(write_tar(tmp_path / "m.tgz", entries), "LAYOUT").message


def test_missing_model_py(tmp_path):
    entries = model_entries()
    del entries["my_model/1/model.py"]
    entries["my_model/1/model_py.txt"] = MODEL_PY
    error = rejected(write_tar(tmp_path / "m.tgz", entries), "LAYOUT")
    assert "'my_model/1/' has no model.py" in error.message

    second = model_entries()
    second["my_model/2/weights.bin"] = b"w"
    assert "'my_model/2/'" in rejected(write_zip(tmp_path / "n.zip", second), "LAYOUT").message

    renamed = model_entries(config=classification_config() + 'default_model_filename: "serve.py"\n')
    assert "serve.py" in rejected(write_tar(tmp_path / "o.tgz", renamed), "LAYOUT").message


def test_the_layout_alone_keeps_no_file_but_the_config_and_checks_the_same(tmp_path):
    # The retraining check in the API (server/training/submissions.py): the stored archive's names, not its gigabytes.
    entries = {**model_entries(), "my_model/2/model.py": MODEL_PY, "my_model/2/train.py": b"print('recipe')\n"}
    path = write_tar(tmp_path / "m.tar.gz", entries)
    whole = read_model_repository(path, LIMITS)
    names = read_model_repository(path, LIMITS, contents=False)
    assert names.files.keys() == whole.files.keys() and "2/train.py" in names.files
    assert set(names.files.values()) == {b""} and whole.files["2/train.py"] == b"print('recipe')\n"
    assert (names.name, names.config, names.versions) == (whole.name, whole.config, whole.versions)
    bad = write_tar(tmp_path / "bad.tar.gz", {**model_entries(), "my_model/stray.txt": b"x"})
    assert rejected(bad, "LAYOUT", contents=False).code == "LAYOUT"
