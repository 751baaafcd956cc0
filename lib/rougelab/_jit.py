"""Optional numba compilation of the array kernels, with the pure-Python source as the fallback.

Every numba use in the package goes through this module. Set ``ROUGELAB_NO_NUMBA=1`` to run the
pure-Python versions (the tests run both). ``jit_parallel``
kernels spread their ``prange`` loops over numba's threads (``NUMBA_NUM_THREADS`` limits them;
``get_num_threads`` tells how many); without numba ``prange`` is ``range``.

Numba's OpenMP threads sleep between parallel loops (``OMP_WAIT_POLICY=PASSIVE`` unless the
environment says otherwise, read once when OpenMP loads): by default they spin, and a spinning thread
takes the core from the one still working whenever anything else runs beside it (``pytest -n 2``, a
notebook next to a benchmark). With one of our 2 cores busy, spinning made a 2,000-pair ROUGE-1/2/L batch
4x slower (53 ms) than sleeping (13 ms).
"""
from __future__ import annotations

import os
import types
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

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


def jit_parallel(func):
    """Like ``jit``, with numba's ``parallel=True`` so that ``prange`` loops run on several threads.

    Its ``.serial`` is the same code compiled without threads (cached under its own name): waking numba's
    sleeping threads costs about 20 microseconds a call, more than the whole work of a small batch.
    ``sized`` picks one of the two for an amount of work.
    """
    func.serial = func
    if not NUMBA:
        func.py_func = func
        return func
    twin = types.FunctionType(func.__code__, func.__globals__, func.__name__, func.__defaults__, func.__closure__)
    twin.__qualname__ = f"{func.__qualname__}_serial"
    kernel = numba.njit(cache=True, nogil=True, parallel=True)(func)
    kernel.serial = numba.njit(cache=True, nogil=True)(twin)
    return kernel


PARALLEL_FROM = 30_000  # tokens of work from which a ``jit_parallel`` kernel's threads pay off (about
# 250 pairs of 60-word texts, measured on 2 cores)


def sized(kernel, tokens: int):
    """``kernel`` (a ``jit_parallel`` kernel) for work over ``tokens`` tokens: its ``serial`` twin below
    ``PARALLEL_FROM`` tokens or with one thread."""
    return kernel if tokens >= PARALLEL_FROM and get_num_threads() > 1 else kernel.serial


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
