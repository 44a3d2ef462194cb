"""bench/retrain_loop.py's report: each round's run in words, the versions' errors with 95% Wilson intervals, and the
paired differences of consecutive versions (paired bootstrap interval, exact McNemar p)."""

from __future__ import annotations

import itertools


def _share(k: int, n: int) -> str:
    from server.battles.voters import wilson

    low, high = wilson(k, n)
    return f"{k / n:.3f} [{low:.3f}, {high:.3f}]"


def _run_text(played: dict, args) -> str:
    run, data = played["run"], played["run"]["trainingData"]
    return (
        f"Round {played['round']}: replayed {played['replayed']} sentences ({played['fooled']} fooled the target; "
        f"{played['votes']} real votes cast; {played['validated']} validated, {played['still_open']} still open; "
        f"{played['replay_s']:.0f} s). v{run['modelVersion']} ({args.profile} profile, recipe {args.recipe}, "
        f"{played['train_s']:.0f} s from the request to the gate's decision) started from {data['startedFrom']} and "
        f"trained on {data['seedExamples']} seed rows + {run['nValidated']} validated examples (of "
        f"{data['validatedRead']} read, {data['agreedRead']} of them the non-fooling ones the target agreed with; "
        f"{data['validatedHeldOut']} held out for the gate, {data['validatedDev']} as "
        f"the development split; {data['validatedShare']:.0%} of the draws, each drawn at least {data['minDraws']} "
        f"time(s), {data['steps']} steps, kept step {data['bestStep'] if data['bestStep'] is not None else data['steps']}"
        f"). Gate: {run['gate']['status']}"
        + (" (overridden by the bench to measure it anyway)" if run["gate"]["status"] == "rejected" else "")
        + f". {run['gate']['summary']}"
    )


def report(result: dict, args, heldout: dict[str, tuple[float, int]]) -> str:
    """`heldout`: version → (seed held-out accuracy, rows) from the versions' metadata."""
    from server.training.gate import compare_paired

    sizes, versions, wrong = result["sizes"], result["versions"], result["wrong"]
    lines = [_run_text(played, args) for played in result["rounds"]]
    if args.validate_all:
        lines.insert(
            0, "The task validates every example (validation.validate_non_fooling): each replayed sentence got its votes."
        )
    elif args.validated_only:
        lines.insert(0, "Runs with includeAgreed: false: trained on, and judged with, the validated (fooling) examples only.")
    lines += [
        "",
        f"Errors with 95% Wilson intervals: {sizes['r1_test']} DynaSent R1 test sentences, {sizes['r2_dev']} R2 dev "
        f"sentences (never replayed), and the fresh replay: {sizes['fresh']} R1 dev sentences never replayed nor "
        "trained on, written in round 2 (judged by v2; the other versions' share from raw calls).",
        "",
        "| version | error on DynaSent R1 test | error on DynaSent R2 dev | fooling rate of the fresh replay "
        "| seed held-out accuracy |",
        "|---|---|---|---|---|",
    ]
    for index, version in enumerate(versions):
        cells = [_share(sum(wrong[version][name]), sizes[name]) for name in ("r1_test", "r2_dev", "fresh")]
        if index == 1:
            cells[2] = f"{_share(result['fresh_fooled_v2'], sizes['fresh'])} (submitExamples; raw calls {cells[2]})"
        accuracy, rows = heldout[version]
        cells.append(_share(round(accuracy * rows), rows))
        lines.append(f"| v{version} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Paired differences (new - old error; 95% paired bootstrap interval; exact McNemar p):",
        "",
        "| versions | R1 test | R2 dev | fresh replay (raw calls) |",
        "|---|---|---|---|",
    ]
    pairs = list(itertools.pairwise(versions)) + ([(versions[0], versions[-1])] if len(versions) > 2 else [])
    for old, new in pairs:
        cells = []
        for name in ("r1_test", "r2_dev", "fresh"):
            c = compare_paired(wrong[old][name], wrong[new][name], minimum=1)
            cells.append(f"{c['difference']:+.3f} [{c['ci_low']:+.3f}, {c['ci_high']:+.3f}] p={c['mcnemar_p']:.3g}")
        lines.append(f"| v{new} - v{old} | " + " | ".join(cells) + " |")
    lines.append(f"\nWall time of the loop: {result['wall_s']:.0f} s.")
    return "\n".join(lines)
