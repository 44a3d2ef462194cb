"""The evaluation domain's tables: researchers' models, datasets and their examples, scores, saved leaderboard weightings."""

from piccolo.columns import JSONB, Boolean, Float, ForeignKey, Integer, Timestamptz, Varchar
from piccolo.columns.defaults.timestamptz import TimestamptzNow
from piccolo.constraints import Unique
from piccolo.table import Table

from server.accounts.tables import User
from server.evaluation.records import DatasetAccess, ModelStatus, Perturbation
from server.tasks.tables import Round, Task


class Model(Table, tablename="models"):
    task = ForeignKey(Task, index=True)
    owner = ForeignKey(User, index=True)
    name = Varchar(length=200)
    card = JSONB(default="{}")  # description, parameters, languages, license, source_url, paper
    # uploaded | deploying | deployed | evaluating | evaluated | not_ranked | failed
    status = Varchar(length=16, default="uploaded", choices=ModelStatus)
    status_log = JSONB(default="[]")
    triton_name = Varchar(length=200, default="")
    triton_version = Varchar(length=32, default="")
    published = Boolean(default=False)
    anonymous = Boolean(default=False)
    created_at = Timestamptz(default=TimestamptzNow())
    # An admin's take-down (server/evaluation/models/takedown.py): unpublished for good, off leaderboards and rounds.
    taken_down_at = Timestamptz(null=True, default=None)
    taken_down_reason = Varchar(length=500, default="")
    # The submission a retraining run built this one from (training_runs.new_model): a models id, a SQL foreign key
    # (ON DELETE SET NULL) declared as an integer because Piccolo's self-reference would load the whole chain.
    retrained_from = Integer(null=True, default=None)


class Dataset(Table, tablename="datasets"):
    task = ForeignKey(Task, index=True)
    round = ForeignKey(Round, null=True, default=None)
    name = Varchar(length=200)
    access = Varchar(length=16, default="scoring", choices=DatasetAccess)  # scoring | standard | hidden
    weight = Float(default=1.0)
    created_at = Timestamptz(default=TimestamptzNow())
    datasets_unique_task_name = Unique(["task", "name"])


class DatasetExample(Table, tablename="dataset_examples"):
    dataset = ForeignKey(Dataset, index=True)
    uid = Varchar(length=200)
    fields = JSONB()
    gold = JSONB(null=True, default=None)  # the label, or the list of acceptable answers (QA)
    tags = JSONB(default="[]")
    # original | robustness | fairness; perturbed copies point at their original's uid
    perturbation = Varchar(length=16, default="original", choices=Perturbation)
    original_uid = Varchar(length=200, null=True, default=None)
    # Set by the contamination check on a row that duplicates an example collected on the platform:
    # {"example", "kind", "similarity"} (docs/design.md §4.9).
    collected_duplicate = JSONB(null=True, default=None)
    dataset_examples_unique_dataset_uid = Unique(["dataset", "uid"])


class Score(Table, tablename="scores"):
    model = ForeignKey(Model, index=True)
    dataset = ForeignKey(Dataset, index=True)
    perf = Float()
    perf_by_tag = JSONB(default="{}")
    throughput = Float(null=True, default=None)
    memory_gb = Float(null=True, default=None)
    robustness = Float(null=True, default=None)
    fairness = Float(null=True, default=None)
    created_at = Timestamptz(default=TimestamptzNow())
    scores_unique_model_dataset = Unique(["model", "dataset"])


class LeaderboardConfig(Table, tablename="leaderboard_configs"):
    task = ForeignKey(Task, index=True)
    owner = ForeignKey(User)
    name = Varchar(length=100)
    metric_weights = JSONB(default="{}")
    dataset_weights = JSONB(default="{}")
    created_at = Timestamptz(default=TimestamptzNow())
    leaderboard_configs_unique_task_name = Unique(["task", "name"])


class ContaminationReport(Table, tablename="contamination_reports"):
    """One per dataset (when it is added or a retrained round opens) and per round opened from a retrained
    model (docs/design.md §4.9); created by SQL in the migration, with a unique index per subject."""

    task = ForeignKey(Task, index=True)
    dataset = ForeignKey(Dataset, null=True, default=None)
    round = ForeignKey(Round, null=True, default=None)
    report = JSONB(default="{}")
    computed_at = Timestamptz(default=TimestamptzNow())
