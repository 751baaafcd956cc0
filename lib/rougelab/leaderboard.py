"""Every metric against every dataset and criterion, with intervals and a test against the best.

For each (dataset, criterion, level) cell, the metric with the highest correlation is the best; a
paired permutation test (Deutsch, Dror & Roth 2021; H1: best > other) decides which others are
statistically indistinguishable from it (p > ``alpha``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from rougelab.evaluate import add_metric_scores, human_columns
from rougelab.metaeval import correlation_table, permutation_test


def leaderboard(datasets: list[str], metrics: list[str], *, levels=("system", "summary"),
                coef: str = "kendall", n_resamples: int = 1000, alpha: float = 0.05, seed: int = 0,
                docs: int | None = None, progress: bool = True) -> pd.DataFrame:
    """One row per (dataset, criterion, level, metric).

    Columns: dataset, criterion, level, coef, metric, value, ci_low, ci_high (95% bootstrap over
    systems and inputs), rank (1 = best in its cell), pvalue_vs_best (permutation test of the best
    metric against this one; NaN for the best itself) and tied_with_best. ``docs`` keeps only the
    first ``docs`` inputs of each dataset (a quick look).
    """
    from rougelab.data import load_dataset

    boards = []
    for dataset in tqdm(datasets, desc="datasets", disable=not progress):
        table = load_dataset(dataset)
        if docs is not None:
            table = table[table.doc_id.isin(table.doc_id.unique()[:docs])].reset_index(drop=True)
        table = add_metric_scores(table, metrics, progress=progress)
        corr = correlation_table(table, metrics, human_columns(load_dataset(dataset)), levels=list(levels),
                                 coefs=[coef], n_resamples=n_resamples, seed=seed, progress=False)
        corr.insert(0, "dataset", dataset)
        boards.append(_test_against_best(table, corr, n_resamples, alpha, seed))
    return pd.concat(boards, ignore_index=True)


def _test_against_best(table, corr, n_resamples, alpha, seed) -> pd.DataFrame:
    cells = []
    for (criterion, level), cell in corr.groupby(["criterion", "level"], sort=False):
        cell = cell.copy()
        cell["rank"] = cell["value"].rank(ascending=False, method="min")
        best = cell.loc[cell["value"].idxmax(), "metric"]
        cell["pvalue_vs_best"] = [
            np.nan if m == best else permutation_test(table, best, m, criterion, level, cell["coef"].iloc[0],
                                                      n_resamples=max(n_resamples, 1), seed=seed).pvalue
            for m in cell["metric"]]
        cell["tied_with_best"] = (cell["metric"] == best) | (cell["pvalue_vs_best"] > alpha)
        cells.append(cell)
    return pd.concat(cells)


def rank_table(board: pd.DataFrame, level: str = "system") -> pd.DataFrame:
    """Each metric's mean rank over a dataset's criteria, one column per dataset (how rankings move)."""
    at_level = board[board["level"] == level]
    return at_level.pivot_table(index="metric", columns="dataset", values="rank", aggfunc="mean")
