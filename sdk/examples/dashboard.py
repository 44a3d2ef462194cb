"""A live dashboard of one task, drawn with nothing but the client: MER and vMER per round and the model leaderboard.

    DYNABENCH_TOKEN=... python sdk/examples/dashboard.py --api http://127.0.0.1:8000 --task sentiment \\
        --output dashboard.html --duration 600

It follows the current round's counters live (`AsyncClient.round_stats`, the `roundStats` subscription), re-reads every
round and the leaderboard every `--interval` seconds (a new round is followed once it opens), and rewrites `--output`
after each change: an HTML page (two inline SVG charts, the leaderboard table, and the numbers as JSON in
`<script id="dashboard-data">`) or, for a `.svg` name, the two charts as one SVG image. No plotting library needed.
MER = fooled / collected, vMER = validated fooled / collected (docs/design.md §4.3; `Round.mer`, `Round.vmer`); both are
empty while a round has collected nothing. The token (`DYNABENCH_TOKEN`) is optional on a public leaderboard.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import os
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dynabench_client import AsyncClient, DynabenchError

BAR_WIDTH, CHART_HEIGHT, CHART_WIDTH = 28, 220, 640
MER_COLOUR, VMER_COLOUR, SCORE_COLOUR = "#d9534f", "#5b7bd5", "#3a9d5d"


@dataclass
class Dashboard:
    """What the files show: each round's counters (by round id) and the latest leaderboard."""

    task: str
    rounds: dict[str, dict[str, Any]] = field(default_factory=dict)
    leaderboard: list[dict[str, Any]] = field(default_factory=list)
    live_updates: int = 0
    updated_at: str = ""

    def take_round(self, info: Any) -> None:
        self.rounds[info.id] = {
            "id": info.id,
            "number": info.number,
            "collected": info.total_collected,
            "fooled": info.total_fooled,
            "validated": info.total_validated,
            "validated_fooled": info.total_validated_fooled,
            "mer": info.mer,
            "vmer": info.vmer,
        }
        self.updated_at = datetime.now(UTC).isoformat(timespec="seconds")

    def take_leaderboard(self, board: Any) -> None:
        self.leaderboard = [
            {"rank": e.rank, "model_id": e.model_id, "model": e.model, "owner": e.owner, "dynascore": e.dynascore, **e.metrics}
            for e in board.entries
        ]

    def data(self) -> dict[str, Any]:
        rounds = sorted(self.rounds.values(), key=lambda r: r["number"])
        collected = sum(r["collected"] for r in rounds)
        return {
            "task": self.task,
            "updated_at": self.updated_at,
            "live_updates": self.live_updates,
            # A task's MER and vMER use the same sums over all its rounds (docs/design.md §4.3).
            "mer": sum(r["fooled"] for r in rounds) / collected if collected else None,
            "vmer": sum(r["validated_fooled"] for r in rounds) / collected if collected else None,
            "rounds": rounds,
            "leaderboard": self.leaderboard,
        }


# --- drawing ----------------------------------------------------------------------------------------------------------


def _text(x: float, y: float, text: str, anchor: str = "middle", size: int = 12, weight: str = "normal") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" font-weight="{weight}" '
        f'font-family="sans-serif">{html.escape(text)}</text>'
    )


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0%}"


