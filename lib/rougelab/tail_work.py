"""Work that can wait for the idle end of a threaded map (``tail_work``).

A batch scored on several threads (``rougelab._jit.map_threads``) ends with a thread that finds no item left while
another finishes its last one, and a core idles until then. ``tail_work(job)`` hands the threaded maps of a block
a job that needs nothing the block computes: the first thread that runs out of items runs it. The score cache
makes the key of a batch no entry can hold there, and opens the batch's entries' files
(``score_cache.cached_scores``). Nothing here loads numba.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator

_JOBS: ContextVar[list | None] = ContextVar("rougelab_tail_jobs", default=None)


@contextmanager
def tail_work(job: Callable[[], None]) -> Iterator[None]:
    """Run ``job()`` once: on the first thread of a threaded map inside the block that finds no item left, or,
    where none does (no map, or one on a single thread), when the block ends without an error. ``job`` must not
    raise (keep its error for whoever asks for its result): a thread of the map would raise it as the map's."""
    jobs = [job]
    token = _JOBS.set(jobs)
    try:
        yield
    finally:
        _JOBS.reset(token)
    run_jobs(jobs)


def pending_jobs() -> list | None:
    """The jobs of the ``tail_work`` block the caller is in (None outside one), for a threaded map to hand to
    its threads (``run_jobs``): read on the calling thread, whose context holds them."""
    return _JOBS.get()


def run_jobs(jobs: list | None) -> None:
    """Take and run ``jobs`` one at a time until none is left; several threads may call it at once (``pop``
    holds the interpreter lock: each job runs once)."""
    while jobs:
        try:
            job = jobs.pop()
        except IndexError:  # another thread took the last one
            return
        job()
