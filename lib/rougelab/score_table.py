"""A per-summary score table without pandas, for callers that need only the numbers.

``ScoreTable``: column names and a float array (one row per summary), what classic ROUGE computes before
it becomes a DataFrame. ``frame_scorer`` turns a scorer computing one into the public scorer returning its
DataFrame (``rougelab.rouge.rouge``); ``Metric.score_table`` calls the scorer behind it, so that
``rougelab score`` on a few texts does not load pandas (a third of its start-up time and memory).
One scorer computes the numbers either way: the DataFrame is the ``ScoreTable``'s ``frame()``.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from functools import lru_cache, wraps
from typing import TYPE_CHECKING, Callable

import numpy as np

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class ScoreTable:
    """``values[i, k]``: summary i's score in ``columns[k]`` (a 2-D float array)."""

    columns: tuple[str, ...]
    values: np.ndarray

    def __getitem__(self, columns: list[str]) -> "ScoreTable":
        """These columns, in this order (as ``DataFrame[columns]``)."""
        where = {name: k for k, name in enumerate(self.columns)}
        return ScoreTable(tuple(columns), self.values[:, [where[name] for name in columns]])

    def frame(self, copy: bool = True) -> pd.DataFrame:
        """The table as a DataFrame (float columns, a range index); ``copy=False`` shares ``values`` (for a table
        no one else holds: it saves a copy of the numbers). Each DataFrame owns its column index (a view of the
        remembered one: renaming it in place renames no other result's). Built as pandas' one block of
        ``values`` (``create_dataframe_from_blocks``, the constructor's block without its checks and
        inference: a 2-D float array has no dtype to find, no shape to fix), the block that
        ``pd.DataFrame(values, columns=...)`` makes."""
        rows, from_blocks = _pandas()
        index, placement = _index(self.columns)
        block = self.values.T  # pandas keeps a frame's 2-D block one row per column
        blocks = [(block.copy() if copy else block, placement)] if self.columns else []  # none: as pandas
        return from_blocks(blocks, rows(range(len(self.values))), index.view())


@lru_cache(maxsize=1)
def _pandas() -> tuple[Callable, Callable]:
    """pandas' ``RangeIndex.from_range`` and ``create_dataframe_from_blocks``, imported on the first ``frame``
    (``import rougelab`` loads no pandas)."""
    import pandas as pd
    from pandas.api.internals import create_dataframe_from_blocks

    return pd.RangeIndex.from_range, create_dataframe_from_blocks


@lru_cache(maxsize=256)
def _index(columns: tuple[str, ...]) -> tuple[pd.Index, np.ndarray]:
    """The column index of ``columns`` (a ``pd.Index``, built once per set of columns: that takes longer than
    the rest of a one-pair call's table) and the block's placement (its column numbers, read-only); ``frame``
    hands out views of the index, never the index itself."""
    import pandas as pd

    placement = np.arange(len(columns))
    placement.flags.writeable = False
    return pd.Index(columns), placement


def frame_scorer(table_scorer: Callable[..., ScoreTable]) -> Callable[..., pd.DataFrame]:
    """The scorer returning ``table_scorer``'s result as a DataFrame: same name, parameters and docstring;
    its ``table_scorer`` attribute is the function itself (``Metric.score_table``)."""
    @wraps(table_scorer)
    def scorer(*args, **kwargs) -> pd.DataFrame:
        return table_scorer(*args, **kwargs).frame(copy=False)  # the table is this call's alone

    scorer.__annotations__ = {**table_scorer.__annotations__, "return": "pd.DataFrame"}
    scorer.__signature__ = inspect.signature(table_scorer).replace(return_annotation="pd.DataFrame")
    scorer.table_scorer = table_scorer
    return scorer
