"""Optional numba compilation of the array kernels, with the pure-Python source as the fallback.

Set ``ROUGELAB_NO_NUMBA=1`` to run the pure-Python versions (the tests run both). ``jit_parallel``
kernels spread their ``prange`` loops over numba's threads (``NUMBA_NUM_THREADS`` limits them;
``get_num_threads`` tells how many); without numba ``prange`` is ``range``.
"""
from __future__ import annotations

import os

try:
    import numba
except ImportError:  # pragma: no cover - numba is a pinned dependency
    numba = None

NUMBA = numba is not None and os.environ.get("ROUGELAB_NO_NUMBA", "") not in ("1", "true", "yes")
prange = numba.prange if NUMBA else range
# Threads a ``prange`` loop may use; 1 without numba. Call it outside the kernels and pass the number
# in: read inside compiled code, it keeps numba from caching the kernel on disk.
get_num_threads = numba.get_num_threads if NUMBA else (lambda: 1)


def jit(func):
    """``func`` compiled with numba (nopython, cached) when available; the function itself otherwise.

    The pure-Python original stays reachable as ``.py_func`` either way.
    """
    if not NUMBA:
        func.py_func = func
        return func
    return numba.njit(cache=True, nogil=True)(func)


def jit_parallel(func):
    """Like ``jit``, with numba's ``parallel=True`` so that ``prange`` loops run on several threads."""
    if not NUMBA:
        func.py_func = func
        return func
    return numba.njit(cache=True, nogil=True, parallel=True)(func)
