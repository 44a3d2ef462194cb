"""A training run's job that meets an unreachable service (PostgreSQL, Redis, Triton) is tried again later, then the
run ends as failed: it never stays active with no job behind it (server/training/job_functions.py)."""

from server.training.job import OUTAGE_TRIES, retry_after_outage
from workers.main import WorkerSettings


def test_an_outage_is_waited_out_for_about_five_minutes_then_the_run_ends():
    waits = [retry_after_outage(tries) for tries in range(1, OUTAGE_TRIES + 1)]
    assert waits == [30, 60, 90, 120, None]
    assert sum(w for w in waits if w) == 300


def test_the_run_ends_before_arq_stops_trying_the_job():
    # Past arq's max_tries the job is never called again, so the run would stay active: the job gives up first.
    assert WorkerSettings.max_tries > OUTAGE_TRIES
