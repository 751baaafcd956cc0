"""Optional numba compilation of the array kernels, with the pure-Python source as the fallback.

Every numba use in the package goes through this module. Set ``ROUGELAB_NO_NUMBA=1`` to run the
pure-Python versions (the tests run both). ``jit_parallel``
kernels spread their ``prange`` loops over numba's threads (``NUMBA_NUM_THREADS`` limits them;
``get_num_threads`` tells how many); without numba ``prange`` is ``range``.

Numba's OpenMP threads sleep between parallel loops (``OMP_WAIT_POLICY=PASSIVE`` unless the
environment says otherwise, read once when OpenMP loads): by default they spin, and a spinning thread
takes the core from the one still working whenever anything else runs beside it (``pytest -n 2``, a
notebook next to a benchmark). With one of our 2 cores busy, spinning made a 2,000-pair ROUGE-1/2/L batch
4x slower (53 ms) than sleeping (13 ms), when classic ROUGE still ran on these threads (it now uses
``map_threads``; the bootstrap and ROUGE-G's Sim_sem kernels still do).
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

import numpy as np

try:
    import numba
except ImportError:  # pragma: no cover - numba is a pinned dependency
    numba = None

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

NUMBA = numba is not None and os.environ.get("ROUGELAB_NO_NUMBA", "") not in ("1", "true", "yes")
prange = numba.prange if NUMBA else range
# Threads a ``prange`` loop may use; 1 without numba. Call it outside the kernels and pass the number
# in: read inside compiled code, it keeps numba from caching the kernel on disk.
get_num_threads = numba.get_num_threads if NUMBA else (lambda: 1)
set_num_threads = numba.set_num_threads if NUMBA else (lambda n: None)
# Inside a ``jit_parallel`` kernel: the running thread's number (0 .. max_threads() - 1).
get_thread_id = numba.get_thread_id if NUMBA else (lambda: 0)


def max_threads() -> int:
    """The most threads a ``prange`` loop can ever use (``NUMBA_NUM_THREADS``; 1 without numba)."""
    return numba.config.NUMBA_NUM_THREADS if NUMBA else 1


def jit(func):
    """``func`` compiled with numba (nopython, cached) when available; the function itself otherwise.

    The pure-Python original stays reachable as ``.py_func`` either way.
    """
    if not NUMBA:
        func.py_func = func
        return func
    return numba.njit(cache=True, nogil=True)(func)


def jitable(func):
    """Let compiled kernels call ``func``, a plain Python function that stays one (numba's
    ``register_jitable``): the one implementation of some arithmetic for Python and kernels alike."""
    if NUMBA:
        from numba.extending import register_jitable

        register_jitable(func)
    return func


def jit_parallel(func):
    """Like ``jit``, with numba's ``parallel=True`` so that ``prange`` loops run on several threads."""
    if not NUMBA:
        func.py_func = func
        return func
    return numba.njit(cache=True, nogil=True, parallel=True)(func)


PARALLEL_FROM = 30_000  # tokens of work from which threads pay off: about 250 pairs of 60-word texts on
# 2 cores, below which handing the parts to the threads cost more than it saved


def parts_of(work: np.ndarray, minimum: int | None = None) -> list[tuple[int, int]]:
    """Contiguous ranges ``(lo, hi)`` of the items whose ``work`` is given, one per thread (``map_threads``),
    about equal in work; a single range below ``minimum`` (default ``PARALLEL_FROM``) in all or with one
    thread."""
    total = int(work.sum())
    n = min(get_num_threads(), len(work)) if total >= (PARALLEL_FROM if minimum is None else minimum) else 1
    if n <= 1:
        return [(0, len(work))]
    cuts = [0, *np.searchsorted(np.cumsum(work), np.arange(1, n) * total // n, side="right").tolist(), len(work)]
    return [(lo, hi) for lo, hi in zip(cuts[:-1], cuts[1:]) if hi > lo]


def map_threads(function, items: list) -> list:
    """``[function(x) for x in items]`` on as many threads as numba may use (``NUMBA_NUM_THREADS``), each
    running the compiled kernels single-threaded (they release the GIL): independent pieces of work in
    parallel need no synchronisation, and a core busy with other work just takes fewer of them. The
    threads are kept for the process; inside them ``get_num_threads()`` is 1, so work nested in one
    runs serially."""
    n = min(get_num_threads(), len(items))
    if n <= 1:
        return [function(x) for x in items]

    def work(x):
        set_num_threads(1)    # this thread's kernels only
        return function(x)

    return list(_pool(get_num_threads()).map(work, items))


@lru_cache(maxsize=None)
def _pool(n: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(n, thread_name_prefix="rougelab")


# R/P/F and its rounding (``rougelab.scoring``) are plain Python: registered here, before any kernel that
# calls them compiles, since every kernel module imports this one.
from rougelab import scoring  # noqa: E402 (scoring imports nothing of the package)

for _arithmetic in (scoring.round_decimals, scoring.with_f, scoring.prf):
    jitable(_arithmetic)
