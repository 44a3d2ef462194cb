"""A model's status log as its owner reads it: no internal Triton name, no temporary or server paths."""

from server.evaluation.models.log_text import scrub

CRASH = (
    "Triton refused to load the model: load failed for model 'submission_12_ab12cd34': version 1 is at UNAVAILABLE "
    "state: Internal: RuntimeError: weights missing on purpose\n\nAt:\n  /tmp/folderh5IFGa/1/model.py(90): initialize\n"
    "  /usr/local/lib/python3.11/site-packages/torch/nn/modules/module.py(1501): _call_impl\n"
    "  /opt/tritonserver/backends/python/triton_python_backend_utils.py(12): get\n"
)


def test_a_crash_log_names_your_model_and_the_files_inside_the_archive():
    text = scrub(CRASH, "submission_12_ab12cd34")
    assert "submission_" not in text and "/tmp" not in text and "folderh5IFGa" not in text and "/opt" not in text
    assert "load failed for your model: version 1" in text
    assert "  1/model.py(90): initialize" in text
    assert "  torch/nn/modules/module.py(1501): _call_impl" in text  # a library's own path stays useful
    assert "  triton_python_backend_utils.py(12): get" in text
    assert "weights missing on purpose" in text


def test_without_the_name_given_submission_names_and_instances_are_still_scrubbed():
    assert scrub("model submission_7_ab12cd34 did not answer within 30 s") == "your model did not answer within 30 s"
    assert scrub("load failed for model 'submission_2': x") == "load failed for your model: x"
    assert scrub("stub submission_7_ab12cd34_0_1 exited") == "stub your model exited"


def test_the_stored_archive_and_internal_addresses_are_not_shown():
    text = scrub("The stored archive could not be read: No such file: '/var/lib/dynabench/models/model-12.archive'")
    assert text == "The stored archive could not be read: No such file: 'your archive'"
    assert scrub("your model: Cannot connect to host 127.0.0.1:8101 ssl:default") == (
        "your model: Cannot connect to host the server ssl:default"
    )


def test_a_retraining_staging_file_is_not_named():
    text = scrub("could not be prepared: [Errno 28] No space left on device: '.upload-retrain-5-1764403200.123456'")
    assert text == "could not be prepared: [Errno 28] No space left on device: 'your archive'"


def test_characters_a_log_cannot_store_are_replaced_and_lines_kept():
    # A train.py or a model that prints NUL, terminal escapes or a lone surrogate: the reason must still be stored.
    text = scrub("step 1\n\x00\x1b[31mboom\x1b[0m\tdone\r\n\ud800end")
    assert text == "step 1\n\ufffd\ufffd[31mboom\ufffd[0m\tdone\ufffd\n\ufffdend"
    assert scrub(text) == text


def test_plain_messages_urls_and_relative_paths_are_kept():
    for message in (
        "Smoke test passed on 4 examples.",
        "Loading the model into the sandboxed submissions Triton.",
        "see https://example.org/docs/a.html; put the files in my_model/1/ (e.g. my_model/1/model.py) and/or retry",
        "example 0: label 'x' is not one of ['negative', 'positive']",
    ):
        assert scrub(message) == message


def test_scrubbing_is_idempotent():
    once = scrub(CRASH)
    assert scrub(once) == once


def test_the_end_of_a_models_output_leaves_out_tritons_lifecycle_lines():
    from server.evaluation.models.log_text import model_output

    tail = (
        "FLOODxxxx\nLAST-WORDS: the flood is over\n"
        "I1128 07:40:50.000001 1499 model_lifecycle.cc:839] \"successfully loaded 'your model'\"\n"
        "Signal (15) received.\n"
        'I1128 07:40:55.124860 1499 server.cc:305] "Waiting for in-flight requests to complete."\n'
        'E1128 07:40:55.2 1499 model.py:12] "an error the model caused"\n'
        "Traceback (most recent call last):\n"
    )
    assert model_output(tail) == (
        "FLOODxxxx\nLAST-WORDS: the flood is over\n"
        'E1128 07:40:55.2 1499 model.py:12] "an error the model caused"\nTraceback (most recent call last):'
    )
    assert model_output("") == ""
