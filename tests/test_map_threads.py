"""``map_threads`` spreads classic ROUGE over our own threads without starting numba's thread pool (which a
first large call paid for, about 4 ms), and work nested in one of its threads runs serially."""
import os
import subprocess
import sys

import numpy as np
import pytest

from rougelab import _jit

pytestmark = pytest.mark.skipif(not _jit.NUMBA, reason="numba disabled (ROUGELAB_NO_NUMBA)")

CODE = """
from numba.np.ufunc import parallel
from rougelab import _jit
print(_jit.get_num_threads(), _jit.map_threads(lambda x: _jit.get_num_threads(), [0, 1]), parallel._is_initialized)
import numba
numba.set_num_threads(1)  # starts numba's pool; the count it sets is read from then on
print(_jit.get_num_threads(), parallel._is_initialized)
"""


def test_thread_counts_without_starting_numbas_pool():
    env = {**os.environ, "NUMBA_NUM_THREADS": "2"}
    done = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["2 [1, 1] False", "1 True"]


STARTED = """
import threading
from rougelab import _jit
def ours():
    return sorted(t.name for t in threading.enumerate() if t.name.startswith("rougelab"))
before = ours()
_jit.start_threads()
started = ours()
_jit.start_threads()  # running already: nothing more
print(before, started, ours(), _jit.map_threads(lambda x: x + 1, [1, 2]), ours())
"""


@pytest.mark.parametrize("threads, names", [("2", "['rougelab_0', 'rougelab_1']"), ("1", "[]")])
def test_start_threads_starts_every_thread_of_the_pool_once(threads, names):
    """``start_threads`` starts every thread ``map_threads`` uses (none with one thread), once: later calls and
    work find them running."""
    env = {**os.environ, "NUMBA_NUM_THREADS": threads}
    done = subprocess.run([sys.executable, "-c", STARTED], env=env, capture_output=True, text=True, check=True,
                          timeout=120)
    assert done.stdout.splitlines() == [f"[] {names} {names} [2, 3] {names}"]


AT_ONCE = """
import os, sys, threading
from rougelab import _jit
sys.setswitchinterval(1e-6)  # threads take turns all the time: one caller's barrier work interleaves with another's
for _ in range(200):
    callers = [threading.Thread(target=_jit.start_threads, daemon=True) for _ in range(2)]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join(timeout=10)
    if any(caller.is_alive() for caller in callers):
        print("the threads wait for ever")
        break
else:
    print("done")
sys.stdout.flush()
os._exit(0)  # not the interpreter's exit, which would wait for the pool's threads
"""


def test_start_threads_called_by_several_threads_at_once():
    """Two callers of ``start_threads`` at once: each barrier waits for every thread of the pool, so two of them
    sharing its threads waited for ever (with the threads taking turns often, within 200 tries)."""
    env = {**os.environ, "NUMBA_NUM_THREADS": "2"}
    done = subprocess.run([sys.executable, "-c", AT_ONCE], env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines() == ["done"], done.stderr[-2000:]


FORKED = """
import multiprocessing
from rougelab import _jit

def square(x):
    return x * x

def in_child(_):
    return _jit.map_threads(square, [1, 2, 3])

print(_jit.map_threads(square, [1, 2, 3]))  # the parent's threads are running
with multiprocessing.get_context("fork").Pool(1) as pool:  # Linux's default start method
    try:
        print(pool.apply_async(in_child, [0]).get(timeout=30))
    except multiprocessing.TimeoutError:
        print("the forked child waits for ever")
"""


def test_map_threads_in_a_forked_child():
    """A child forked after the parent's first ``map_threads`` (a ``multiprocessing`` pool on Linux) has a pool
    of its own: the inherited one has no threads, and work handed to it waited for ever (any ``rouge`` call of
    500 pairs or more in the child hung)."""
    env = {**os.environ, "NUMBA_NUM_THREADS": "2"}
    done = subprocess.run([sys.executable, "-c", FORKED], env=env, capture_output=True, text=True, check=True,
                          timeout=120)
    assert done.stdout.splitlines() == ["[1, 4, 9]", "[1, 4, 9]"]


def test_pair_stats_reads_the_parallel_threshold_when_called(monkeypatch):
    """``pair_stats`` keeps a batch too small for threads in one part by ``_jit.PARALLEL_FROM`` as it is at the
    call (a setting changed after import, as tests/test_rouge_fast_path.py changes it, is obeyed), and its parts
    give the one part's numbers."""
    from rougelab.rouge import batch as batch_module
    from rougelab.rouge.api import _kernel_measures, parse_measure
    from rougelab.rouge.options import RougeOptions

    texts = ["a b c d", "a c d e", "b c e f", "a b d f"]
    encoded = batch_module.EncodedBatch(texts, "newline", RougeOptions(stem=False))
    layout = _kernel_measures(tuple(parse_measure(m) for m in ("rouge-1", "rouge-2", "rouge-l")))
    peers, models = np.array([0, 2], dtype=np.int64), np.array([1, 3], dtype=np.int64)
    parts = []
    monkeypatch.setattr(_jit, "get_num_threads", lambda: 2)
    monkeypatch.setattr(batch_module, "map_threads", lambda function, items: parts.append(items) or
                        [function(item) for item in items])

    def stats():
        return batch_module.pair_stats(encoded, peers, models, layout.grams, layout.lcs_weights, layout.lcs_is_w)

    whole = stats()
    monkeypatch.setattr(_jit, "PARALLEL_FROM", 0)
    in_parts = stats()
    assert parts == [[(0, 1), (1, 2)]]
    assert np.array_equal(whole, in_parts) and whole[:, 0, 1].tolist() == [3.0, 2.0]  # unigram hits
