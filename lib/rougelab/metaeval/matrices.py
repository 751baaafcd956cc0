"""Tidy table -> score matrices, the one data convention of ``rougelab.metaeval``.

See the package docstring for the convention: ``X[i, j]`` is the score of system ``i`` on
input (document) ``j``; a (system, input) pair absent from the table is NaN, in the same
places for every column.
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np
import pandas as pd


class ScoreMatrices(NamedTuple):
    """Score matrices built from one tidy table.

    ``systems`` and ``inputs`` label the rows and columns; ``scores[col]`` is the
    ``len(systems) x len(inputs)`` float matrix of column ``col`` (NaN where the pair is absent).
    """

    systems: list
    inputs: list
    scores: dict


def score_matrices(table: pd.DataFrame, columns: Sequence[str], *, doc_col: str = "doc_id",
                   system_col: str = "system_id") -> ScoreMatrices:
    """Pivot the score ``columns`` of a tidy ``table`` into systems x inputs matrices.

    Parameters
    ----------
    table : DataFrame
        One row per summary, with ``doc_col``, ``system_col`` and the score columns.
    columns : sequence of str
        Score columns (metric or human) to pivot.

    Returns
    -------
    ScoreMatrices
        Rows (systems) and columns (inputs) in order of first appearance in ``table``.

    Raises
    ------
    ValueError
        A missing column, a NaN, infinite or non-numeric score, or a (system, input) pair that
        occurs twice.
    """
    if not isinstance(table, pd.DataFrame):
        raise ValueError(f"expected a pandas DataFrame with columns {doc_col!r}, {system_col!r} "
                         f"and score columns, got {type(table).__name__}")
    columns = list(dict.fromkeys(columns))
    missing = [c for c in [doc_col, system_col, *columns] if c not in table.columns]
    if missing:
        raise ValueError(f"column(s) {missing} not in the table (it has {list(table.columns)}); "
                         "score the metric first or pass doc_col=/system_col= for other id columns")
    if len(table) == 0:
        raise ValueError("the table is empty: nothing to correlate")
    for col in (doc_col, system_col):
        if table[col].isna().any():
            raise ValueError(f"id column {col!r} has missing values: every row needs an input id "
                             "and a system id")
    for col in columns:
        values = pd.to_numeric(table[col], errors="coerce")
        bad = values.isna() & table[col].notna()
        if bad.any():
            raise ValueError(f"column {col!r} has non-numeric values (first at row "
                             f"{table.index[bad.to_numpy()][0]!r}): convert it to floats")
        if values.isna().any():
            n = int(values.isna().sum())
            raise ValueError(f"column {col!r} has {n} NaN value(s) (first at row "
                             f"{table.index[values.isna().to_numpy()][0]!r}): drop those rows for "
                             "every column, or fill them, before correlating")
        if np.isinf(values.to_numpy(dtype=float)).any():
            raise ValueError(f"column {col!r} has infinite values: fix the scores before "
                             "correlating")
    dup = table.duplicated([system_col, doc_col])
    if dup.any():
        row = table.loc[dup, [system_col, doc_col]].iloc[0].tolist()
        raise ValueError(f"(system, input) pair {tuple(row)} occurs more than once: keep one row "
                         "per summary")
    systems = pd.unique(table[system_col]).tolist()
    inputs = pd.unique(table[doc_col]).tolist()
    rows = pd.Index(systems).get_indexer(table[system_col])
    cols = pd.Index(inputs).get_indexer(table[doc_col])
    scores = {}
    for col in columns:
        matrix = np.full((len(systems), len(inputs)), np.nan)
        matrix[rows, cols] = pd.to_numeric(table[col]).to_numpy(dtype=float)
        scores[col] = matrix
    return ScoreMatrices(systems, inputs, scores)
