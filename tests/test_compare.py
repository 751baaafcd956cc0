"""Paired significance of systems (rougelab.compare) against exact enumeration and sacreBLEU's own tests."""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from rougelab.compare import approximate_randomization, compare_systems, paired_bootstrap
from rougelab.metrics.registry import get_metric
from rougelab.scoring import InputError

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU, CHRF  # noqa: E402
from sacrebleu.significance import PairedTest  # noqa: E402


def test_approximate_randomization_against_the_exact_enumeration():
    # Per-item differences d = (1, 1, 1, -2): a trial flips the sign of each d_i. Of the 16 sign patterns,
    # |sum| is 1 (the observed gap) in 8 and 3 or 5 in the other 8 (s = sum of the three 1s is 3, 1, -1, -3
    # in 1, 3, 3, 1 patterns; s - 2 or s + 2 exceeds 1 in absolute value once per s), so
    # P(|gap| > |delta|) = 1/2 (sacreBLEU's strict count) and P(|gap| >= |delta|) = 1.
    base, system = np.zeros(4), np.array([1.0, 1.0, 1.0, -2.0])
    n = 20000
    p = approximate_randomization(base, system, n_trials=n, seed=7, strict=True)
    assert abs(p - (1 + n * 0.5) / (1 + n)) < 4 * np.sqrt(0.25 / n)
    assert approximate_randomization(base, system, n_trials=n, seed=7) == 1.0


def test_approximate_randomization_when_the_observed_gap_is_the_largest():
    # d = (1, 2, 3): |sum| = 6, the observed gap, in 2 of the 8 sign patterns and smaller in the others
    base, system = np.zeros(3), np.array([1.0, 2.0, 3.0])
    assert approximate_randomization(base, system, n_trials=99, strict=True) == 1 / 100
    n = 20000
    p = approximate_randomization(base, system, n_trials=n, seed=1)
    assert abs(p - (1 + n * 0.25) / (1 + n)) < 4 * np.sqrt(0.25 * 0.75 / n)


def test_identical_systems_are_not_significant():
    scores = np.array([0.3, 0.5, 0.1, 0.7])
    assert approximate_randomization(scores, scores.copy(), n_trials=99) == 1.0
    assert paired_bootstrap(scores, scores.copy(), n_resamples=99).pvalue == 1.0


def test_paired_bootstrap_against_the_exact_resampling_distribution():
    base, system = np.array([0.2, 0.5, 0.1]), np.array([0.6, 0.4, 0.3])
    d = system - base
    deltas = np.array([d[list(idx)].mean() for idx in itertools.product(range(3), repeat=3)])  # all 27
    spread = np.abs(deltas)
    exceed = np.mean(spread - spread.mean() >= abs(d.mean()))
    n = 40000
    result = paired_bootstrap(base, system, n_resamples=n, seed=3)
    assert result.delta == pytest.approx(d.mean(), abs=1e-15)
    # the centring uses the sample mean of |d*|, which is itself within ~0.002 of the exact one
    assert abs(result.pvalue - exceed) < 0.02
    assert result.low <= np.quantile(deltas, 0.05) and result.high >= np.quantile(deltas, 0.95)
    assert result.low >= deltas.min() and result.high <= deltas.max()


def _corpus():
    rnd = random.Random(3)
    words = "the a cat dog sat ran on mat log house big small red blue quickly slowly".split()
    refs = [" ".join(rnd.choice(words) for _ in range(rnd.randint(5, 15))) for _ in range(50)]

    def noisy(ref, rate):
        return " ".join(w if rnd.random() > rate else rnd.choice(words) for w in ref.split())

    systems = {"base": [noisy(r, 0.5) for r in refs], "better": [noisy(r, 0.4) for r in refs],
               "same": [noisy(r, 0.55) for r in refs]}
    return systems, refs


@pytest.mark.parametrize("test, n", [("bs", 1000), ("ar", 2000)])
@pytest.mark.parametrize("make", [BLEU, CHRF])
def test_equals_sacrebleu_paired_tests_on_corpus_scores(monkeypatch, test, n, make):
    """sacreBLEU's corpus BLEU / chrF as the corpus score: the same draws give its p-values exactly."""
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)  # sacreBLEU's default seed, 12345: ours too
    systems, refs = _corpus()
    _, theirs = PairedTest(list(systems.items()), {"m": make()}, [refs], test_type=test, n_samples=n)()
    (results,) = [v for k, v in theirs.items() if k != "System"]
    metric = make()
    stats = {s: np.array(metric._extract_corpus_statistics(h, [refs]), dtype=float) for s, h in systems.items()}

    def corpus_score(sums):
        return [metric._compute_score_from_stats(list(s)).score for s in sums]

    for name, result in zip(list(systems)[1:], results[1:]):
        if test == "bs":
            ours = paired_bootstrap(stats["base"], stats[name], n, corpus_score=corpus_score, strict=True)
            assert ours.delta == pytest.approx(result.score - results[0].score, abs=1e-9)
            assert ours.pvalue == result.p_value
        else:
            assert approximate_randomization(stats["base"], stats[name], n, corpus_score=corpus_score,
                                             strict=True) == result.p_value


