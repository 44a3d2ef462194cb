"""Results as pandas DataFrames (the optional `pandas` extra: `pip install "dynabench-client[pandas]"`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def dataframe(records: Iterable[Mapping[str, Any]], columns: list[str]) -> Any:
    try:
        import pandas
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError('to_dataframe() needs pandas: pip install "dynabench-client[pandas]"') from exc
    return pandas.DataFrame.from_records(list(records), columns=columns)
