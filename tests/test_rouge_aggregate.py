"""``rougelab.rouge.aggregate`` against the tools whose conventions it follows: rouge-score 0.1.2's
``BootstrapAggregator`` itself (seeded through NumPy's global generator) and ROUGE-1.5.5.pl's own
``computeAverages`` (run by test_rouge155_perl's driver)."""
import numpy as np
import pandas as pd
import pytest
from rouge_score import scoring

from perl_oracle import perl_available
from rougelab.metrics.base import InputError
from rougelab.rouge import aggregate


def _table(seed=3, n=23, measures=("rouge1", "rougel")):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({f"{m}_{x}": rng.random(n) for m in measures for x in "rpf"})


def test_rouge_score_method_equals_bootstrap_aggregator():
    table = _table()
    np.random.seed(11)
    theirs = scoring.BootstrapAggregator(confidence_interval=0.9, n_samples=300)
    for _, row in table.iterrows():
        theirs.add_scores({m: scoring.Score(precision=row[f"{m}_p"], recall=row[f"{m}_r"], fmeasure=row[f"{m}_f"])
                           for m in ("rouge1", "rougel")})
    expected = theirs.aggregate()
    ours = aggregate(table, "rouge-score", n_resamples=300, confidence=90, seed=11)
    for m in ("rouge1", "rougel"):
        for part, field in zip("rpf", ("recall", "precision", "fmeasure")):
            got = ours.loc[f"{m}_{part}"]
            for bound in ("low", "mid", "high"):
                assert got[bound] == pytest.approx(getattr(getattr(expected[m], bound), field), abs=1e-12)


def test_rouge_score_mid_is_a_median_not_the_mean():
    # five rows; with an odd number of resamples the median is one resample's mean (a sum of five drawn
    # values over 5, a multiple of 0.02), where the mean of the resample means is not
    values = [0.0, 0.0, 0.0, 0.1, 1.0]
    table = pd.DataFrame({"rouge1_r": values, "rouge1_p": values, "rouge1_f": values})
    mid = aggregate(table, "rouge-score", n_resamples=999, seed=0).loc["rouge1_f", "mid"]
    assert aggregate(table, "mean").loc["rouge1_f", "mid"] == pytest.approx(0.22)
    assert mid * 50 == pytest.approx(round(mid * 50), abs=1e-9)
    perl_mid = aggregate(table, "rouge155", n_resamples=999).loc["rouge1_f", "mid"]
    assert perl_mid * 50 != pytest.approx(round(perl_mid * 50), abs=1e-6)
    assert np.isnan(aggregate(table, "mean").loc["rouge1_f", "low"])


def test_mean_is_the_plain_mean():
    table = _table()
    assert aggregate(table)["mid"].to_numpy() == pytest.approx(table.mean().to_numpy(), abs=1e-15)


@pytest.mark.skipif(perl_available() is not None, reason=str(perl_available()))
def test_rouge155_method_equals_perl_compute_averages():
    from test_rouge155_perl import _perl_averages
    from rougelab.rouge.rouge155.report import fixed
    table = _table(n=17, measures=("rouge2",)).round(5)
    rows = [[f"{v:7.5f}" for v in row] for row in table.to_numpy()]
    (perl,) = _perl_averages([(rows, 200, "90", False, "0.5")])
    ours = aggregate(table, "rouge155", n_resamples=200, confidence=90)
    printed = [fixed(x) for bound in ("mid", "low", "high") for x in ours[bound]]
    assert printed == perl


@pytest.mark.parametrize("kwargs, message", [
    (dict(method="median"), "aggregate method"),
    (dict(method="rouge155", n_resamples=0), "n_resamples"),
    (dict(method="rouge-score", confidence=120), "confidence"),
])
def test_bad_options_are_named(kwargs, message):
    with pytest.raises(InputError, match=message):
        aggregate(_table(), **kwargs)


def test_bootstrap_needs_all_three_columns():
    with pytest.raises(InputError, match="rouge1_p"):
        aggregate(_table(measures=("rouge1",)).drop(columns="rouge1_p"), "rouge-score")
