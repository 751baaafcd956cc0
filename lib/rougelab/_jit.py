"""Optional numba compilation of the array kernels, with the pure-Python source as the fallback.

Every numba use in the package goes through this module. Set ``ROUGELAB_NO_NUMBA=1`` to run the
pure-Python versions (the tests run both). ``jit_parallel``
kernels spread their ``prange`` loops over numba's threads (``NUMBA_NUM_THREADS`` limits them;
``get_num_threads`` tells how many); without numba ``prange`` is ``range``.

Numba's OpenMP threads sleep between parallel loops: the first call of a ``jit_parallel`` kernel sets
``OMP_WAIT_POLICY=PASSIVE`` unless the environment already says otherwise (OpenMP reads it once, when it
loads; importing rougelab changes no setting). By default they spin, and a spinning thread
takes the core from the one still working whenever anything else runs beside it (``pytest -n 2``, a
notebook next to a benchmark). With one of our 2 cores busy, spinning made a 2,000-pair ROUGE-1/2/L batch
4x slower (53 ms) than sleeping (13 ms), when classic ROUGE still ran on these threads (it now uses
``map_threads``; the bootstrap and ROUGE-G's Sim_sem kernels still do).

Compiling costs 0.2 to 1.8 s a kernel, far more than a small batch's pure-Python run. So classic ROUGE's batch
path (the byte scan, ``tokenizer="unicode"``'s ASCII pass, ``rouge.batch``'s kernels, ``best_f_rpf``) and
ROUGE-1.5.5's pair-by-pair path of length limits and Lin's ROUGE-W (``rouge.core``) call their kernels through
``run_kernel`` / ``compiled_or_python``: a kernel neither compiled in this process nor
kept on disk runs as its Python source, with its whole call tree (``python_twin``), until the Python seconds
it has cost, the batch at hand included, would reach about its compile cost (``COMPILE_SECONDS``, rent or
buy); then it compiles. A fresh environment's small first call compiles nothing; a large one compiles the
kernels it needs at once. ``ROUGELAB_COMPILE_SECONDS=0`` compiles every kernel on its first call. Every other
kernel (the other metrics') compiles on its first call.

A kernel kept on disk is ready at once, which suits a process that makes many calls (a notebook, a benchmark's
warm process). Loading one is not free: the first load starts numba's compiler (``NUMBA_START_SECONDS``), each
kernel then costs ``LOAD_SECONDS``. Inside ``one_call()`` (the command line's scoring commands: one call in a
fresh process), for a call whose Python run would cost less than numba's start, a kernel kept on disk is rented
like one not compiled, with the cost of loading it as the price (``ROUGELAB_COMPILE_SECONDS`` does not set it):
a few texts run as Python (``rougelab score`` on one pair took 0.50 s against 0.99); a larger call, or a batch
whose Python run would cost more, loads at once.

numba keys a kernel it keeps on disk (``cache=True``) by the file the kernel is written in alone, and
freezes what the kernel reads from elsewhere (the helpers it calls, the constants it uses) into the
machine code: an edit to such a helper would leave the old code in use. So our kernels are kept in a
folder of the rougelab cache, ``numba/<kernel_key()>``, named by a digest of every file whose code they
compile (``kernel_sources``: this module, ``scoring.py`` and every module that imports this one; a test
checks that kernels read nothing from other rougelab modules) and of numba's and llvmlite's versions.
The folder is found when the first kernel is decorated, never at ``import rougelab``; numba's
``CACHE_DIR`` setting is pointed at it only while a kernel is decorated (when numba reads it).
"""
from __future__ import annotations

import hashlib
import os
import re
import threading
import types
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager
from functools import lru_cache, wraps
from pathlib import Path

import numpy as np

from rougelab.tail_work import pending_jobs, run_jobs

try:
    import numba
except ImportError:  # pragma: no cover - numba is a pinned dependency
    numba = None

