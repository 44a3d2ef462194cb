"""The training domain's table: one row per retraining of a task's target model."""

from piccolo.columns import JSONB, Boolean, Float, ForeignKey, Integer, Timestamptz, Varchar
from piccolo.columns.defaults.timestamptz import TimestamptzNow
from piccolo.table import Table

from server.accounts.tables import User
from server.tasks.tables import Task
from server.training.records import TrainingProfile, TrainingStatus


class TrainingRun(Table, tablename="training_runs"):
    """One retraining of a task's target model (the job recomputes everything from this row)."""

    task = ForeignKey(Task, index=True)
    requested_by = ForeignKey(User)
    from_rounds = JSONB(default="[]")  # round numbers whose validated examples are added to the seed data
    base_model = Varchar(length=500, default="")  # "" = the built-in all-MiniLM-L6-v2
    profile = Varchar(length=8, default=TrainingProfile.FULL, choices=TrainingProfile)
    # queued | training | evaluating | published | rejected | failed | cancelled
    status = Varchar(length=16, default=TrainingStatus.QUEUED, choices=TrainingStatus)
    progress = Float(default=0.0)
    status_log = JSONB(default="[]")
    model_name = Varchar(length=200, default="")
    model_version = Varchar(length=32, default="")
    n_validated = Integer(default=0)
    metrics = JSONB(default="{}")  # held-out accuracy/F1 of the build, perf per scoring dataset
    trained_on = JSONB(default="{}")  # records.TrainedOn: the validated examples the build trained on
    gate = JSONB(default="{}")  # gate.GateDecision and the current version it was compared with
    scoring_tolerance = Float(default=0.01)  # the gate's tolerance on each scoring dataset's error (absolute)
    min_held_out = Integer(default=30)  # fewer gate examples: not enough to be offered
    # Also the non-fooling examples the target agreed with that the task does not validate (status closed): the
    # writer's label, confirmed by the model alone (docs/design.md §4.8)
    include_agreed = Boolean(default=True)
    cancel_requested = Boolean(default=False)
    # Who offered a rejected version anyway: a users id (a SQL foreign key, ON DELETE SET NULL), declared as an integer
    # because the table's account column for personal data is requested_by (server/accounts/personal_queries.py); the
    # override itself is in admin_audit under its actor, which exportMyData covers.
    overridden_by = Integer(null=True, default=None)
    override_reason = Varchar(length=500, default="")
    overridden_at = Timestamptz(null=True, default=None)
    # A run that retrains an uploaded classifier (a round's target): the submission it started from and the one it
    # built (models ids, SQL foreign keys ON DELETE SET NULL); null for built-in models.
    source_model = Integer(null=True, default=None)
    new_model = Integer(null=True, default=None)
    wall_seconds = Float(default=0.0)  # the job's cost: wall time and the worker process's CPU time
    cpu_seconds = Float(default=0.0)
    created_at = Timestamptz(default=TimestamptzNow())
