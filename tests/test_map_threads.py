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


@pytest.mark.parametrize("threads, names", [("2", "['rougelab_0']"), ("3", "['rougelab_0', 'rougelab_1']"),
                                            ("1", "[]")])
def test_start_threads_starts_every_thread_of_the_pool_once(threads, names):
    """``start_threads`` starts every pool thread ``map_threads`` uses (one fewer than the threads: the caller
    works too; none with one thread), once: later calls and work find them running."""
    env = {**os.environ, "NUMBA_NUM_THREADS": threads}
    done = subprocess.run([sys.executable, "-c", STARTED], env=env, capture_output=True, text=True, check=True,
                          timeout=120)
    assert done.stdout.splitlines() == [f"[] {names} {names} [2, 3] {names}"]


WHO_WORKS = """
import threading
from rougelab import _jit
met = threading.Barrier(3)  # each item waits for two others: three threads hold one each at once
def item(x):
    met.wait(timeout=30)
    return x, threading.current_thread().name, _jit.get_num_threads()
print(sorted(name for _, name, _ in _jit.map_threads(item, [0, 1, 2])))
print([x for x, _, _ in _jit.map_threads(item, [0, 1, 2])], {n for _, _, n in _jit.map_threads(item, [0, 1, 2])})
print(_jit.map_threads(lambda x: 2 * x, list(range(100))) == [2 * x for x in range(100)], _jit.get_num_threads())
"""


def test_map_threads_runs_items_on_the_calling_thread_and_the_pool():
    """The caller scores items too, beside one fewer pool thread than ``NUMBA_NUM_THREADS``, each of them serial
    inside (``get_num_threads()`` 1) and the caller's count restored after; results in the items' order."""
    env = {**os.environ, "NUMBA_NUM_THREADS": "3"}
    done = subprocess.run([sys.executable, "-c", WHO_WORKS], env=env, capture_output=True, text=True, check=True,
                          timeout=120)
    assert done.stdout.splitlines() == ["['MainThread', 'rougelab_0', 'rougelab_1']", "[0, 1, 2] {1}", "True 3"]


FAILING = """
import threading, time
from rougelab import _jit
taken = []
def item(x):
    taken.append(x)
    if x == 0:
        raise ValueError("item 0")
    time.sleep(0.05)
    return x
try:
    _jit.map_threads(item, list(range(50)))
except ValueError as err:
    at_error = len(taken)
    time.sleep(0.5)  # a thread still running would take more
    print(err, len(taken) == at_error < 50, _jit.get_num_threads())
"""


def test_map_threads_raises_an_items_error_and_takes_no_item_after_it():
    """An item's error reaches the caller once every thread has stopped: none takes an item after it (the pool's
    threads went on through every item before)."""
    env = {**os.environ, "NUMBA_NUM_THREADS": "2"}
    done = subprocess.run([sys.executable, "-c", FAILING], env=env, capture_output=True, text=True, check=True,
                          timeout=120)
    assert done.stdout.splitlines() == ["item 0 True 2"]


TAIL = """
import threading, time
from rougelab import _jit
from rougelab.tail_work import tail_work
ran, met = [], threading.Barrier(2)
job = lambda: ran.append(threading.current_thread().name)
def item(x):
    met.wait(timeout=30)  # both threads hold an item: the one of item 0 finds none left while item 1 runs
    time.sleep(0.2 * x)
    return x, list(ran)
with tail_work(job):
    out = _jit.map_threads(item, [0, 1])
    during = list(ran)
print(len(during), [x for x, _ in out], out[1][1] == during)
with tail_work(job):
    _jit.map_threads(lambda x: x, [0])  # one item, on the calling thread alone
    alone = len(ran)
print(alone, len(ran), ran[-1])
try:
    with tail_work(job):
        raise KeyError
except KeyError:
    print(len(ran))
"""


def test_a_tail_work_job_runs_once_on_a_thread_out_of_items():
    """``tail_work``'s job runs on the first thread of a threaded map that finds no item left, while another
    still runs its last item, once; with no thread left over it runs as the block ends, and not when the
    block raises."""
    env = {**os.environ, "NUMBA_NUM_THREADS": "2"}
    done = subprocess.run([sys.executable, "-c", TAIL], env=env, capture_output=True, text=True, check=True,
                          timeout=120)
    assert done.stdout.splitlines() == ["1 [0, 1] True", "1 2 MainThread", "2"]


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