NUMBA = numba is not None and os.environ.get("ROUGELAB_NO_NUMBA", "") not in ("1", "true", "yes")
prange = numba.prange if NUMBA else range
_in_pool = threading.local()  # ``.serial``: a thread runs ``map_threads``' items; ``.heap_ready``: ``_ready_heap`` ran


def get_num_threads() -> int:
    """Threads a ``prange`` loop or ``map_threads`` may use: 1 without numba and inside ``map_threads``' threads;
    otherwise numba's count, read without starting numba's thread pool (about 4 ms, once) when it has not
    started: until then no one can have lowered it from ``NUMBA_NUM_THREADS``. Call it outside the kernels
    and pass the number in: read inside compiled code, it keeps numba from caching the kernel on disk."""
    if not NUMBA or getattr(_in_pool, "serial", False):
        return 1
    from numba.np.ufunc import parallel

    started = getattr(parallel, "_is_initialized", True)  # numba 0.68's flag; without it, ask numba (which starts it)
    return numba.get_num_threads() if started else numba.config.NUMBA_NUM_THREADS


# Inside a ``jit_parallel`` kernel: the running thread's number (0 .. max_threads() - 1).
get_thread_id = numba.get_thread_id if NUMBA else (lambda: 0)


def max_threads() -> int:
    """The most threads a ``prange`` loop can ever use (``NUMBA_NUM_THREADS``; 1 without numba)."""
    return numba.config.NUMBA_NUM_THREADS if NUMBA else 1


def jit(func):
    """``func`` compiled with numba (nopython, cached in ``kernel_cache()``) when available; the function
    itself otherwise.

    The pure-Python original stays reachable as ``.py_func`` either way.
    """
    if not NUMBA:
        func.py_func = func
        return func
    return _compiled(func)


PACKAGE = Path(__file__).resolve().parent
_IMPORTS_THIS = re.compile(rb"^[ \t]*(?:from rougelab\._jit import|from rougelab import _jit\b|import rougelab\._jit\b)",
                           re.MULTILINE)


def kernel_sources(package: Path = PACKAGE) -> list[Path]:
    """The files of ``package`` whose code kernels compile: this module, ``scoring.py`` (the arithmetic
    registered below) and every module that imports this one (its kernels and ``jitable`` helpers)."""
    found = {package / "_jit.py", package / "scoring.py"}
    found.update(path for path in package.rglob("*.py") if _IMPORTS_THIS.search(path.read_bytes()))
    return sorted(found)


def kernel_key(package: Path = PACKAGE) -> str:
    """24 hex digits of the SHA-256 of ``kernel_sources`` (by relative path) and numba's and llvmlite's
    versions: the name of the folder our compiled kernels are kept in."""
    import llvmlite

    digest = hashlib.sha256(f"numba={numba.__version__}\0llvmlite={llvmlite.__version__}\0".encode())
    for path in kernel_sources(package):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:24]


@lru_cache(maxsize=1)
def kernel_cache() -> str | None:
    """The folder of our compiled kernels (``numba/<kernel_key()>`` in the rougelab cache); None when the
    cache cannot be made (kernels are then compiled in each process, never read from elsewhere)."""
    from rougelab.paths import CacheError, cache_dir

    try:
        return str(cache_dir("numba", kernel_key()))
    except CacheError:
        return None


def _compiled(func, **options):
    """numba's ``njit`` of ``func`` (nopython, releasing the GIL), kept on disk in ``kernel_cache()``."""
    folder = kernel_cache()
    if folder is None:
        return numba.njit(nogil=True, **options)(func)
    previous = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = folder  # read by numba when it decorates (its cache locator), and only then
    try:
        return numba.njit(cache=True, nogil=True, **options)(func)
    finally:
        numba.config.CACHE_DIR = previous


