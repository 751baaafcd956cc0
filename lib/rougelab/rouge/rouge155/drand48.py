"""Perl's ``srand``/``rand``: the 48-bit linear congruential generator drand48.

Perl (5.20 and later, on every platform) ships its own drand48: the state is 48 bits,
``srand(s)`` sets it to ``(s << 16) + 0x330E`` (``s`` taken modulo 2**32), each draw advances it
by ``x <- (0x5DEECE66D * x + 0xB) mod 2**48`` and returns ``x / 2**48``; ``rand(n)`` is that
value times ``n``. ROUGE-1.5.5 seeds resample ``i`` of its bootstrap with ``srand(i)``.
"""
from __future__ import annotations

import numpy as np

_A = 0x5DEECE66D
_C = 0xB
_MASK = (1 << 48) - 1
_SEED_LOW = 0x330E
_SCALE = 2.0 ** -48


class Drand48:
    """One Perl random stream, as after ``srand(seed)``."""

    def __init__(self, seed: int):
        self.state = (((seed & 0xFFFFFFFF) << 16) | _SEED_LOW) & _MASK

    def random(self) -> float:
        """The next ``rand()``: a float in [0, 1)."""
        self.state = (_A * self.state + _C) & _MASK
        return self.state * _SCALE

    def rand(self, n: float) -> float:
        """Perl's ``rand(n)``."""
        return self.random() * n


def resample_indices(n_resamples: int, n_instances: int) -> np.ndarray:
    """Perl's ``int(rand(n))`` draws of ROUGE-1.5.5's bootstrap, all resamples at once.

    Row ``i`` holds the ``n_instances`` indices drawn after ``srand(i)``, in draw order.

    Returns
    -------
    numpy.ndarray of int64, shape (n_resamples, n_instances)
    """
    state = (((np.arange(n_resamples, dtype=np.uint64) & np.uint64(0xFFFFFFFF)) << np.uint64(16))
             | np.uint64(_SEED_LOW))
    out = np.empty((n_resamples, n_instances), dtype=np.int64)
    a, c, mask = np.uint64(_A), np.uint64(_C), np.uint64(_MASK)
    for j in range(n_instances):
        state = (a * state + c) & mask          # uint64 wraps mod 2**64; the mask keeps 48 bits
        out[:, j] = (state.astype(np.float64) * _SCALE * n_instances).astype(np.int64)
    return out
