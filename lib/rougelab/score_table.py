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
        ``values``, the block that ``pd.DataFrame(values, columns=...)`` makes (``_frame_maker``)."""
        block = self.values.T  # pandas keeps a frame's 2-D block one row per column
        return _frame_maker()((block.copy() if copy else block) if self.columns else None, len(self.values),
                              _index(self.columns).view())


# The pandas versions whose internal constructors ``_frame_maker`` calls: those the tests check them on.
INTERNALS_CHECKED = ("3.1.",)


@lru_cache(maxsize=1)
def _frame_maker() -> Callable[[np.ndarray | None, int, pd.Index], pd.DataFrame]:
    """``make(block, rows, columns)``: the DataFrame of a 2-D float ``block`` (one row per column; None: no
    columns), ``rows`` rows and a range index, imported on the first ``frame`` (``import rougelab`` loads no
    pandas). Through pandas' internal classes (block, manager, frame) on a pandas of ``INTERNALS_CHECKED``: a
    one-row ``frame`` in 4.3 us, against 8.0 through ``create_dataframe_from_blocks``, whose placement array and
    integrity check a block made here never needs (benchmarks/RESULTS.md); through that public function on any
    other pandas."""
    import pandas as pd

    return (_internal_maker if pd.__version__.startswith(INTERNALS_CHECKED) else _public_maker)()


def _public_maker() -> Callable[[np.ndarray | None, int, pd.Index], pd.DataFrame]:
    """``_frame_maker``'s function through pandas' ``create_dataframe_from_blocks``."""
    import pandas as pd
    from pandas.api.internals import create_dataframe_from_blocks

    def make(block: np.ndarray | None, rows: int, columns: pd.Index) -> pd.DataFrame:
        blocks = [] if block is None else [(block, np.arange(len(block)))]
        return create_dataframe_from_blocks(blocks, pd.RangeIndex.from_range(range(rows)), columns)

    return make


def _internal_maker() -> Callable[[np.ndarray | None, int, pd.Index], pd.DataFrame]:
    """``_frame_maker``'s function through pandas' internal constructors (``new_block_2d``, ``BlockManager``)."""
    import pandas as pd
    from pandas._libs.internals import BlockPlacement
    from pandas.core.internals.blocks import NumpyBlock
    from pandas.core.internals.managers import BlockManager

    def make(block: np.ndarray | None, rows: int, columns: pd.Index) -> pd.DataFrame:
        # ``new_block_2d``'s block of float values, ``RangeIndex.from_range``'s index and ``BlockManager.from_blocks``'
        # manager, made without those functions' dispatch (4.3 us a one-pair frame, against 5.3 through them)
        blocks = [] if block is None else [NumpyBlock(block, ndim=2, placement=BlockPlacement(slice(0, len(block))))]
        axes = [columns, pd.RangeIndex._simple_new(range(rows))]
        return pd.DataFrame._from_mgr(BlockManager(blocks, axes, verify_integrity=False), axes)

    return make


@lru_cache(maxsize=256)
def _index(columns: tuple[str, ...]) -> pd.Index:
    """The column index of ``columns``, built once per set of columns (that takes longer than the rest of a
    one-pair call's table); ``frame`` hands out views of it, never the index itself."""
    import pandas as pd

    return pd.Index(columns)


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
