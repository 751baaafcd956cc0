"""Bootstrap draws, percentile intervals and the chunks resampled statistics are computed in: numpy only,
so that scoring a corpus with an interval (``rougelab.corpus``) or comparing systems (``rougelab.compare``)
does not load SciPy's statistics."""
from __future__ import annotations

from typing import Iterator

import numpy as np

RESAMPLE = ("both", "systems", "inputs")
DEFAULT_SEED = 12345  # of rougelab score and compare: sacreBLEU's default (SACREBLEU_SEED)
CHUNK_ELEMENTS = 2_000_000  # array entries one chunk builds: 16 MB of float64 per temporary


def chunks(count: int, entries_each: int, budget: int = CHUNK_ELEMENTS) -> Iterator[slice]:
    """Slices of ``range(count)`` (resamples, rows) taken together so that a chunk's ``entries_each``
    array entries per item stay within ``budget`` (at least one item a chunk)."""
    step = max(1, budget // max(1, entries_each))
    return (slice(start, start + step) for start in range(0, count, step))


def check_resample(resample: str) -> None:
    """Raise ``ValueError`` unless ``resample`` is one of ``RESAMPLE``."""
    if resample not in RESAMPLE:
        raise ValueError(f"unknown resample {resample!r}: use one of {', '.join(RESAMPLE)}")


def draw_indices(rng: np.random.Generator, n_systems: int, n_inputs: int, n_resamples: int,
                 resample: str = "both") -> tuple[np.ndarray, np.ndarray]:
    """Row and column indices of ``n_resamples`` bootstrap samples, drawn with replacement.

    The draws, in this order: ``rng.integers(0, n_systems, (n_resamples, n_systems))`` when
    systems are resampled, then ``rng.integers(0, n_inputs, (n_resamples, n_inputs))`` when inputs
    are; what is not resampled is kept whole (``arange``). Resample b is ``X[rows[b]][:, cols[b]]``.
    """
    check_resample(resample)
    if resample in ("both", "systems"):
        rows = rng.integers(0, n_systems, size=(n_resamples, n_systems))
    else:
        rows = np.broadcast_to(np.arange(n_systems), (n_resamples, n_systems))
    if resample in ("both", "inputs"):
        cols = rng.integers(0, n_inputs, size=(n_resamples, n_inputs))
    else:
        cols = np.broadcast_to(np.arange(n_inputs), (n_resamples, n_inputs))
    return rows, cols


def percentile_interval(samples: np.ndarray, confidence: float = 0.95) -> tuple[float, float]:
    """The (1 - confidence)/2 and (1 + confidence)/2 quantiles of the defined samples (NaN ignored).

    Quantiles by ``np.quantile``'s default linear interpolation.
    """
    samples = np.asarray(samples, dtype=float)
    defined = samples[np.isfinite(samples)]
    if defined.size == 0:
        return float("nan"), float("nan")
    alpha = 1.0 - confidence
    low, high = np.quantile(defined, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)