def rounds_chart(data: dict[str, Any], top: float = 0) -> tuple[str, float]:
    """Grouped bars of MER and vMER (0 to 100 %) per round; (SVG elements, height used)."""
    rounds = data["rounds"]
    left, base = 50, top + 40 + CHART_HEIGHT
    parts = [_text(left, top + 20, f"{data['task']}: MER and vMER per round", "start", 15, "bold")]
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        y = base - tick * CHART_HEIGHT
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{CHART_WIDTH - 10}" y2="{y:.1f}" stroke="#ddd"/>')
        parts.append(_text(left - 6, y + 4, f"{tick:.0%}", "end", 10))
    step = max(3 * BAR_WIDTH, (CHART_WIDTH - left - 20) / max(1, len(rounds)))
    for i, r in enumerate(rounds):
        x = left + 10 + i * step
        for j, (key, colour) in enumerate((("mer", MER_COLOUR), ("vmer", VMER_COLOUR))):
            value = r[key]
            height = (value or 0) * CHART_HEIGHT
            bx = x + j * BAR_WIDTH
            parts.append(
                f'<rect class="{key}" data-round="{r["number"]}" x="{bx:.1f}" y="{base - height:.1f}" width="{BAR_WIDTH - 4}" '
                f'height="{height:.1f}" fill="{colour}"><title>round {r["number"]} {key}: {_percent(value)}</title></rect>'
            )
            parts.append(_text(bx + BAR_WIDTH / 2 - 2, base - height - 4, _percent(value), size=9))
        parts.append(_text(x + BAR_WIDTH, base + 16, f"round {r['number']}", size=11))
        parts.append(_text(x + BAR_WIDTH, base + 30, f"{r['fooled']}/{r['collected']} fooled", size=9))
    if not rounds:
        parts.append(_text(CHART_WIDTH / 2, base - CHART_HEIGHT / 2, "no rounds yet"))
    legend_y = base + 48
    for k, (label, colour) in enumerate(
        (("MER = fooled / collected", MER_COLOUR), ("vMER = validated fooled / collected", VMER_COLOUR))
    ):
        lx = left + k * 260
        parts.append(f'<rect x="{lx}" y="{legend_y - 10}" width="12" height="12" fill="{colour}"/>')
        parts.append(_text(lx + 18, legend_y, label, "start", 11))
    return "\n".join(parts), legend_y + 20 - top


def leaderboard_chart(data: dict[str, Any], top: float = 0) -> tuple[str, float]:
    """Horizontal bars of each ranked model's Dynascore; (SVG elements, height used)."""
    rows = data["leaderboard"]
    parts = [_text(10, top + 20, f"{data['task']}: leaderboard (Dynascore)", "start", 15, "bold")]
    best = max((abs(r["dynascore"]) for r in rows), default=1.0) or 1.0
    left, width = 220, CHART_WIDTH - 300
    for i, r in enumerate(rows):
        y = top + 36 + i * 26
        length = max(0.0, r["dynascore"]) / best * width
        parts.append(_text(left - 8, y + 14, f"{r['rank']}. {r['model']}", "end", 12))
        parts.append(
            f'<rect class="dynascore" x="{left}" y="{y}" width="{length:.1f}" height="18" fill="{SCORE_COLOUR}">'
            f"<title>{html.escape(str(r['model']))}: {r['dynascore']:.3f}</title></rect>"
        )
        parts.append(_text(left + length + 6, y + 14, f"{r['dynascore']:.3f}", "start", 11))
    if not rows:
        parts.append(_text(CHART_WIDTH / 2, top + 50, "no ranked models yet"))
    return "\n".join(parts), 50 + max(1, len(rows)) * 26


def render_svg(data: dict[str, Any]) -> str:
    first, height = rounds_chart(data)
    second, more = leaderboard_chart(data, top=height + 10)
    total = height + 10 + more
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{CHART_WIDTH}" height="{total:.0f}" '
        f'viewBox="0 0 {CHART_WIDTH} {total:.0f}">\n<rect width="100%" height="100%" fill="white"/>\n{first}\n{second}\n</svg>'
    )


def render_html(data: dict[str, Any]) -> str:
    cells = "".join(
        "<tr>"
        + "".join(
            f"<td>{html.escape(_cell(r.get(k)))}</td>"
            for k in ("rank", "model", "owner", "dynascore", "perf", "throughput", "memory", "robustness", "fairness")
        )
        + "</tr>"
        for r in data["leaderboard"]
    )
    head = "".join(
        f"<th>{h}</th>" for h in ("rank", "model", "owner", "Dynascore", "perf", "throughput", "memory", "robustness", "fairness")
    )
    payload = json.dumps(data, indent=1).replace("<", "\\u003c")  # no markup (a model's name) inside <script>
    title = html.escape(f"Dynabench: {data['task']}")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:4px 8px}}</style>
