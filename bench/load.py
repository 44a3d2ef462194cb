"""Many annotators and validators at once against two API processes and two workers.

    .venv/bin/python bench/load.py [--users 200] [--duration 60] [--validators 0.3] [--think 0.5,3]
                                   [--profile fast|full] [--model-repository DIR] [--history 100000]
                                   [--chatters 0.05] [--pg-statements 20] [--probe-triton 5]

Starts its own stack (PostgreSQL, Redis, Triton, two arq workers, two API processes), writes
`--history` examples of an older task into it (bench/seed_scale.py, with statistics), signs up
`--users` accounts and runs each as an asyncio task for `--duration` seconds on the built-in
sentiment task's current round:

- annotators (70%): nextContext → think → createExample with a real DynaSent sentence and its gold
  label; now and then retract or flag one of their own examples, read myExamples, myStats or the
  round's counters. Each holds a `roundStats` subscription open (changes merged per 0.2 s: server/core/live_feed.py).
- chatters (`--chatters`, none by default): sendMessage to the demo generative target (`chat_demo`) and its reply
  streamed to the end over a websocket held open (replyStream), then think; TTFT and tokens/s are reported.
- validators (30%): nextExamplesToValidate → think → validateExample for each (mostly CORRECT);
  now and then read userLeaderboard, the model leaderboard or the examplesToValidate page. Each holds
  an `examplesToValidate` subscription open (the live queue).

Requests alternate over the two API processes; so do the subscriptions. Think times are drawn from
`--think` (seconds). Prints per operation n, p50, p99, mean, refusals (expected answers such as a
vote on an example its author retracted meanwhile) and errors (HTTP or GraphQL errors, unexpected
results, lost subscriptions), throughput, subscription messages; then waits for the workers to
settle and checks that every counter equals a recount from rows. Exits 1 on any error or mismatch.

`--pg-statements N` starts PostgreSQL with pg_stat_statements (`POSTGRES_SETTINGS`) and prints its N costliest
statements of the run (share of execution time, calls, mean, rows and buffer blocks per call).

The simulated users are in bench/load_users.py, the recount in bench/load_consistency.py.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import time
import uuid
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg

from bench import api_histograms, load_tail
from bench.common import percentile, raw_infer, real_sentences, start_stack
from bench.load_consistency import consistency
from bench.load_users import SUB_QUEUE, SUB_ROUND, Client, Recorder, annotator, chatter, subscribe, validator


def cpu_seconds(stack) -> dict[str, float]:
    """CPU time so far of each part of the stack (children included: PostgreSQL backends, Triton stubs) and of this client."""
    import psutil

    totals: dict[str, float] = defaultdict(float)
    for name in stack.group.names:
        pid = getattr(stack.group.get(name), "pid", None)
        if pid is None:
            continue
        try:
            root = psutil.Process(pid)
            for process in [root, *root.children(recursive=True)]:
                times = process.cpu_times()
                totals[name.split("-")[0] if name.startswith(("api", "worker")) else name] += times.user + times.system
        except psutil.Error:
            continue
    own = psutil.Process().cpu_times()
    totals["load client (this process)"] = own.user + own.system
    return dict(totals)


async def run(
    stack,
    users: int,
    duration: float,
    validator_share: float,
    think_range: tuple[float, float],
    chatter_share: float = 0.0,
    probe_rate: float = 0.0,
    arrival: float = 3.0,
) -> Recorder:
    recorder = Recorder()
    client = Client(stack.api_urls, recorder)
    data = await client.call("setup", '{ task(code: "sentiment") { currentRound { id } } }')
    round_id = data["task"]["currentRound"]["id"]
    signup = (
        'mutation($u: String!) { signUp(input: {username: $u, password: "load test password"}) { ... on AuthPayload { token } } }'
    )
    gate = asyncio.Semaphore(8)

    async def sign_up(i: int) -> str:
        async with gate:
            return (await client.call("setup", signup, {"u": f"load_{i}_{uuid.uuid4().hex[:6]}"}))["signUp"]["token"]

    tokens = await asyncio.gather(*(sign_up(i) for i in range(users)))
    n_validators, n_chatters = round(users * validator_share), round(users * chatter_share)
    roles = ["validator"] * n_validators + ["chatter"] * n_chatters + ["annotator"] * (users - n_validators - n_chatters)
    ws_urls = [u.replace("http://", "ws://") + "/graphql" for u in stack.api_urls]
    readies = [asyncio.Event() for _ in range(users)]
    subscriptions = [
        asyncio.create_task(
            subscribe(
                ws_urls[i % len(ws_urls)],
                token,
                SUB_QUEUE if role == "validator" else SUB_ROUND,  # chatters watch the round's counters too
                round_id,
                "examplesToValidate" if role == "validator" else "roundStats",
                recorder,
                readies[i],
            )
        )
        for i, (token, role) in enumerate(zip(tokens, roles))
    ]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)  # every subscription answered (or failed)
    recorder.latencies.pop("setup", None)
    sentences = real_sentences(3000)
    deadline = time.monotonic() + duration

    def think() -> float:
        return random.uniform(*think_range)

    started = time.monotonic()
    cpu_before = cpu_seconds(stack)
    from bench.generative_stream import TOKENIZER, Streams

    recorder.streams = Streams()
    if chatter_share and not TOKENIZER:  # the streams' tokens are counted with the demo model's own tokenizer
        from transformers import AutoTokenizer

        from server.modelbuild.generative import hf_directory

        TOKENIZER.append(AutoTokenizer.from_pretrained(str(hf_directory(stack.model_repository))))

    def user(i: int, token: str, role: str):
        if role == "validator":
            return validator(client, token, round_id, deadline, think)
        if role == "chatter":
            return chatter(stack.api_urls[i % len(stack.api_urls)], token, deadline, think, recorder.streams, recorder)
        return annotator(client, token, round_id, sentences, deadline, think)

    token = stack.env.get("METRICS_TOKEN", "")
    histograms_before = await asyncio.to_thread(api_histograms.scrape, stack.api_urls, token)

    async def arriving(i: int, token: str, role: str) -> None:
        await asyncio.sleep(random.uniform(0, arrival))  # people arrive over `arrival` seconds, not in one instant
        await user(i, token, role)

    # This client's own full collections would walk everything set up so far (the tokenizer, the accounts): they
    # stopped its event loop for up to 230 ms mid-run, which every latency it measures would include.
    gc.collect()
    gc.freeze()
    recorder.run_started = time.perf_counter()
    lag = asyncio.create_task(load_tail.loop_lag(deadline, recorder))
    probes = asyncio.create_task(load_tail.triton_probes(stack, sentences, deadline, recorder, probe_rate))
    await asyncio.gather(*(arriving(i, token, role) for i, (token, role) in enumerate(zip(tokens, roles))))
    recorder.wall = time.monotonic() - started
    await lag
    await probes
    after = await asyncio.to_thread(api_histograms.scrape, stack.api_urls, token)
    recorder.inside_api = api_histograms.summary(
        api_histograms.delta(after, histograms_before), ["createExample", "nextContext", "validateExample"]
    )
    cpu_after = cpu_seconds(stack)
    recorder.cpu = {name: cpu_after[name] - cpu_before.get(name, 0.0) for name in cpu_after}
    alive = [s for s in subscriptions if not s.done()]
    recorder.subscriptions_alive = len(alive)
    for task in subscriptions:
        task.cancel()
    await asyncio.gather(*subscriptions, return_exceptions=True)
    await client.http.close()
    recorder.raw_triton = await raw_triton_baseline(stack, recorder, sentences)
    return recorder


async def raw_triton_baseline(stack, recorder: Recorder, sentences: list[tuple[str, str]]) -> dict:
    """The target model called straight through tritonclient (no platform code) at the concurrency createExample
    had in flight during the run (its mean, at least 1), as many calls as createExample made: the latency the API's
    createExample is compared with."""
    import numpy as np
    from tritonclient.http.aio import InferenceServerClient, InferInput

    samples = recorder.in_flight_samples.get("createExample") or [1]
    concurrency = max(1, round(statistics.fmean(samples)))
    n = max(200, len(recorder.latencies.get("createExample", [])))
    items = [sentences[i % len(sentences)][0] for i in range(n)]
    triton = InferenceServerClient(stack.env["TRITON_URL"], conn_limit=64)
    latencies: list[float] = []

    async def worker() -> None:
        while items:
            tensor = InferInput("statement", [1, 1], "BYTES")
            tensor.set_data_from_numpy(np.array([[items.pop().encode()]], dtype=np.object_))
            started = time.perf_counter()
            await raw_infer(triton, "sentiment_minilm", [tensor])
            latencies.append((time.perf_counter() - started) * 1000)

    try:
        await asyncio.gather(*(worker() for _ in range(concurrency)))
    finally:
        await triton.close()
    return {"concurrency": concurrency, "max in flight": max(samples), "n": len(latencies), "latencies": latencies}


def report(recorder: Recorder, args, mismatches: dict[str, int], n_examples: int) -> int:
    total = sum(len(v) for v in recorder.latencies.values())
    errors = sum(recorder.errors.values())
    print(
        f"\n{args.users} users ({round(args.users * args.validators)} validators, {round(args.users * args.chatters)} chatting) for {args.duration:.0f} s, think "
        f"{args.think} s, 2 API processes, 2 workers, {f'models of {args.model_repository}' if args.model_repository else f'{args.profile} models'}, "
        f"{args.history:,} examples of history, users arriving over {args.arrival:g} s\n"
    )
    print("| operation | n | p50 (ms) | p99 (ms) | mean (ms) | refused | errors |\n|---|---|---|---|---|---|---|")
    for op in sorted(recorder.latencies, key=lambda o: -len(recorder.latencies[o])):
        values = recorder.latencies[op]
        refused = sum(n for key, n in recorder.refusals.items() if key.startswith(f"{op}:"))
        print(
            f"| {op} | {len(values)} | {percentile(values, 50):.1f} | {percentile(values, 99):.1f} | "
            f"{statistics.fmean(values):.1f} | {refused} | {recorder.errors[op]} |"
        )
    print(
        f"\nThroughput: {total / recorder.wall:.1f} operations/s ({total} in {recorder.wall:.1f} s); "
        f"examples stored: {n_examples}; verdicts: {dict(recorder.verdicts)}"
    )
    print(
        f"Subscription messages: {dict(recorder.messages)}; subscriptions alive at the end: "
        f"{recorder.subscriptions_alive}/{args.users}; subscription errors: {recorder.subscription_errors}"
    )
    cores = ", ".join(
        f"{name} {seconds / recorder.wall:.2f}" for name, seconds in sorted(recorder.cpu.items(), key=lambda kv: -kv[1])
    )
    print(
        f"CPU used during the run, in cores (the machine has 2): {cores}; total {sum(recorder.cpu.values()) / recorder.wall:.2f}"
    )
    per_second = {kind: round(n / recorder.wall, 1) for kind, n in recorder.messages.items()}
    print(f"Subscription messages per second: {per_second}")
    raw = recorder.raw_triton
    create = recorder.latencies.get("createExample", [])
    if raw["latencies"] and create:
        raw_p99 = percentile(raw["latencies"], 99)
        print(
            f"Raw Triton (sentiment_minilm, tritonclient, no platform) at createExample's mean in-flight concurrency "
            f"{raw['concurrency']} (max {raw['max in flight']}), {raw['n']} calls after the run: p50 "
            f"{percentile(raw['latencies'], 50):.1f} ms, p99 {raw_p99:.1f} ms; createExample p99 / raw p99 = "
            f"{percentile(create, 99) / raw_p99:.2f} (goal <= 2)"
        )
    if recorder.inside_api:
        print(f"Inside the API processes (their own histograms; a quantile is its bucket's upper edge): {recorder.inside_api}")
    if recorder.loop_lag_ms:
        lag = recorder.loop_lag_ms
        print(
            f"The load client's own event loop, waking a 10 ms sleep late by: p50 {percentile(lag, 50):.1f} ms, p99 "
            f"{percentile(lag, 99):.1f} ms, max {max(lag):.1f} ms (in every latency above; not in the raw baseline)"
        )
    print(load_tail.report(recorder.spans, recorder.loop_lag_at, recorder.triton_probes))
    streams = recorder.streams
    if streams.ttft_ms:
        print(
            f"Chat replies streamed (demo model): {len(streams.ttft_ms)}, time to first token p50 "
            f"{percentile(streams.ttft_ms, 50):.0f} ms / p99 {percentile(streams.ttft_ms, 99):.0f} ms, tokens/s per stream "
            f"p50 {percentile(streams.rates, 50):.1f}, replies that did not end DONE: {streams.errors}"
        )
    print(f"Refusals: {dict(recorder.refusals) or 0}")
    print(f"Errors: {errors}" + "".join(f"\n  {s}" for s in recorder.error_samples))
    print(f"Counters vs recount from rows, mismatches: {mismatches}")
    return 1 if errors or any(mismatches.values()) or recorder.subscriptions_alive < args.users else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds")
    parser.add_argument("--validators", type=float, default=0.3, help="share of the users who validate")
    parser.add_argument("--think", default="0.5,3", help="think time range in seconds: min,max")
    parser.add_argument(
        "--chatters",
        type=float,
        default=0.0,
        help="share of the users who chat with the demo generative target (its model must be in the repository)",
    )
    parser.add_argument("--profile", choices=["fast", "full"], default="fast")
    parser.add_argument("--model-repository", type=Path, default=None)
    parser.add_argument(
        "--history",
        type=int,
        default=100_000,
        help="examples already in the database (another task, bench/seed_scale.py, analyzed) before the run",
    )
    parser.add_argument(
        "--pg-statements",
        type=int,
        default=0,
        metavar="N",
        help="load pg_stat_statements and print PostgreSQL's N costliest statements of the run",
    )
    parser.add_argument(
        "--probe-triton",
        type=float,
        default=0.0,
        metavar="RATE",
        help="also call the target model straight through tritonclient RATE times a second during the run, one at a "
        "time, and put those calls on the tail's timeline (diagnostic; adds that load)",
    )
    parser.add_argument(
        "--arrival",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the users start over this many seconds, each at a random moment (default: the longest think time; 0: all "
        "in the same instant, a burst no crowd makes, which alone filled the p99 of a 60 s run)",
    )
    args = parser.parse_args()
    think_range = tuple(float(x) for x in args.think.split(","))
    args.arrival = think_range[1] if args.arrival is None else args.arrival
    if args.pg_statements:
        os.environ["POSTGRES_SETTINGS"] = "shared_preload_libraries=pg_stat_statements;pg_stat_statements.track=all"
    stack = start_stack(args.model_repository, args.profile, api_processes=2, worker_processes=2)
    statements = ""
    try:
        if args.history:
            # A platform in use: statistics exist, so PostgreSQL does not plan (and cache) every
            # statement for empty tables, as it would in the first minute of a brand-new database.
            from bench.seed_scale import seed

            seeded = asyncio.run(seed(stack.env["DATABASE_URL"], examples=args.history))
            print(f"History: {seeded.examples:,} examples, {seeded.validations:,} votes in another task ({seeded.seconds:.1f} s)")
        if args.pg_statements:
            asyncio.run(statement_stats(stack.env["DATABASE_URL"], 0))  # from here on
        recorder = asyncio.run(
            run(
                stack,
                args.users,
                args.duration,
                args.validators,
                think_range,
                args.chatters,
                args.probe_triton,
                args.arrival,
            )
        )
        if args.pg_statements:
            statements = asyncio.run(statement_stats(stack.env["DATABASE_URL"], args.pg_statements))
        mismatches = asyncio.run(consistency(stack.env["DATABASE_URL"]))
        n_examples = asyncio.run(_count(stack.env["DATABASE_URL"]))
    finally:
        stack.stop()
    status = report(recorder, args, mismatches, n_examples)
    print(statements)
    return status


async def statement_stats(dsn: str, top: int) -> str:
    """top = 0: start counting (the extension created, its counts reset); else the `top` statements by total execution
    time since, as a table."""
    connection = await asyncpg.connect(dsn)
    try:
        if not top:
            await connection.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            await connection.execute("SELECT pg_stat_statements_reset()")
            return ""
        total, calls = await connection.fetchrow("SELECT sum(total_exec_time), sum(calls) FROM pg_stat_statements")
        rows = await connection.fetch(
            "SELECT calls, total_exec_time, mean_exec_time, max_exec_time, rows, shared_blks_hit + shared_blks_read AS blocks, "
            "left(regexp_replace(query, '\\s+', ' ', 'g'), 150) AS query FROM pg_stat_statements "
            "ORDER BY total_exec_time DESC LIMIT $1",
            top,
        )
    finally:
        await connection.close()
    lines = [
        f"\nPostgreSQL statements (pg_stat_statements, the run and the checks after it): {calls:,} calls, "
        f"{total / 1000:.1f} s of execution in all",
        "",
        "| share | total (s) | calls | mean (ms) | max (ms) | rows/call | blocks/call | statement |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        n = max(row["calls"], 1)
        lines.append(
            f"| {row['total_exec_time'] / total:.1%} | {row['total_exec_time'] / 1000:.2f} | {row['calls']:,} | "
            f"{row['mean_exec_time']:.2f} | {row['max_exec_time']:.1f} | {row['rows'] / n:.1f} | {row['blocks'] / n:.0f} | "
            f"`{row['query'].replace('|', '¦')}` |"
        )
    return "\n".join(lines)


async def _count(dsn: str) -> int:
    connection = await asyncpg.connect(dsn)
    try:
        return await connection.fetchval(
            "SELECT count(*) FROM examples e JOIN rounds r ON r.id = e.round JOIN tasks t ON t.id = r.task WHERE t.code = 'sentiment'"
        )
    finally:
        await connection.close()


if __name__ == "__main__":
    sys.exit(main())
