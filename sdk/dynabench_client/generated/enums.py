from enum import Enum


class ApiTokenScope(str, Enum):
    READ = "READ"
    ANNOTATE = "ANNOTATE"
    MODELS = "MODELS"
    ADMIN = "ADMIN"


class BattleChoice(str, Enum):
    A = "A"
    B = "B"
    C = "C"
    D = "D"
    TIE = "TIE"
    BOTH_BAD = "BOTH_BAD"


class ExportFormat(str, Enum):
    JSONL = "JSONL"
    HF_DATASET = "HF_DATASET"
    PREFERENCES = "PREFERENCES"


class Metric(str, Enum):
    PERF = "PERF"
    THROUGHPUT = "THROUGHPUT"
    MEMORY = "MEMORY"
    ROBUSTNESS = "ROBUSTNESS"
    FAIRNESS = "FAIRNESS"


class ReplyStatus(str, Enum):
    GENERATING = "GENERATING"
    DONE = "DONE"
    STOPPED = "STOPPED"
    FAILED = "FAILED"


class TrainingProfile(str, Enum):
    FAST = "FAST"
    FULL = "FULL"


class Verdict(str, Enum):
    FOOLED = "FOOLED"
    NOT_FOOLED = "NOT_FOOLED"
    PENDING = "PENDING"
    AWAITING_CLAIM = "AWAITING_CLAIM"