class _MeanOfSentenceScores:
    """A sacreBLEU metric whose corpus score is the mean of our registry metric's per-summary scores,
    so that sacreBLEU's PairedTest runs its own resampling on what ``compare_systems`` tests."""

    def __init__(self, name):
        self.metric = get_metric(name)

    def _extract_corpus_statistics(self, hypotheses, references):
        per_summary = [list(refs) for refs in zip(*references)]
        scores = self.metric.score(list(hypotheses), per_summary)[self.metric.primary]
        return [[float(s), 1.0] for s in scores]

    def _compute_score_from_stats(self, stats):
        return _Score(float(stats[0]) / float(stats[1]))

    def _aggregate_and_compute(self, stats):
        return self._compute_score_from_stats(np.asarray(stats, dtype=float).sum(axis=0))

    def get_signature(self):
        return _Signature()


class _Score:
    name = "mean"

    def __init__(self, score):
        self.score = score


class _Signature:
    def update(self, key, value):
        pass


@pytest.mark.parametrize("name", ["bleu", "chrf"])
def test_compare_systems_equals_sacrebleu_through_our_metrics(monkeypatch, name):
    """``compare_systems`` on our ``bleu`` / ``chrf`` (mean sentence score) against sacreBLEU's PairedTest
    resampling the same sentence scores. sacreBLEU sums its bootstrap statistics in float32, so a
    resample whose statistic lies within float32 rounding of the observed one may count differently:
    the p-values agree to 2 / (1 + n)."""
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    systems, refs = _corpus()
    ours = compare_systems(systems, [[r] for r in refs], name, n_resamples=1000, n_trials=2000, strict=True).table
    for test, column, n in [("bs", "p_bootstrap", 1000), ("ar", "p_ar", 2000)]:
        _, theirs = PairedTest(list(systems.items()), {"m": _MeanOfSentenceScores(name)}, [refs],
                               test_type=test, n_samples=n)()
        results = theirs["mean"]
        np.testing.assert_allclose(ours["score"], [r.score for r in results], rtol=0, atol=1e-9)
        np.testing.assert_allclose(ours[column][1:], [r.p_value for r in results[1:]], rtol=0,
                                   atol=2 / (1 + n))


def test_compare_systems_table_and_signature():
    systems, refs = _corpus()
    result = compare_systems(systems, [[r] for r in refs], "rouge-1", baseline="same", n_resamples=200,
                             n_trials=200, seed=4)
    table = result.table
    assert list(table["system"]) == ["same", "base", "better"]
    scores = get_metric("rouge-1").score(systems["better"], [[r] for r in refs])["rouge1_f"]
    assert table["score"].iloc[2] == pytest.approx(scores.mean(), abs=1e-12)
    assert table["delta"].iloc[2] == pytest.approx(table["score"].iloc[2] - table["score"].iloc[0], abs=1e-12)
    assert table[["delta", "p_bootstrap", "p_ar"]].iloc[0].isna().all()
    assert (table["low"].iloc[1:] <= table["delta"].iloc[1:]).all()
    assert (table["delta"].iloc[1:] <= table["high"].iloc[1:]).all()
    assert "seed:4" in result.signature and result.signature.startswith("rouge-1|")
    again = compare_systems(systems, [[r] for r in refs], "rouge-1", baseline="same", n_resamples=200,
                            n_trials=200, seed=4).table
    assert again.equals(table)


@pytest.mark.parametrize("kwargs, parameter", [
    (dict(systems={"a": ["x"]}), "systems"),
    (dict(baseline="nope"), "baseline"),
    (dict(column="nope"), "column"),
    (dict(n_resamples=0), "n_resamples"),
    (dict(n_resamples=50), "n_resamples"),
    (dict(seed=-1), "seed"),
    (dict(n_trials=1.5), "n_trials"),
])
def test_refusals_name_the_parameter(kwargs, parameter):
    args = dict(systems={"a": ["x y"], "b": ["x z"]}, references=[["x y"]], metric="rouge-1")
    with pytest.raises(InputError, match=parameter):
        compare_systems(**{**args, **kwargs})
