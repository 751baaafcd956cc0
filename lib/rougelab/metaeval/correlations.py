"""Pearson, Spearman and Kendall coefficients, batched over the last axis, NaN = absent.

``coefficient`` also dispatches the pairwise accuracies of ``pairwise_accuracy`` (``accuracy``,
``accuracy-half``, ``accuracy-eq``), which follow the same batching; they are defined for a
constant metric (every pair a metric tie), unlike the correlations.

Each function takes arrays ``x`` and ``y`` of the same shape ``(..., n)`` and returns the
coefficient of every row (shape ``(...)``), using only positions where both are finite (SciPy's
``nan_policy="omit"``). A row with fewer than two such positions, or whose ``x`` or ``y`` is
constant there, gets NaN (the coefficient is undefined), as SciPy returns.
"""
from __future__ import annotations

import numpy as np
from scipy import stats

from rougelab.metaeval.pairwise_accuracy import ACCURACIES, PAIRWISE_BUDGET, pairwise_accuracy
from rougelab.metaeval.resampling import chunks

CORRELATIONS = ("pearson", "spearman", "kendall")
COEFFICIENTS = CORRELATIONS + ACCURACIES
KENDALL_VARIANTS = ("b", "c")

# Kendall's tau by pairwise signs costs n^2 memory per row; beyond this many points a row is
# handed to scipy.stats.kendalltau (O(n log n)) instead.
_PAIRWISE_MAX_N = 128


def check_coefficient(coef: str, kendall_variant: str = "b") -> None:
    """Raise ``ValueError`` unless ``coef`` and ``kendall_variant`` are known names."""
    if coef not in COEFFICIENTS:
        raise ValueError(f"unknown coef {coef!r}: use one of {', '.join(COEFFICIENTS)}")
    if kendall_variant not in KENDALL_VARIANTS:
        raise ValueError(f"unknown kendall_variant {kendall_variant!r}: use 'b' (tau-b) or 'c' "
                         "(tau-c)")


def _pairs(x, y):
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.shape != y.shape:
        raise ValueError(f"x has shape {x.shape} but y has shape {y.shape}")
    mask = np.isfinite(x) & np.isfinite(y)
    return x, y, mask


def _constant(values, mask):
    """True where a row's valid values are all equal (or there are none)."""
    hi = np.where(mask, values, -np.inf).max(axis=-1)
    lo = np.where(mask, values, np.inf).min(axis=-1)
    return ~(hi > lo)


def pearson(x, y) -> np.ndarray:
    """Pearson's r of each row of ``x`` and ``y`` (NaN where undefined)."""
    x, y, mask = _pairs(x, y)
    n = mask.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        dx = np.where(mask, x - (np.where(mask, x, 0).sum(axis=-1) / n)[..., None], 0.0)
        dy = np.where(mask, y - (np.where(mask, y, 0).sum(axis=-1) / n)[..., None], 0.0)
        r = (dx * dy).sum(axis=-1) / np.sqrt((dx * dx).sum(axis=-1) * (dy * dy).sum(axis=-1))
    r = np.clip(r, -1.0, 1.0)
    undefined = (n < 2) | _constant(x, mask) | _constant(y, mask)
    return np.where(undefined, np.nan, r)


def _ranks(values, mask):
    # Absent positions rank last (as +inf), so present positions get their ranks among themselves.
    return stats.rankdata(np.where(mask, values, np.inf), axis=-1)


def spearman(x, y) -> np.ndarray:
    """Spearman's rho (Pearson's r of average ranks) of each row (NaN where undefined)."""
    x, y, mask = _pairs(x, y)
    rho = pearson(np.where(mask, _ranks(x, mask), np.nan), np.where(mask, _ranks(y, mask), np.nan))
    return np.where(_constant(x, mask) | _constant(y, mask), np.nan, rho)


def _distinct(values, mask):
    ordered = np.sort(np.where(mask, values, np.nan), axis=-1)
    changes = (np.diff(ordered, axis=-1) != 0) & np.isfinite(ordered[..., 1:])
    return np.where(mask.any(axis=-1), 1 + changes.sum(axis=-1), 0)


def _kendall_pairwise(x, y, mask, variant):
    sx = np.sign(x[..., :, None] - x[..., None, :])
    sy = np.sign(y[..., :, None] - y[..., None, :])
    both = mask[..., :, None] & mask[..., None, :]
    sx = np.where(both, sx, 0.0)
    sy = np.where(both, sy, 0.0)
    # Every unordered pair is counted twice in the full n x n sums; the factor cancels in tau-b.
    s = (sx * sy).sum(axis=(-1, -2)) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        if variant == "b":
            tau = s / np.sqrt((sx * sx).sum(axis=(-1, -2)) / 2 * (sy * sy).sum(axis=(-1, -2)) / 2)
        else:
            n = mask.sum(axis=-1)
            m = np.minimum(_distinct(x, mask), _distinct(y, mask))
            tau = 2 * s / (n.astype(float) ** 2 * (m - 1) / m)
    return np.clip(tau, -1.0, 1.0)


def kendall(x, y, variant: str = "b") -> np.ndarray:
    """Kendall's tau-b (``variant="b"``) or Stuart's tau-c (``"c"``) of each row.

    tau-b = (C - D) / sqrt((n0 - n1)(n0 - n2)); tau-c = 2 (C - D) / (n^2 (m - 1) / m), with m the
    smaller number of distinct values of x and y (the definitions of ``scipy.stats.kendalltau``).
    """
    check_coefficient("kendall", variant)
    x, y, mask = _pairs(x, y)
    lead = x.shape[:-1]
    n = x.shape[-1]
    flat_x, flat_y, flat_m = (a.reshape(-1, n) for a in (x, y, mask))
    out = np.empty(flat_x.shape[0])
    if n <= _PAIRWISE_MAX_N:
        for part in chunks(flat_x.shape[0], n * n, PAIRWISE_BUDGET):
            out[part] = _kendall_pairwise(flat_x[part], flat_y[part], flat_m[part], variant)
    else:
        for row in range(flat_x.shape[0]):
            keep = flat_m[row]
            if keep.sum() < 2:
                out[row] = np.nan
                continue
            out[row] = stats.kendalltau(flat_x[row, keep], flat_y[row, keep],
                                        variant=variant).statistic
    out = out.reshape(lead)
    undefined = (mask.sum(axis=-1) < 2) | _constant(x, mask) | _constant(y, mask)
    return np.where(undefined, np.nan, out)


def coefficient(x, y, coef: str = "pearson", kendall_variant: str = "b") -> np.ndarray:
    """The named coefficient (one of ``COEFFICIENTS``) of each row of x (metric) and y (human)."""
    check_coefficient(coef, kendall_variant)
    if coef in ACCURACIES:
        return pairwise_accuracy(x, y, coef)
    if coef == "pearson":
        return pearson(x, y)
    if coef == "spearman":
        return spearman(x, y)
    return kendall(x, y, kendall_variant)
