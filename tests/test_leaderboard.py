"""The leaderboard: values agree with `correlate`, the best metric is found and tested against the rest."""
import numpy as np
import pandas as pd
import pytest

from rougelab import leaderboard as lb
from rougelab.metaeval import correlate


@pytest.fixture
def fake_dataset(monkeypatch):
    """A 6-system x 12-input table whose `oracle` metric is the human score plus small noise."""
    rng = np.random.default_rng(0)
    rows = [{"dataset": "toy", "doc_id": d, "system_id": s, "source": "x", "references": ["r"],
             "summary": "w " * int(rng.integers(1, 30)), "quality": float(rng.normal())}
            for d in range(12) for s in range(6)]
    table = pd.DataFrame(rows)
    table["oracle"] = table["quality"] + rng.normal(scale=0.05, size=len(table))
    table["noise"] = rng.normal(size=len(table))

    monkeypatch.setattr("rougelab.data.load_dataset", lambda name: table[[
        "dataset", "doc_id", "system_id", "source", "references", "summary", "quality"]])
    # The metric columns are already in the table: scoring just joins them.
    monkeypatch.setattr(lb, "add_metric_scores", lambda t, metrics, progress=True: t.join(table[["oracle", "noise"]]))
    return table


def test_values_ranks_and_ties(fake_dataset):
    board = lb.leaderboard(["toy"], ["noise", "oracle"], levels=("summary", "system"), coef="pearson",
                           n_resamples=200, progress=False)
    assert len(board) == 4
    for _, row in board.iterrows():
        assert row.value == pytest.approx(correlate(fake_dataset, row.metric, "quality", row.level, "pearson"))
        assert row.ci_low <= row.value <= row.ci_high
    summary = board[board.level == "summary"].set_index("metric")
    assert summary.loc["oracle", "rank"] == 1 and summary.loc["oracle", "tied_with_best"]
    assert np.isnan(summary.loc["oracle", "pvalue_vs_best"])
    assert summary.loc["noise", "pvalue_vs_best"] < 0.05 and not summary.loc["noise", "tied_with_best"]


def test_rank_table_has_one_column_per_dataset(fake_dataset):
    board = lb.leaderboard(["toy"], ["noise", "oracle"], levels=("system",), coef="kendall",
                           n_resamples=50, progress=False)
    ranks = lb.rank_table(board, "system")
    assert list(ranks.columns) == ["toy"] and ranks.loc["oracle", "toy"] == 1