def jitable(func):
    """Let compiled kernels call ``func``, a plain Python function that stays one (numba's
    ``register_jitable``; ``.py_func`` is ``func`` itself): the one implementation of some arithmetic for
    Python and kernels alike, and the kernels' private helpers. numba compiles such a function inside each
    kernel that calls it, for the argument types (never a constant argument's literal type), with no machine
    code, Python wrapper or cache entry of its own: those a ``jit`` helper costs on a first call (about
    0.1 s each)."""
    if NUMBA:
        from numba.extending import register_jitable

        register_jitable(func)
    func.py_func = func
    return func


def jitable_inline(func):
    """``jitable`` inlined by numba into each kernel that calls it (``inline="always"``), for a small helper called
    in an inner loop: left to LLVM, such a helper taking arrays may stay a call that passes each array's fields on
    the stack (the byte scan's ``_token_key`` did, once a token: 10% of the scan)."""
    if NUMBA:
        from numba.extending import register_jitable

        register_jitable(inline="always")(func)
    func.py_func = func
    return func


def jitable_borrowing(func):
    """``jitable`` compiled without numba's reference counting (its ``_nrt`` flag off), for a helper that makes
    no array (making one fails to compile) and runs in a kernel's inner loop: its array arguments are
    borrowed from the caller, which holds them. numba otherwise adds one to each array argument's count on
    entry and takes it off on the way out, a locked add each, and keeps those pairs wherever the helper has
    more than one way out or drops an array before its end."""
    if NUMBA:
        from numba.extending import register_jitable

        register_jitable(_nrt=False)(func)
    func.py_func = func
    return func


def jit_parallel(func):
    """Like ``jit``, with numba's ``parallel=True`` so that ``prange`` loops run on several threads; called
    from Python only (its first call lets OpenMP's threads sleep, see the module docstring)."""
    if not NUMBA:
        func.py_func = func
        return func
    compiled = _compiled(func, parallel=True)

    @wraps(func)
    def call(*args):
        _sleeping_openmp_threads()
        if getattr(_in_pool, "serial", False):  # in a ``map_threads`` thread: this kernel on this thread only
            numba.set_num_threads(1)
        return compiled(*args)

    call.py_func = func
    return call


@lru_cache(maxsize=None)
def _sleeping_openmp_threads() -> None:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def _compile_seconds(value: str) -> float:
    """``COMPILE_SECONDS`` from ``ROUGELAB_COMPILE_SECONDS``'s text; refused unless seconds >= 0."""
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0:
        raise ValueError(f"ROUGELAB_COMPILE_SECONDS must be a number of seconds >= 0, got {value!r}")
    return seconds


# Compile a kernel once the Python seconds its pure-Python source has cost this process, the batch at hand
# included, would reach this: about what compiling one of the ROUGE kernels costs (0.2 to 1.8 s:
# benchmarks/RESULTS.md). A loop of small calls then spends at most about this much Python on a kernel before
# compiling it; a batch whose own Python run would cost this much compiles at once. ``ROUGELAB_COMPILE_SECONDS``
# sets it (0: every kernel compiles on its first call, as the benchmarks of warm processes want).
COMPILE_SECONDS = _compile_seconds(os.environ.get("ROUGELAB_COMPILE_SECONDS", "1"))

# What loading a kernel kept on disk costs a process (``one_call`` rents by them): numba's start on the first load
# (the first refresh of its target context, which imports numba's array, linear algebra, cffi, ...
# implementations: 0.38-0.44 s of CPU in a process that had imported what `rougelab score` imports, on a loaded
# 2-core machine; the whole command on one pair took 0.40-0.55 s more CPU loading its six kernels than running
# them as Python), then each kernel (3.5-15 ms; median 5).
NUMBA_START_SECONDS = 0.45
LOAD_SECONDS = 0.005

