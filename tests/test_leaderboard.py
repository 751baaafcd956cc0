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
    monkeypatch.setattr(lb, "supported", lambda dataset, level, coef: "both")  # "toy" is not registered
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
                           n_resamples=100, progress=False)
    ranks = lb.rank_table(board, "system")
    assert list(ranks.columns) == ["toy"] and ranks.loc["oracle", "toy"] == 1


def test_versus_finds_the_better_metric_both_ways(fake_dataset):
    board = lb.versus(["toy"], "oracle", "noise", levels=("summary",), coef="pearson", n_resamples=200,
                      progress=False)
    row = board.iloc[0]
    assert len(board) == 1 and row.criterion == "quality"
    assert row.delta == pytest.approx(correlate(fake_dataset, "oracle", "quality", "summary", "pearson")
                                      - correlate(fake_dataset, "noise", "quality", "summary", "pearson"))
    assert row.pvalue_better < 0.05 and row.pvalue_worse > 0.5
    assert row.delta_low <= row.delta <= row.delta_high and row.delta_low > 0
    assert row.pvalue_bootstrap < 0.05
    assert row.metric_value - row.baseline_value == pytest.approx(row.delta)
    assert row.metric_ci_low <= row.metric_value <= row.metric_ci_high


def test_heatmap_shows_values_and_marks_ties():
    import matplotlib
    matplotlib.use("Agg")
    board = pd.DataFrame({"dataset": ["d"] * 4, "criterion": ["c", "c", "e", "e"], "level": "system",
                          "coef": "kendall", "metric": ["a", "b", "a", "b"], "value": [0.5, 0.2, -0.1, 0.3],
                          "tied_with_best": [True, False, True, True]})
    fig = lb.heatmap(board, levels=("system",), metrics=["a", "b"])
    ax = fig.axes[0]
    np.testing.assert_allclose(ax.images[0].get_array(), [[0.5, -0.1], [0.2, 0.3]])
    labels = {(t.get_position(), t.get_text()): t.get_fontweight() for t in ax.texts}
    assert labels == {((0, 0), "0.50"): "bold", ((1, 0), "-0.10"): "bold",
                      ((0, 1), "0.20"): "normal", ((1, 1), "0.30"): "bold"}
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]


def test_ties_lists_the_best_and_the_metrics_tied_with_it():
    board = pd.DataFrame({"level": "system", "dataset": "d", "criterion": ["c"] * 3 + ["e"] * 2,
                          "metric": ["a", "b", "z", "a", "b"], "value": [0.5, 0.4, 0.1, 0.2, 0.3],
                          "rank": [1, 2, 3, 2, 1], "tied_with_best": [True, False, True, True, True]})
    table = lb.ties(board)
    assert table.loc[("system", "d", "c")].to_dict() == {"best": "a", "best_value": 0.5, "tied": "z", "n_tied": 2}
    assert table.loc[("system", "d", "e")].to_dict() == {"best": "b", "best_value": 0.3, "tied": "a", "n_tied": 2}


def test_rank_table_reranks_among_the_metrics_asked_for():
    board = pd.DataFrame({"level": "system", "dataset": ["x"] * 3 + ["y"] * 2, "criterion": "c",
                          "metric": ["extra", "a", "b", "a", "b"], "value": [0.9, 0.5, 0.4, 0.2, 0.3],
                          "rank": [1, 2, 3, 2, 1]})
    assert lb.rank_table(board).loc["a", "x"] == 2
    ranks = lb.rank_table(board, metrics=["b", "a"])
    assert list(ranks.index) == ["b", "a"] and ranks.loc["a", "x"] == 1 and ranks.loc["b", "x"] == 2
    assert ranks.loc["b", "y"] == 1


def test_factual_sets_are_boarded_at_the_levels_their_design_supports(monkeypatch, tmp_path):
    from rougelab import score_cache
    monkeypatch.setattr(score_cache, "cache_dir", lambda *parts: tmp_path)
    board = lb.leaderboard(["rank19"], ["length", "rouge-1"], levels=("summary",), coef="accuracy",
                           n_resamples=100, progress=False)
    scored = lb.add_metric_scores(__import__("rougelab").load_dataset("rank19"), ["length", "rouge-1"],
                                  progress=False)
    for _, row in board.iterrows():
        assert row.value == pytest.approx(correlate(scored, row.metric, "fact", "summary", "accuracy"))
    with pytest.raises(ValueError, match="'qags-xsum' supports --level global only"):
        lb.leaderboard(["qags-xsum"], ["length", "rouge-1"], levels=("summary",), n_resamples=100,
                       progress=False)
