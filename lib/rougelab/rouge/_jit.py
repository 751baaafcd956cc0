"""Optional numba compilation of the array kernels, with the pure-Python source as the fallback.

Set ``ROUGELAB_NO_NUMBA=1`` to run the pure-Python versions (the tests run both).
"""
from __future__ import annotations

import os

try:
    import numba
except ImportError:  # pragma: no cover - numba is a pinned dependency
    numba = None

NUMBA = numba is not None and os.environ.get("ROUGELAB_NO_NUMBA", "") not in ("1", "true", "yes")


def jit(func):
    """``func`` compiled with numba (nopython, cached) when available; the function itself otherwise.

    The pure-Python original stays reachable as ``.py_func`` either way.
    """
    if not NUMBA:
        func.py_func = func
        return func
    return numba.njit(cache=True, nogil=True)(func)
