"""Is system B significantly better than system A on the same inputs and references?

``compare_systems`` scores two or more systems with one registered metric and tests each against the
baseline. A system's score is the mean over its summaries of the metric's per-summary score (the corpus
number ``rougelab score`` prints); ``delta`` = score(system) - score(baseline). Two paired tests, both
on the same items of the two systems, seeded, and with sacreBLEU's conventions (``sacrebleu.significance``
2.x, reproduced here; tests/test_compare.py checks its p-values):

* paired bootstrap resampling (Koehn 2004): resample b draws n items with replacement, the same items for
  both systems (``numpy.random.default_rng(seed).integers(0, n, (n_resamples, n))``, the draws of
  ``rougelab.metaeval.bootstrap.draw_indices``, identical for every system), giving d*_b =
  s(system*_b) - s(baseline*_b). The p-value is two-sided: p = (1 + #{ |d*_b| - mean(|d*|) >= |delta| })
  / (1 + n_resamples). ``low`` and ``high`` are the percentile interval of d*_b.
* approximate randomization (Riezler & Maxwell 2005): trial t swaps the two systems' outputs of each item
  with probability 1/2 (``default_rng(seed).integers(2, size=(n_trials, n), dtype=bool)``); p = (1 +
  #{ |s(a*_t) - s(b*_t)| >= |delta| }) / (1 + n_trials).

The +1 counts the observed assignment, so p is never 0. A tie (a statistic equal to the observed one, up
to rounding: 1e-9 relative) counts against H0, as in Riezler & Maxwell's ">=": identical systems get
p = 1. sacreBLEU (after MultEval) counts only statistics strictly greater, which makes ties count for H1
(identical systems get p = 1 / (1 + n)); ``strict=True`` reproduces that. Both tests work on per-item statistics summed
over items and a corpus score of the sums (``paired_bootstrap``, ``approximate_randomization``): for a
registered metric the statistic is the per-summary score and the corpus score its mean; other corpus
scores (e.g. sacreBLEU's corpus BLEU from n-gram counts) plug in through ``corpus_score``.
"""
from __future__ import annotations

from typing import Callable, Mapping, NamedTuple, Sequence

import numpy as np
import pandas as pd

from rougelab.metaeval.resampling import DEFAULT_SEED, chunks, draw_indices, percentile_interval
from rougelab.scoring import InputError, joined_batch
from rougelab.validation import check_interval_resamples, check_probability, check_seed, check_test_resamples

__all__ = ["Comparison", "SystemComparison", "paired_bootstrap", "approximate_randomization",
           "compare_systems", "DEFAULT_SEED"]

_CHUNK = 250  # resamples or trials summed at once (memory: _CHUNK x items x statistics floats)


class Comparison(NamedTuple):
    """One system against the baseline: ``delta`` = its score minus the baseline's, the percentile
    interval of the resampled deltas (``low``, ``high``), and the test's p-value."""

    delta: float
    low: float
    high: float
    pvalue: float


class SystemComparison(NamedTuple):
    """``table``: one row per system (baseline first) with ``score``, ``delta``, ``low``, ``high``,
    ``p_bootstrap`` and ``p_ar`` (NaN on the baseline's row); ``signature``: the metric's signature and
    the tests' settings."""

    table: pd.DataFrame
    signature: str


def mean_score(stats: np.ndarray, n_items: int) -> np.ndarray:
    """The corpus score of a registered metric: summed per-item scores divided by the item count."""
    return stats[..., 0] / n_items


def paired_bootstrap(baseline: np.ndarray, system: np.ndarray, n_resamples: int = 1000,
                     seed: int = DEFAULT_SEED, confidence: float = 0.95,
                     corpus_score: Callable[[np.ndarray], np.ndarray] | None = None,
                     strict: bool = False) -> Comparison:
    """Paired bootstrap test (module docstring) of per-item statistics ``baseline`` and ``system``
    (arrays of n items, or n x k for k statistics per item). ``corpus_score`` maps summed statistics
    (m x k) to m scores; by default the mean of the one statistic. ``strict``: sacreBLEU's ties."""
    base, sys_, score = _prepare(baseline, system, corpus_score)
    confidence = check_probability(confidence, "confidence")
    n_resamples = check_test_resamples(n_resamples, "n_resamples")
    check_interval_resamples(n_resamples, confidence, "n_resamples")
    n = len(base)
    _, items = draw_indices(np.random.default_rng(check_seed(seed)), 1, n, n_resamples, resample="inputs")
    deltas = np.concatenate([score(sys_[items[rows]].sum(axis=1)) - score(base[items[rows]].sum(axis=1))
                             for rows in chunks(len(items), 1, budget=_CHUNK)])
    observed = float(score(sys_.sum(axis=0)[None])[0] - score(base.sum(axis=0)[None])[0])
    spread = np.abs(deltas)
    low, high = percentile_interval(deltas, confidence)
    return Comparison(observed, low, high, _pvalue(spread - spread.mean(), abs(observed), strict))