_ready: set = set()         # kernels called as they are from now on (compiled, kept on disk, or plain Python)
_python_seconds: dict = {}  # kernel -> estimated Python seconds spent on it (present: the disk was checked)
_kept: set = set()          # kernels found kept on disk (ready at once, but inside ``one_call()``)
_one_call = False           # inside ``one_call()``
_twins: dict = {}           # Python source -> its Python twin
_twin_globals: dict = {}    # id of a module's globals -> the twins' copy of them
_choosing = threading.Lock()
# Set by the first batch whose own Python run would reach ``COMPILE_SECONDS``: the process scores in bulk and has
# paid numba's start, so every kernel not yet ready compiles on its next call (the small ones, ``text_bounds`` and
# ``pooled_rpf``, would otherwise run a large batch in Python for a few calls: 0.5 s a call on 20,000 pairs).
_bulk = threading.Event()


def compiled_or_python(kernel, python_seconds: float):
    """What to call ``kernel`` (a ``jit`` kernel called from Python) with for a batch whose pure-Python run
    would take about ``python_seconds``: ``kernel`` itself once it is ready (compiled in this process, or
    kept on disk in ``kernel_cache()``), else its Python source with its whole call tree (``python_twin``),
    which compiles nothing, until the Python seconds spent on it, this batch's included, would reach
    ``COMPILE_SECONDS``: then ``kernel``, compiled by this call (rent or buy), and so is every kernel after a
    batch whose own Python run alone would reach it (``_bulk``). Inside ``one_call()`` a kernel kept on disk is
    rented the same way, at the price of loading it (``_loading_pays``). Once ready, one set lookup."""
    if kernel in _ready:
        return kernel
    with _choosing:
        if _found_ready(kernel):
            return kernel
        spent = _python_seconds[kernel] + python_seconds
        if python_seconds >= COMPILE_SECONDS:  # a batch worth compiling for: so is every kernel from now on
            _bulk.set()
        if kernel in _kept:
            bought = _loading_pays(kernel, python_seconds)
        else:
            bought = spent >= COMPILE_SECONDS or _bulk.is_set()
        if bought:
            _ready.add(kernel)
            return kernel
        _python_seconds[kernel] = spent
        return python_twin(kernel)


def _found_ready(kernel) -> bool:
    """Whether ``kernel`` is plain Python, compiled in this process or kept on disk (the disk looked at once; outside
    ``one_call()``), and so in ``_ready``; called holding ``_choosing``."""
    if not hasattr(kernel, "signatures") or kernel.signatures:  # plain Python, or compiled here already
        _ready.add(kernel)
        return True
    if kernel not in _python_seconds:
        _python_seconds[kernel] = 0.0
        if _on_disk(kernel):
            _kept.add(kernel)
    if kernel in _kept and not _one_call:
        _ready.add(kernel)
        return True
    return False


@contextmanager
def one_call(python_seconds: float = 0.0):
    """Score as a process that makes one call, such as a command line run, whose Python run the caller estimates at
    ``python_seconds`` (0: unknown). Below the cost of loading a kernel (``load_seconds``: numba's start, while it
    has not started), a kernel kept on disk is not ready at once within: it is rented like one not compiled
    (``compiled_or_python``), at the price of loading it rather than ``COMPILE_SECONDS`` (``_loading_pays``), since
    a few texts' Python run costs milliseconds. From that cost on, kept kernels are ready at once, as outside: a
    kernel's batch is often a piece of the call (``api._score_batch``), whose Python run alone would not reach
    it. Kernels not kept on disk keep their rule; the choices made stand after it."""
    global _one_call
    outer, _one_call = _one_call, python_seconds < load_seconds()
    try:
        yield
    finally:
        _one_call = outer


def _loading_pays(kernel, batch_seconds: float) -> bool:
    """Inside ``one_call()``: whether loading ``kernel``, kept on disk, costs no more (``load_seconds``) than the
    Python it has cost and a batch of ``batch_seconds`` would; numba's start is one cost for every kernel, so until
    it has started the Python of every kernel kept on disk counts (the scan's is about half of a ROUGE-1 call's)."""
    spent = _python_seconds[kernel] if _numba_started() else sum(_python_seconds[k] for k in _kept)
    return spent + batch_seconds >= load_seconds()


