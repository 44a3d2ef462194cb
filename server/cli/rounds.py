"""`dynabench export` (a round to JSONL or an HF-datasets directory, read from the database), `dynabench contexts add`
(contexts from JSONL/CSV into a round, in batches through the API, with a progress bar) and `dynabench train`; the
last two talk to the API through the Python client (`dynabench_client`, sdk/)."""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dynabench_client import Client

CONTEXT_BATCH = 100  # per addContexts call (the client's batch cap)


def configure_export(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--task", required=True, help="task code")
    parser.add_argument("--round", type=int, default=None, help="round number (default: the task's current round)")
    parser.add_argument("--format", choices=["jsonl", "hf_dataset", "preferences"], default="jsonl")
    parser.add_argument("--output", type=Path, required=True, help="a .jsonl file, or a directory for hf_dataset")


def run_export(args: argparse.Namespace) -> int:
    """Reads the database directly (DATABASE_URL, JWT_SECRET: the deployment's own export key)."""
    from tqdm import tqdm

    from server.annotation.exports import service as export_service
    from server.core.errors import ServiceError

    async def go() -> int:
        from server.core import db
        from server.tasks import reads as task_reads
        from server.tasks.service import get_task_by_code

        await db.wait_for_database()
        task = await get_task_by_code(args.task)
        number = args.round or task["current_round"]
        round_row = await task_reads.round_by_number(task["id"], number)
        if round_row is None:
            raise ServiceError("NOT_FOUND", f"Task '{args.task}' has no round {number}.")
        key = export_service.anonymisation_key(os.environ["JWT_SECRET"])
        with tqdm(unit=" examples", desc=f"{args.task} round {number}") as bar:
            return await export_service.write_export(round_row["id"], args.format, args.output, key, progress=bar.update)

    if args.format == "hf_dataset" and args.output.exists() and any(args.output.iterdir()):
        print(f"error: {args.output} exists and is not empty", file=sys.stderr)
        return 2
    try:
        rows = asyncio.run(go())
    except ServiceError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 1
    print(export_service.summary(rows, args.format, args.output))
    return 0


def configure_contexts(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", type=Path, help="JSONL (one object per line: the context fields, optional 'tag') or CSV with a header"
    )
    parser.add_argument("--task", required=True, help="task code; contexts go to its current round unless --round-id")
    parser.add_argument("--round-id", default=None, help="the round's global id")
    parser.add_argument("--api-url", default=os.environ.get("DYNABENCH_API_URL", "http://127.0.0.1:8000"))
    parser.add_argument(
        "--token", default=os.environ.get("DYNABENCH_TOKEN"), help="a session or API token of a task owner (or $DYNABENCH_TOKEN)"
    )


def read_contexts(path: Path) -> Iterator[tuple[int, dict]]:
    """(line number, {"fields": {...}, "tag": ...}) for each row; raises ValueError naming the line."""
    if path.suffix.lower() == ".csv":
        with path.open(newline="", encoding="utf-8") as handle:
            for number, row in enumerate(csv.DictReader(handle), start=2):
                tag = row.pop("tag", None) or None
                yield number, {"fields": row, "tag": tag}
        return
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                document = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"line {number}: not JSON ({exc.msg})") from None
            if not isinstance(document, dict):
                raise ValueError(f"line {number}: expected an object")
            fields = document.get("fields", {k: v for k, v in document.items() if k != "tag"})
            yield number, {"fields": fields, "tag": document.get("tag")}


