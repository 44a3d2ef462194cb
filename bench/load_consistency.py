"""bench/load.py's end check: once the workers have settled, every counter the run touched (rounds, users' round
stats, contexts, the rounds' agreement sums, each example's outcome) is compared with a recount from rows."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict

import asyncpg

# Every counter, recounted from rows (the definitions of round_count_queries.RECOUNT and validation/queries.RECOUNT_USER).
CHECKS = {
    "rounds": """SELECT r.round FROM round_totals r LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE NOT retracted) AS c,
        count(*) FILTER (WHERE NOT retracted AND fooled) AS f, count(*) FILTER (WHERE NOT retracted AND status = 'validated') AS v,
        count(*) FILTER (WHERE NOT retracted AND fooled AND status = 'validated') AS vf FROM examples WHERE round = r.round) x ON true
        WHERE (r.total_collected, r.total_fooled, r.total_validated, r.total_validated_fooled) <> (x.c, x.f, x.v, x.vf)""",
    "user_round_stats": """SELECT s.id FROM user_round_stats s LEFT JOIN LATERAL (SELECT count(*) AS n,
        count(*) FILTER (WHERE fooled AND NOT retracted) AS f, count(*) FILTER (WHERE fooled AND NOT retracted AND status = 'rejected') AS fr,
        count(*) FILTER (WHERE retracted) AS r FROM examples WHERE "user" = s."user" AND round = s.round) x ON true
        LEFT JOIN LATERAL (SELECT count(*) AS d FROM validations v JOIN examples e ON e.id = v.example
        WHERE v."user" = s."user" AND e.round = s.round) y ON true
        WHERE (s.submitted, s.fooled, s.fooled_rejected, s.retracted, s.validations_done) <> (x.n, x.f, x.fr, x.r, y.d)""",
    "user_round_stats missing": """SELECT DISTINCT e."user", e.round FROM examples e
        WHERE NOT EXISTS (SELECT 1 FROM user_round_stats s WHERE s."user" = e."user" AND s.round = e.round)""",
    "contexts": """SELECT c.id FROM contexts c LEFT JOIN LATERAL (SELECT count(*) AS n, count(*) FILTER (WHERE fooled AND NOT retracted) AS f
        FROM examples WHERE context = c.id) x ON true WHERE (c.total_used, c.total_fooled) <> (x.n, x.f)""",
}


async def consistency(dsn: str, timeout: float = 360) -> dict[str, int]:
    """Wait until the workers have judged and aggregated everything, then count mismatches."""
    from server.annotation.aggregation import Vote, outcome
    from server.annotation.validation.queries import AGREEMENT_FROM_ROWS

    connection = await asyncpg.connect(dsn)
    try:
        # Retracted examples are never judged (nor need to be); every other one must be.
        unsettled = (
            "SELECT (SELECT count(*) FROM validations WHERE NOT aggregated) AS unaggregated_votes, "
            "(SELECT count(*) FROM examples WHERE status = 'pending' AND NOT retracted) AS pending_examples"
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and any((await connection.fetchrow(unsettled)).values()):
            await asyncio.sleep(0.5)
        mismatches = {name: len(await connection.fetch(sql)) for name, sql in CHECKS.items()}
        # The rounds' agreement sums (kept by the aggregation job one example at a time) vs a recount.
        recount = {
            r["round"]: r
            for r in await connection.fetch(
                AGREEMENT_FROM_ROWS.sql, [r["id"] for r in await connection.fetch("SELECT id FROM rounds")]
            )
        }
        stored = {
            r["round"]: r
            for r in await connection.fetch("SELECT round, units, coincidences FROM round_agreement_totals ORDER BY round")
        }
        mismatches["round agreement"] = sum(
            1
            for round_id in recount.keys() | stored.keys()
            if round_id not in recount
            or round_id not in stored
            or recount[round_id]["units"] != stored[round_id]["units"]
            or any(abs(a - b) > 1e-6 for a, b in zip(recount[round_id]["coincidences"], stored[round_id]["coincidences"]))
        )
        votes = defaultdict(list)
        for row in await connection.fetch("SELECT example, label, mode FROM validations ORDER BY created_at, id"):
            votes[row["example"]].append(Vote(row["label"], row["mode"]))
        statuses = {
            r["id"]: (r["status"], r["fooled"])
            for r in await connection.fetch("SELECT id, status, fooled FROM examples WHERE id = ANY($1::int[])", list(votes))
        }

        def expected(cast: list, fooled: bool) -> str:
            # The built-in sentiment task: 3 matching votes decide; undecided fooling examples stay open.
            decided = outcome(cast, 3)
            return decided if decided != "open" else ("open" if fooled else "closed")

        mismatches["example outcomes"] = sum(
            1 for example, cast in votes.items() if statuses[example][0] != expected(cast, statuses[example][1])
        )
        mismatches.update({f"still {k}": v for k, v in (await connection.fetchrow(unsettled)).items()})
        return mismatches
    finally:
        await connection.close()
