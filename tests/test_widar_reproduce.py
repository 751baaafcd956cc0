"""The paper's transcribed tables and the helpers that set our numbers beside them."""
import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau

from rougelab.metrics.widar import combine, widar_components
from rougelab.metrics.widar.reproduce import (CRITERIA, TABLE3, TABLE5, beside_paper, kendall_rows, lambda_sweep,
                                              ranks, sweep_intervals, theta_sweep)


def test_table3_averages_are_the_row_means_except_two():
    # A transcription check: "Average" is the mean of the four criteria (to rounding), except two rows
    # as printed in the paper: S^3 (0.125; the mean is 0.1375) and WIDAR_L (0.167; the mean is 0.1735).
    means = TABLE3[CRITERIA].mean(axis=1)
    off = (means - TABLE3["average"]).abs() > 0.0011
    assert off[off].index.tolist() == ["S^3", "WIDAR_L"]
    # And the ROUGE-L and WIDAR_L rows of Table 5 are those of Table 3.
    assert TABLE5.loc["WIDAR_L"].tolist() == TABLE3.loc["WIDAR_L", CRITERIA].tolist()
    assert TABLE5.loc["ROUGE-L"].tolist() == TABLE3.loc["ROUGE-L", CRITERIA].tolist()


@pytest.fixture
def small():
    rng = np.random.default_rng(0)
    table = pd.DataFrame({"doc_id": np.repeat(["d1", "d2", "d3"], 4), "system_id": ["a", "b", "c", "e"] * 3})
    for name in [*CRITERIA, "m1", "m2"]:
        table[name] = rng.integers(1, 6, len(table)).astype(float)
    return table


def test_kendall_rows_are_scipy_tau_b_over_all_summaries(small):
    rows = kendall_rows(small, {"first": "m1", "second": "m2"})
    for name, column in (("first", "m1"), ("second", "m2")):
        for criterion in CRITERIA:
            assert rows.loc[name, criterion] == pytest.approx(kendalltau(small[column], small[criterion]).statistic)
    assert rows["average"].tolist() == pytest.approx(rows[CRITERIA].mean(axis=1).tolist())


def test_beside_paper_and_ranks():
    ours = pd.DataFrame({"coherence": [0.2, 0.1]}, index=["X", "Y"])
    paper = pd.DataFrame({"coherence": [0.15, 0.3]}, index=["X", "Z"])
    side = beside_paper(ours, paper)
    assert side.index.tolist() == ["X", "Y", "Z"]
    assert side[("coherence", "diff")].tolist()[0] == pytest.approx(0.05)
    assert np.isnan(side.loc["Y", ("coherence", "paper")]) and np.isnan(side.loc["Z", ("coherence", "ours")])
    assert ranks(pd.DataFrame({"c": [0.3, 0.1, 0.3]}))["c"].tolist() == [1, 3, 1]


def test_sweeps_correlate_the_configurations_they_name():
    summaries = ["the cat sat on a mat", "dogs bark", "a cat sat", "mats and cats", "dogs bark at cats", "the mat"]
    table = pd.DataFrame({"doc_id": ["d1"] * 3 + ["d2"] * 3, "system_id": ["a", "b", "c"] * 2,
                          "coherence": [3.0, 1.0, 2.0, 2.0, 3.0, 1.0]})
    refs = [["the cat sat. dogs bark loudly"]] * 3 + [["cats sit on mats. dogs bark"]] * 3
    sources = ["the cat sat on the mat. dogs bark"] * 3 + ["cats sit on mats. dogs bark at night"] * 3
    comp = widar_components(summaries, refs, sources, cache=False)
    sweep = lambda_sweep(comp, table, [0.0, 1.0, "max"], criteria=["coherence"])
    assert sweep.index.tolist() == [0.0, 1.0, "max"]
    assert sweep.loc[0.0, "coherence"] == pytest.approx(kendalltau(comp.idss, table.coherence).statistic)
    lw = combine(comp, "l", lam=1.0).f
    assert sweep.loc[1.0, "coherence"] == pytest.approx(kendalltau(lw, table.coherence).statistic)
    thetas = theta_sweep(comp, table, "theta2", [0.3, 0.9], criteria=["coherence"])
    expected = kendalltau(combine(comp, "l", theta2=0.9).f, table.coherence).statistic
    assert thetas.loc[0.9, "coherence"] == pytest.approx(expected)
    # the band of a sweep: the sweep's own values, each with an ordered bootstrap interval within [-1, 1]
    band = sweep_intervals(comp, table, "theta2", [0.3, 0.9], criteria=["coherence"], n_resamples=200)
    assert band["theta2"].tolist() == [0.3, 0.9] and band["criterion"].tolist() == ["coherence"] * 2
    assert band["value"].tolist() == pytest.approx(thetas["coherence"].tolist())
    assert (band["ci_low"] <= band["ci_high"]).all() and (band["ci_low"] >= -1).all() and (band["ci_high"] <= 1).all()