def run_contexts_add(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from dynabench_client import ApiError, DynabenchError, InputError, NotFoundError

    if not args.token:
        print("error: pass --token or set DYNABENCH_TOKEN", file=sys.stderr)
        return 2
    if not args.file.exists():
        print(f"error: {args.file} does not exist", file=sys.stderr)
        return 2
    try:
        rows = list(read_contexts(args.file))
    except (ValueError, UnicodeDecodeError) as exc:
        print(f"error: {args.file}: {exc}", file=sys.stderr)
        return 2
    client = _client(args)
    if client is None:
        return 2
    added = 0
    try:
        with client:
            round_id = args.round_id
            if round_id is None:
                try:
                    round_id = client.round(args.task).id  # its current (newest) round
                except NotFoundError:
                    print(f"error: task '{args.task}' not found or has no round", file=sys.stderr)
                    return 1
            with tqdm(total=len(rows), unit=" contexts", desc=f"adding to {args.task}") as bar:
                for start in range(0, len(rows), CONTEXT_BATCH):
                    batch = rows[start : start + CONTEXT_BATCH]
                    try:
                        added += client.add_contexts(round_id, [c for _, c in batch], batch_size=CONTEXT_BATCH)
                    except ApiError as exc:
                        fields = exc.field_errors if isinstance(exc, InputError) else {}
                        problems = "; ".join(f"{_line(field, batch)}: {message}" for field, message in fields.items())
                        print(
                            f"\nerror: {exc.message} {problems}\n{added} contexts were added before this batch.",
                            file=sys.stderr,
                        )
                        return 1
                    bar.update(len(batch))
    except DynabenchError as exc:
        print(f"\nerror: {exc}\n{added} contexts were added before the failure.", file=sys.stderr)
        return 1
    print(f"Added {added} contexts to {args.task}.")
    return 0


def _client(args: argparse.Namespace) -> Client | None:
    """The Python client for --api-url and --token, without progress bars of its own (the command draws them) and
    a few quick retries; None (the error printed) when --api-url is no http(s) address."""
    from dynabench_client import Client, RetryPolicy

    try:
        return Client(args.api_url, args.token, progress=False, retry=RetryPolicy(max_retries=3))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None


def _line(field: str, batch: list[tuple[int, dict]]) -> str:
    """'contexts.3.fields.passage' → 'line 57 (fields.passage)' for the file the user knows."""
    parts = field.split(".")
    if len(parts) >= 2 and parts[0] == "contexts" and parts[1].isdigit() and int(parts[1]) < len(batch):
        return f"line {batch[int(parts[1])][0]}" + (f" ({'.'.join(parts[2:])})" if len(parts) > 2 else "")
    return field


def configure_train(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--task", required=True, help="task code")
    parser.add_argument("--rounds", default="", help="comma-separated round numbers whose validated examples join the seed data")
    parser.add_argument(
        "--base-model", default="", help="a Hugging Face model directory on the worker (default: all-MiniLM-L6-v2)"
    )
    parser.add_argument("--profile", choices=["fast", "full"], default="full")
    parser.add_argument(
        "--validated-only",
        action="store_true",
        help="leave out the non-fooling examples the target agreed with that the task does not validate",
    )
    parser.add_argument("--api-url", default=os.environ.get("DYNABENCH_API_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("DYNABENCH_TOKEN"), help="a task owner's token (or $DYNABENCH_TOKEN)")


def run_train(args: argparse.Namespace) -> int:
    """Start a retraining through the API and follow it live with a progress bar until it is published or fails."""
    from tqdm import tqdm

    from dynabench_client import ApiError, DynabenchError, InputError

    if not args.token:
        print("error: pass --token or set DYNABENCH_TOKEN", file=sys.stderr)
        return 2
    try:
        rounds = [int(x) for x in args.rounds.split(",") if x.strip()]
    except ValueError:
        print(f"error: --rounds must be comma-separated numbers, got {args.rounds!r}", file=sys.stderr)
        return 2
    client = _client(args)
    if client is None:
        return 2
    try:
        with client:
            try:
                started = client.train_target_model(
                    args.task, rounds, base_model=args.base_model, profile=args.profile, include_agreed=not args.validated_only
                )
            except ApiError as exc:
                fields = exc.field_errors if isinstance(exc, InputError) else {}
                problems = "; ".join(f"{field}: {message}" for field, message in fields.items())
                print(f"error: {exc.message} {problems}".rstrip(), file=sys.stderr)
                return 1
            with tqdm(total=100, unit="%", desc=f"training {args.task}") as bar:
                run = client.wait_for_training(started.id, on_update=lambda r: bar.update(round(r.progress * 100) - bar.n))
    except DynabenchError as exc:
        print(f"error: the API at {args.api_url} did not answer as expected: {exc}", file=sys.stderr)
        return 1
    print(run.status_log[-1].message)
    if run.status not in ("published", "rejected"):
        return 1
    gate = run.gate.model_dump(by_alias=False) if run.gate is not None else None
    if gate is not None:
        print(_gate_text(gate))
    summary = {
        "model": run.model_name,
        "version": run.model_version,
        "status": run.status,
        "validated_examples": run.n_validated,
        "wall_seconds": run.wall_seconds,
        "cpu_seconds": run.cpu_seconds,
        **run.metrics,
        "gate": gate,
    }
    print(json.dumps(summary))
    return 0 if run.status == "published" else 3  # 3: built and loaded, but rejected by the retraining gate


def _gate_text(gate: dict) -> str:
    """The retraining gate's two comparisons, one line each (the run's `gate`)."""
    held = gate["held_out"]
    lines = [f"gate: {'passed' if gate['passed'] else 'rejected'} (version {gate['new_version']} vs {gate['current_version']})"]
    if held["current_error"] is None or not held["enough"]:
        lines.append(f"  held-out: not enough examples ({held['examples']}, at least {held['minimum']} needed)")
    if held["current_error"] is not None:
        lines.append(
            f"  held-out error on {held['examples']}: {held['current_error']:.1%} -> {held['new_error']:.1%}, "
            f"difference {held['difference']:+.1%} (95% CI {held['ci_low']:+.1%} .. {held['ci_high']:+.1%}, "
            f"McNemar p {held['mcnemar_p']:.3g})"
        )
    for row in gate["scoring"]:
        lines.append(
            f"  {row['dataset']}: error {row['current_error']:.1%} -> {row['new_error']:.1%} ({row['difference']:+.1%}, "
            f"tolerance {row['tolerance']:.1%}: {'ok' if row['passed'] else 'worse'})"
        )
    lines.append(f"  {gate['summary']}")
    return "\n".join(lines)