</head><body>
<h1>{title}</h1>
<p>Task MER {_percent(data["mer"])}, vMER {_percent(data["vmer"])} &middot; updated {html.escape(data["updated_at"])}
&middot; {data["live_updates"]} live updates</p>
{render_svg(data)}
<h2>Leaderboard</h2>
<table><thead><tr>{head}</tr></thead><tbody>{cells}</tbody></table>
<script type="application/json" id="dashboard-data">{payload}</script>
</body></html>
"""


def _cell(value: Any) -> str:
    if value is None:
        return ""
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def write(dashboard: Dashboard, output: Path) -> None:
    """Replace `output` in one step (a reader never sees half a file)."""
    data = dashboard.data()
    text = render_svg(data) if output.suffix.lower() == ".svg" else render_html(data)
    scratch = output.with_name(f".{output.name}.tmp")
    scratch.write_text(text, encoding="utf-8")
    scratch.replace(output)


# --- following the task -----------------------------------------------------------------------------------------------


async def refresh(client: AsyncClient, dashboard: Dashboard) -> str | None:
    """Re-read every round and the leaderboard; the current (newest) round's id."""
    current = None
    async for info in client.rounds(dashboard.task):
        dashboard.take_round(info)
        current = info.id
    dashboard.take_leaderboard(await client.leaderboard(dashboard.task))
    return current


async def follow_round(client: AsyncClient, dashboard: Dashboard, round_id: str, output: Path) -> None:
    async for stats in client.round_stats(round_id):
        dashboard.take_round(stats)
        dashboard.live_updates += 1
        write(dashboard, output)


async def run(args: argparse.Namespace) -> None:
    dashboard = Dashboard(args.task)
    deadline = None if args.duration is None else time.monotonic() + args.duration
    async with AsyncClient(args.api, progress=False) as client:
        live: asyncio.Task[None] | None = None
        following = None
        try:
            while True:
                current = await refresh(client, dashboard)
                write(dashboard, args.output)
                if live is not None and live.done() and not live.cancelled() and (error := live.exception()) is not None:
                    raise error  # the live feed failed for good (e.g. refused credentials)
                if current != following:  # the first round to follow, or a new round opened
                    if live is not None:
                        live.cancel()
                    following = current
                    live = asyncio.create_task(follow_round(client, dashboard, current, args.output)) if current else None
                wait = args.interval if deadline is None else min(args.interval, deadline - time.monotonic())
                if wait <= 0:
                    break
                await asyncio.sleep(wait)
        finally:
            if live is not None:
                live.cancel()
                with contextlib.suppress(asyncio.CancelledError, DynabenchError):
                    await live
        await refresh(client, dashboard)  # the final numbers
        write(dashboard, args.output)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--api", default=os.environ.get("DYNABENCH_API_URL", "http://127.0.0.1:8000"), help="the API's address")
    parser.add_argument("--task", required=True, help="task code, e.g. sentiment")
    parser.add_argument("--output", type=Path, required=True, help="an .html page (default) or an .svg image")
    parser.add_argument(
        "--duration", type=float, default=None, help="follow for this many seconds, write, exit (default: until Ctrl-C)"
    )
    parser.add_argument("--interval", type=float, default=10.0, help="seconds between full re-reads of rounds and leaderboard")
    args = parser.parse_args(argv)
    if args.duration is not None and args.duration <= 0:
        parser.error("--duration must be a positive number of seconds")
    if args.interval <= 0:
        parser.error("--interval must be a positive number of seconds")
    if args.output.suffix.lower() not in (".html", ".htm", ".svg"):
        parser.error(f"--output must end in .html or .svg, not {args.output.name!r}")
    if not args.output.parent.is_dir():
        parser.error(f"--output: no directory {args.output.parent}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        asyncio.run(run(args))
    except KeyboardInterrupt:
        print(f"stopped; {args.output} holds the last numbers", file=sys.stderr)
    except (DynabenchError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
