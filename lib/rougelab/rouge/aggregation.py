"""One number (and an interval) per column from per-summary ROUGE rows, under each tool's convention.

``aggregate(table, method=...)`` turns the rows ``rougelab.rouge.rouge`` returns (columns ``<measure>_r``,
``_p``, ``_f``) into one row per column with ``low``, ``mid`` and ``high``:

* ``"mean"``: the plain mean; no interval (``low``/``high`` are NaN).
* ``"rouge155"``: ROUGE-1.5.5's ``computeAverages``: ``mid`` is the mean of ``n_resamples`` bootstrap
  means (what the script prints as ``Average_R``), ``low``/``high`` its interpolated interval ends.
  Resample ``i`` draws with Perl's ``rand`` after ``srand(i)``, so it needs no seed; rows must be in the
  order the script reads its evaluations (sorted evaluation IDs) to give its digits.
* ``"rouge-score"``: Google rouge-score's ``BootstrapAggregator`` (0.1.2, ``scoring.py``): each
  resample draws ``len(rows)`` row indices with ``numpy.random.choice``; ``mid`` is the *median* of the
  resample means and ``low``/``high`` their percentiles (``numpy.percentile``, linear), not the mean.
  rouge-score draws from NumPy's global generator, measure by measure in the order of its score types;
  here the draws come from ``numpy.random.RandomState(seed)`` in the same order (measures in column
  order), so ``numpy.random.seed(seed)`` before rouge-score's ``aggregate()`` gives the same numbers.

R, P and F of one measure always share their resamples, as in both tools.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from rougelab.scoring import InputError
from rougelab.rouge.rouge155.bootstrap import bootstrap_averages
from rougelab.validation import check_float, check_int, check_resamples

METHODS = ("mean", "rouge155", "rouge-score")
_PARTS = ("r", "p", "f")


def aggregate(table: pd.DataFrame, method: str = "mean", *, n_resamples: int = 1000,
              confidence: float = 95.0, seed: int = 0) -> pd.DataFrame:
    """Aggregate per-summary ROUGE rows into ``low``/``mid``/``high`` per column (see the module docstring).

    Parameters
    ----------
    table : pandas.DataFrame
        One row per summary; every column ``<measure>_r``, ``_p``, ``_f`` of ``rougelab.rouge.rouge``
        (the three columns of a measure must all be present for the bootstrap methods).
    method : {"mean", "rouge155", "rouge-score"}
        The convention; ``"mean"`` is the default.
    n_resamples : int
        Bootstrap resamples (ROUGE-1.5.5's ``-r``; rouge-score's ``n_samples``).
    confidence : float
        Interval coverage in percent (ROUGE-1.5.5's ``-c``; rouge-score's ``confidence_interval`` x 100).
    seed : int
        ``"rouge-score"`` only: the seed of ``numpy.random.RandomState``.

    Returns
    -------
    pandas.DataFrame
        Indexed by the table's columns, with float columns ``low``, ``mid``, ``high``.
    """
    if method not in METHODS:
        raise InputError(f"aggregate method must be one of {', '.join(METHODS)}; got {method!r}")
    if not isinstance(table, pd.DataFrame):
        raise InputError(f"aggregate takes the DataFrame rouge() returns, not {type(table).__name__}")
    if method == "mean":
        mid = table.mean(axis=0).astype(float)
        return pd.DataFrame({"low": np.nan, "mid": mid, "high": np.nan}, index=table.columns)
    n_resamples = check_resamples(n_resamples, minimum=1, why="ROUGE-1.5.5's -r and rouge-score's n_samples")
    confidence = check_float(confidence, "confidence", low=0, high=100, hint=" (a percentage)")
    check_int(seed, "seed", minimum=0, maximum=2**32 - 1)  # numpy.random.RandomState's seeds
    if table.empty:
        raise InputError("aggregate needs at least one row for a bootstrap")
    prefixes = _measures(table.columns)
    scores = np.stack([table[[f"{m}_{x}" for x in _PARTS]].to_numpy(dtype=float) for m in prefixes], axis=1)
    if method == "rouge155":
        results = [(a.low, a.mean, a.high) for a in bootstrap_averages(scores, n_resamples, confidence)]
    else:
        results = _rouge_score_bootstrap(scores, n_resamples, confidence, seed)
    rows = {f"{m}_{x}": [low[i], mid[i], high[i]]
            for m, (low, mid, high) in zip(prefixes, results) for i, x in enumerate(_PARTS)}
    return pd.DataFrame.from_dict(rows, orient="index", columns=["low", "mid", "high"]).loc[list(table.columns)]


def _measures(columns) -> list[str]:
    """The measure prefixes of ``columns``, in order; each must have its ``_r``, ``_p`` and ``_f``."""
    prefixes = list(dict.fromkeys(str(c).rsplit("_", 1)[0] for c in columns))
    for m in prefixes:
        missing = [f"{m}_{x}" for x in _PARTS if f"{m}_{x}" not in columns]
        if missing:
            raise InputError(f"the bootstrap resamples R, P and F of a measure together: column(s) "
                             f"{', '.join(missing)} missing from the table")
    if len(prefixes) * 3 != len(columns):
        raise InputError(f"unexpected columns for a ROUGE table: {list(columns)}")
    return prefixes


def _rouge_score_bootstrap(scores: np.ndarray, n_resamples: int, confidence: float, seed: int):
    """rouge-score's ``BootstrapAggregator._bootstrap_resample`` for each measure, one random stream."""
    rng = np.random.RandomState(seed)
    out = []
    for k in range(scores.shape[1]):
        low, mid, high = rouge_score_resample(scores[:, k, :], n_resamples, confidence / 100, rng)
        out.append((tuple(low), tuple(mid), tuple(high)))
    return out


def rouge_score_resample(matrix: np.ndarray, n_resamples: int, confidence: float, rng) -> np.ndarray:
    """rouge-score 0.1.2's bootstrap of one score type: ``n_resamples`` times, the column means of
    ``len(matrix)`` rows drawn with ``rng.choice``; returns the (low, mid, high) percentiles of those
    means (rows) per column. ``confidence`` is a fraction; ``rng`` a ``RandomState`` or ``numpy.random``
    itself (its global generator, as rouge-score draws)."""
    n = matrix.shape[0]
    means = np.zeros((n_resamples, matrix.shape[1]))
    for i in range(n_resamples):
        means[i] = np.mean(matrix[rng.choice(np.arange(n), size=n), :], axis=0)
    delta = (1 - confidence) / 2
    return np.percentile(means, 100 * np.array([delta, 0.5, 1 - delta]), axis=0)