def load_seconds() -> float:
    """What loading one more kernel kept on disk would cost this process: ``LOAD_SECONDS``, and numba's start
    (``NUMBA_START_SECONDS``) until it has started."""
    return LOAD_SECONDS + (0.0 if _numba_started() else NUMBA_START_SECONDS)


def _numba_started() -> bool:
    """Whether numba has started: its runtime is initialised by the first kernel compiled or loaded (0.68's flag;
    without it, taken as started)."""
    from numba.core.runtime import nrt

    return getattr(nrt.rtsys, "_init", True)


def runs_compiled(kernel) -> bool:
    """Whether ``kernel`` would run compiled on its next call without compiling for it: ready (compiled in this
    process, kept on disk outside ``one_call()``, or plain Python), or it compiles on its first call
    (``COMPILE_SECONDS`` 0, a kernel not kept on disk).
    For a kernel that only replaces others that are compiled on their own (whose compiling is not worth what it
    saves a call: ``api._score_piece``'s ``small_batch_rpf``)."""
    if kernel in _ready:
        return True
    with _choosing:
        return _found_ready(kernel) or (COMPILE_SECONDS == 0 and kernel not in _kept)


def run_kernel(kernel, estimate, *args):
    """``kernel(*args)``, compiled or as Python as ``compiled_or_python`` decides; ``estimate(*args)`` (the
    seconds of the Python run, a function kept beside each kernel) is only asked while the kernel is not ready."""
    if kernel in _ready:
        return kernel(*args)
    return compiled_or_python(kernel, estimate(*args))(*args)


def _on_disk(kernel) -> bool:
    """Whether numba keeps compiled code of ``kernel`` on disk (its index file in ``kernel_cache()``). The
    index may hold other signatures, or code numba finds stale: the call then compiles, as it would have."""
    index = getattr(getattr(kernel._cache, "_cache_file", None), "_index_path", None)  # None: not cached
    return index is not None and os.path.exists(index)


def python_twin(function):
    """The Python source of ``function`` (a ``jit`` kernel or a ``jitable`` helper) with the names it reads
    from its module bound to a copy of that module's globals, made when first needed, in which every
    compiled function and ``jitable`` helper is its Python twin in turn: the whole call tree runs as Python,
    compiling nothing, and the module is left as it is (threads calling the compiled kernels see no change).
    Like numba, a twin reads the module's globals as they were when it was made."""
    source = function.py_func
    twin = _twins.get(source)
    if twin is None:
        twin = _twins[source] = types.FunctionType(source.__code__, _globals_of_twins(source.__globals__),
                                                   source.__name__, source.__defaults__, source.__closure__)
        twin.py_func = twin
    return twin


def _globals_of_twins(module_globals: dict) -> dict:
    """The copy of a module's globals that its twins read (``python_twin``), made once."""
    found = _twin_globals.get(id(module_globals))
    if found is None:
        found = _twin_globals[id(module_globals)] = {}  # registered first: a helper may call back into it
        for name, value in list(module_globals.items()):
            found[name] = python_twin(value) if isinstance(getattr(value, "py_func", None), types.FunctionType) \
                else value
    return found


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
    """``[function(x) for x in items]`` on as many threads as numba may use (``NUMBA_NUM_THREADS``): the calling
    thread and the pool's, each taking the next item until none is left and running the compiled kernels
    single-threaded (they release the GIL): independent pieces of work in parallel need no synchronisation, and a
    core busy with other work just takes fewer of them. The caller works rather than waits: a pool thread
    woken from sleep took 0.1-0.9 ms to start on a 2-core virtual machine, and handing every item to the pool
    left one core idle for 2.5-3 ms of a process's first 1,000-pair batches (benchmarks/RESULTS.md). The pool's
    threads are kept for the process; inside ``function`` ``get_num_threads()`` is 1 and a ``jit_parallel``
    kernel runs on its caller's thread alone, so work nested in it runs serially (numba's own thread pool is
    not started for it). A thread that finds no item left runs the jobs of the caller's ``tail_work`` block
    while the others finish theirs. An error is raised once every thread has stopped; after it no thread takes
    an item."""
    n = min(get_num_threads(), len(items))
    if n <= 1:
        return [function(x) for x in items]
    results = [None] * len(items)
    left = iter(range(len(items)))  # shared: a thread takes the next index (``next`` holds the GIL)
    tail = pending_jobs()

    def work():
        outer, _in_pool.serial = getattr(_in_pool, "serial", False), True
        try:
            for i in left:
                results[i] = function(items[i])
            run_jobs(tail)
        except BaseException:
            for _ in left:  # the others take no further item
                pass
            raise
        finally:
            _in_pool.serial = outer

    helpers = [_pool(get_num_threads() - 1).submit(work) for _ in range(n - 1)]
    try:
        work()
    finally:
        for helper in helpers:
            helper.cancel()  # one no thread has started yet: every item is taken, nothing to wait for
        wait(helpers)
    for helper in helpers:
        if not helper.cancelled():
            helper.result()  # a helper's error, raised here
    return results