def approximate_randomization(baseline: np.ndarray, system: np.ndarray, n_trials: int = 10000,
                              seed: int = DEFAULT_SEED,
                              corpus_score: Callable[[np.ndarray], np.ndarray] | None = None,
                              strict: bool = False) -> float:
    """The p-value of the approximate randomization test (module docstring); arguments as in
    ``paired_bootstrap``."""
    base, sys_, score = _prepare(baseline, system, corpus_score)
    n_trials = check_test_resamples(n_trials, "n_trials")
    swaps = np.random.default_rng(check_seed(seed)).integers(2, size=(n_trials, len(base)), dtype=bool)
    observed = abs(float(score(sys_.sum(axis=0)[None])[0] - score(base.sum(axis=0)[None])[0]))
    gaps = []
    for rows in chunks(len(swaps), 1, budget=_CHUNK):
        chunk = swaps[rows]
        keep = (~chunk).astype(float)
        swap = chunk.astype(float)
        a = swap @ base + keep @ sys_  # where swapped, pseudo-system a takes the baseline's item
        b = keep @ base + swap @ sys_
        gaps.append(np.abs(score(a) - score(b)))
    return _pvalue(np.concatenate(gaps), observed, strict)


def compare_systems(systems: Mapping[str, Sequence[str]], references: Sequence[Sequence[str]],
                    metric="rouge-2", *, baseline: str | None = None, column: str | None = None,
                    sources: Sequence[str] | None = None, n_resamples: int = 1000, n_trials: int = 10000,
                    confidence: float = 0.95, seed: int = DEFAULT_SEED, strict: bool = False) -> SystemComparison:
    """Each system against ``baseline`` (default: the first) on the same inputs, with both tests.

    Parameters
    ----------
    systems : mapping of name -> list of summaries
        Two or more systems, each with one summary per input, in the same input order.
    references : list of lists of str
        The references of each input, shared by every system.
    metric : str or rougelab.metrics.base.Metric
        A registered name (``rougelab metrics``) or a metric object.
    column : str, optional
        The metric's column to test (default: its primary, e.g. ``rouge2_f``).
    n_resamples, n_trials, confidence, seed
        Bootstrap resamples, randomization trials, the interval's coverage and the seed of both tests.
    strict : bool
        Count ties as sacreBLEU does (module docstring).

    Returns
    -------
    SystemComparison(table, signature)
    """
    from rougelab.metrics.registry import get_metric

    metric = get_metric(metric) if isinstance(metric, str) else metric
    confidence = check_probability(confidence, "confidence")
    n_resamples, n_trials = check_test_resamples(n_resamples, "n_resamples"), check_test_resamples(n_trials, "n_trials")
    check_interval_resamples(n_resamples, confidence, "n_resamples")
    seed = check_seed(seed)
    names = list(systems)
    if len(names) < 2:
        raise InputError(f"systems: give at least two systems to compare, got {len(names)}")
    baseline = names[0] if baseline is None else baseline
    if baseline not in systems:
        raise InputError(f"baseline {baseline!r} is not one of the systems: {', '.join(map(repr, names))}")
    names.remove(baseline)
    names.insert(0, baseline)
    with joined_batch({name: systems[name] for name in names}, references, sources,
                      needs_source=metric.needs_source) as batch:
        table = metric.score(*batch)
    n = len(references)
    column = metric.primary if column is None else column
    if column not in table.columns:
        raise InputError(f"column {column!r} is not one of {metric.name}'s: {', '.join(table.columns)}")
    scores = table[column].to_numpy(dtype=float).reshape(len(names), n)
    rows = []
    for name, row in zip(names, scores):
        result = {"system": name, "score": row.mean()}
        if name != baseline:
            bs = paired_bootstrap(scores[0], row, n_resamples, seed, confidence, strict=strict)
            result.update(delta=bs.delta, low=bs.low, high=bs.high, p_bootstrap=bs.pvalue,
                          p_ar=approximate_randomization(scores[0], row, n_trials, seed, strict=strict))
        rows.append(result)
    out = pd.DataFrame(rows, columns=["system", "score", "delta", "low", "high", "p_bootstrap", "p_ar"])
    signature = (f"{metric.signature}|column:{column}|paired-bs:{n_resamples}|paired-ar:{n_trials}"
                 f"|confidence:{confidence}|seed:{seed}" + ("|ties:strict" if strict else ""))
    return SystemComparison(out, signature)


def _prepare(baseline, system, corpus_score):
    base = np.asarray(baseline, dtype=float)
    sys_ = np.asarray(system, dtype=float)
    if base.shape != sys_.shape or base.ndim not in (1, 2) or len(base) == 0:
        raise InputError(f"baseline and system need the same non-empty per-item statistics, got shapes "
                         f"{base.shape} and {sys_.shape}")
    if base.ndim == 1:
        base, sys_ = base[:, None], sys_[:, None]
    if corpus_score is None:
        n = len(base)
        return base, sys_, lambda stats: mean_score(stats, n)
    return base, sys_, lambda stats: np.asarray(corpus_score(stats), dtype=float)


def _pvalue(statistics: np.ndarray, observed: float, strict: bool) -> float:
    extreme = statistics > observed if strict else statistics >= observed - 1e-9 * max(1.0, observed)
    return (1 + int(np.sum(extreme))) / (1 + statistics.size)
