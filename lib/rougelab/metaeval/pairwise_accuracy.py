"""Pairwise ranking accuracy: the share of pairs a metric orders as the humans do.

Batched over the last axis like the coefficients of ``correlations`` (positions where ``x`` or ``y``
is NaN are absent). For every pair of present positions, with ``x`` the metric and ``y`` the human
scores, count (notation of Deutsch, Foster & Freitag 2023, "Ties Matter", section 3):
C concordant, D discordant, T_m tied in the metric only, T_h tied in the humans only, T_hm tied in
both. Three conventions, each a coefficient name usable at every level:

- ``accuracy`` (ties as wrong): C / (C + D + T_m). Pairs the humans tie have no order to agree
  with and are left out; a metric tie counts as a wrong answer. This is how published Rank19
  accuracies count (Falke et al. 2019; BARTScore's evaluation counts ``correct > incorrect``) and
  how Kocmi et al. (2021) count system pairs in practice.
- ``accuracy-half`` (ties as half): (C + T_m / 2) / (C + D + T_m) = (1 + Somers' d(y -> x)) / 2.
- ``accuracy-eq`` (Deutsch et al. 2023, their acc_eq): (C + T_hm) / (C + D + T_m + T_h + T_hm),
  every pair counted, a tie right only when both sides tie; neither rewards nor punishes ties
  arbitrarily. ``epsilon`` (their tie calibration threshold) treats metric differences with
  ``|x_a - x_b| <= epsilon`` as ties; the default 0 keeps exact ties only.

At system level this is the pairwise system-ranking accuracy of Kocmi et al. (2021); at summary
level with two summaries per input (Rank19) it is the share of inputs ranked right.
A row with no pair to count is NaN.
"""
from __future__ import annotations

import numpy as np

from rougelab.metaeval.resampling import CHUNK_ELEMENTS, chunks

ACCURACIES = ("accuracy", "accuracy-half", "accuracy-eq")
PAIRWISE_BUDGET = CHUNK_ELEMENTS // 2  # n x n entries per row: several such temporaries live at once (~50 MB)


def pair_counts(x, y, epsilon: float = 0.0) -> dict[str, np.ndarray]:
    """C, D, T_m, T_h and T_hm of each row (see the module docstring), as arrays of shape ``x.shape[:-1]``."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.shape != y.shape:
        raise ValueError(f"x has shape {x.shape} but y has shape {y.shape}")
    if not epsilon >= 0:
        raise ValueError(f"epsilon must be a non-negative number, got {epsilon!r}")
    lead, n = x.shape[:-1], x.shape[-1]
    flat_x, flat_y = x.reshape(-1, n), y.reshape(-1, n)
    counts = {k: np.empty(flat_x.shape[0]) for k in ("C", "D", "T_m", "T_h", "T_hm")}
    upper = np.triu(np.ones((n, n), dtype=bool), k=1)  # each unordered pair once
    for part in chunks(flat_x.shape[0], n * n, PAIRWISE_BUDGET):
        a, b = flat_x[part], flat_y[part]
        dx = a[:, :, None] - a[:, None, :]
        dy = b[:, :, None] - b[:, None, :]
        present = upper & np.isfinite(dx) & np.isfinite(dy)
        tie_m = np.abs(dx) <= epsilon
        tie_h = dy == 0
        sign = np.sign(dx) * np.sign(dy)
        for key, mask in (("C", ~tie_m & ~tie_h & (sign > 0)), ("D", ~tie_m & ~tie_h & (sign < 0)),
                          ("T_m", tie_m & ~tie_h), ("T_h", ~tie_m & tie_h), ("T_hm", tie_m & tie_h)):
            counts[key][part] = (mask & present).sum(axis=(-1, -2))
    return {k: v.reshape(lead) for k, v in counts.items()}


def pairwise_accuracy(x, y, ties: str = "accuracy", epsilon: float = 0.0) -> np.ndarray:
    """Pairwise accuracy of each row of metric scores ``x`` against human scores ``y``.

    ``ties`` names the convention: ``"accuracy"`` (metric ties wrong, the published Rank19
    convention), ``"accuracy-half"`` or ``"accuracy-eq"`` (module docstring). NaN where no pair
    counts (fewer than two present positions, or every pair tied by the humans under the first two).
    """
    if ties not in ACCURACIES:
        raise ValueError(f"unknown pairwise accuracy {ties!r}: use one of {', '.join(ACCURACIES)}")
    k = pair_counts(x, y, epsilon)
    with np.errstate(invalid="ignore", divide="ignore"):
        if ties == "accuracy-eq":
            total = k["C"] + k["D"] + k["T_m"] + k["T_h"] + k["T_hm"]
            return np.where(total > 0, (k["C"] + k["T_hm"]) / total, np.nan)
        total = k["C"] + k["D"] + k["T_m"]
        right = k["C"] + (k["T_m"] / 2 if ties == "accuracy-half" else 0.0)
        return np.where(total > 0, right / total, np.nan)