def start_threads() -> None:
    """Start ``map_threads``' pool threads now and get the heap of each thread that scores pieces ready
    (``_ready_heap``; with one thread, the caller's). A pool starts a thread when it is handed work and no thread
    is idle, and the caller then waits for the new thread to take the interpreter lock, which the thread scoring
    the first piece holds through its Python steps: handing a process's first 1,000-pair batch to two threads
    took 8 ms (median; up to 21) on a loaded machine, the next batches 0.04 ms (benchmarks/RESULTS.md). The
    caller and each pool thread wait for the others (a barrier), so the pool starts every one; one caller at a
    time, since two barriers sharing the threads could each hold some. Threads already running and ready
    return at once."""
    n = get_num_threads()
    if n <= 1:
        _ready_heap()
        return
    with _starting:
        ready = threading.Barrier(n)
        map_threads(lambda _: (ready.wait(), _ready_heap()), [None] * n)


# Bytes of memory each thread that scores pieces holds ready for them (``_ready_heap``): about what a piece of a
# 1,000-pair batch writes; 2 MB left half of its page faults, 8 MB no fewer than 4.
READY_HEAP = 4 << 20


def _ready_heap() -> None:
    """Leave this thread's malloc heap as a batch of about 1,000 pairs leaves it, once a thread, so that the first
    such batch writes memory the process has: a process's first 1,000-pair call faulted ~500 pages (each 1.5-4.7
    us on a 2-core virtual machine), a repeated one ~10. glibc maps a block above its threshold (128 kB at first)
    afresh and raises the threshold to such a block's size when it is freed; smaller blocks come from the
    thread's heap, which keeps what is freed up to twice the threshold. So a block of 2 x ``READY_HEAP``, made
    and freed unwritten, then one of ``READY_HEAP``, written and freed: it stays the thread's, as after any
    larger call. With another allocator, two allocations to no effect."""
    if getattr(_in_pool, "heap_ready", False):
        return
    np.empty(2 * READY_HEAP, dtype=np.uint8)
    np.ones(READY_HEAP, dtype=np.uint8)
    _in_pool.heap_ready = True


_starting = threading.Lock()


@lru_cache(maxsize=None)
def _pool(n: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(n, thread_name_prefix="rougelab")


# A forked child (multiprocessing's default on Linux) inherits the pool without its threads: work handed to
# it would wait for ever. The child makes its own when it first needs one.
if hasattr(os, "register_at_fork"):  # not on Windows, which does not fork
    os.register_at_fork(after_in_child=_pool.cache_clear)


# R/P/F and its rounding (``rougelab.scoring``) are plain Python: registered here, before any kernel that
# calls them compiles, since every kernel module imports this one.
from rougelab import scoring  # noqa: E402 (scoring imports nothing of the package)

for _arithmetic in (scoring.round_decimals, scoring.with_f, scoring.prf):
    jitable(_arithmetic)
