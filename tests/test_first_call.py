"""A fresh environment's first call (``benchmarks/bench_distinct.py``'s cold-start rows): a small batch runs the
kernels' Python sources and compiles nothing (``_jit.compiled_or_python``), with the compiled kernels' numbers;
a large one compiles; a call compiles only the kernels of the measures it asks for."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from rougelab import _jit
from rougelab.rouge import batch
from rougelab.rouge.api import parse_measure
from rougelab.rouge.options import RougeOptions

needs_numba = pytest.mark.skipif(not _jit.NUMBA, reason="numba disabled (ROUGELAB_NO_NUMBA)")

COMPILED = """
import sys
import numba
from rougelab import _jit
def compiled():
    '''The compiled functions of every rougelab module: loaded from the kernel cache or compiled here.'''
    ours = [m for m in list(sys.modules.values()) if getattr(m, "__name__", "").startswith("rougelab")]
    return sorted(f"{m.__name__}.{n}" for m in ours for n, v in vars(m).items()
                  if isinstance(v, numba.core.dispatcher.Dispatcher) and v.signatures)
"""

LOADED = COMPILED + """
import json
from rougelab.rouge import rouge
rouge(*json.loads(input()))
print(json.dumps(compiled()))
"""


def _run(code: str, stdin: str, **env) -> str:
    done = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, text=True,
                          env={**os.environ, **env})
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _loaded_kernels(summaries, references, measures):
    """The compiled functions that a fresh process loads (from the kernel cache) or compiles for one call with
    every kernel compiled (``ROUGELAB_COMPILE_SECONDS=0``): the kernels it calls from Python, and the ``jit``
    helpers compiled with them (``jitable`` helpers are compiled into them, with no compiled function of their
    own)."""
    done = _run(LOADED, json.dumps([summaries, references, measures]), ROUGELAB_COMPILE_SECONDS="0")
    return {name.rsplit(".", 1)[1] for name in json.loads(done)}


@needs_numba
def test_rouge_1_2_l_of_one_sentence_each_compiles_no_skip_bigram_nor_union_lcs_code():
    loaded = _loaded_kernels(["a b c"], [["a b d"]], ["rouge-1", "rouge-2", "rouge-l"])
    assert {"batch_pair_stats", "sentence_lcs_pair_stats", "pooled_rpf"} <= loaded
    assert not loaded & {"skip_pair_stats", "lcs_pair_stats"}  # nor their helpers (sorted_hits, union_lcs_hits)
    several = _loaded_kernels(["a b c\nd e"], [["a b d"]], ["rouge-l", "rouge-su4"])
    assert {"skip_pair_stats", "lcs_pair_stats"} <= several
    assert "batch_pair_stats" not in several and "sentence_lcs_pair_stats" not in several


# Option sets of a first call: (summaries, references, measures, keyword arguments of ``rouge``).
SUMMARIES = ["The cat sat on the mat.\nIt was happy there.", "Dogs bark at night, loudly."]
REFERENCES = [["A cat was sitting on the mat.\nThe cat was happy.", "The mat had a cat on it."],
              ["At night the dogs barked.", "Dogs are loud at night!\nThey bark."]]
FIRST_CALLS = [
    (SUMMARIES[:1], REFERENCES[:1], ["rouge-1", "rouge-2", "rouge-l"], {"stem": False}),
    (SUMMARIES, REFERENCES, ["rouge-1", "rouge-2", "rouge-l"], {}),  # stemming, several references
    (SUMMARIES, REFERENCES, ["rouge-su4", "rouge-s*", "rouge-w-1.2"], {}),
    (SUMMARIES, REFERENCES, ["rouge-1", "rouge-l", "rouge-w-1.2"], {"multiref": "B"}),
    (["a b c"], [["a b d"]], ["rouge-1", "rouge-2", "rouge-l"], {"stem": False}),  # one sentence each
    (SUMMARIES, REFERENCES, ["rouge-1", "rouge-l"], {"multiref": "best-f", "stem": False}),
    (SUMMARIES, REFERENCES, ["rouge-1", "rouge-2", "rouge-l"], {"tokenizer": "unicode"}),  # its ASCII rewrite
]

SCORED = COMPILED + """
import json
from pathlib import Path
from rougelab.rouge import rouge
first_calls = json.loads(input())
scores = [rouge(s, r, m, **kw).values.tolist() for s, r, m, kw in first_calls]
kept = [str(p) for p in Path(_jit.kernel_cache()).rglob("*") if p.is_file()]  # numba makes folders when it decorates
print(json.dumps({"scores": scores, "compiled": compiled(), "kept": kept}))
"""


def _first_calls(cache: str, compile_now: bool) -> dict:
    return json.loads(_run(SCORED, json.dumps(FIRST_CALLS), ROUGELAB_CACHE=cache,
                           ROUGELAB_COMPILE_SECONDS="0" if compile_now else "1"))


@needs_numba
def test_a_small_first_call_compiles_nothing_and_gives_the_compiled_numbers(tmp_path):
    """In a fresh process with an empty kernel cache, small first calls of several option sets run as Python:
    no compiled function, no file kept; the same calls with every kernel compiled (from the tests' kernel
    cache) give the same numbers to the last bit."""
    python = _first_calls(str(tmp_path), compile_now=False)
    assert python["compiled"] == [] and python["kept"] == []
    compiled = _first_calls(os.environ.get("ROUGELAB_CACHE", str(tmp_path / "compiled")), compile_now=True)
    assert {"rougelab.rouge.batch.batch_pair_stats", "rougelab.rouge.batch.skip_pair_stats",
            "rougelab.rouge.batch.lcs_pair_stats", "rougelab.rouge.batch.sentence_lcs_pair_stats",
            "rougelab.rouge.batch.pooled_rpf", "rougelab.rouge.best_f.best_f_rpf",
            "rougelab.text.byte_tokens._scan",
            "rougelab.rouge.small_batch.small_batch_rpf"} <= set(compiled["compiled"])  # the first call: 1 pair
    assert python["scores"] == compiled["scores"]
    assert all(max(map(max, scores)) > 0 for scores in python["scores"])  # every option set scores some overlap


@needs_numba
def test_a_process_that_starts_small_loads_the_batch_kernels_with_the_small_one(tmp_path):
    """A small first call that loads ``small_batch_rpf`` from the kernel cache also loads the batch path's
    kernels, so that a process's first larger batch loads none (the second process below finds every kernel
    on disk; the first may compile them together, which gives every callee its code anyway)."""
    call = (SUMMARIES[:1], REFERENCES[:1], ["rouge-1", "rouge-2", "rouge-l"])
    cache = os.environ.get("ROUGELAB_CACHE", str(tmp_path))  # the tests' kernel cache: compiled once
    for _ in range(2):
        done = _run(LOADED.replace("input()))", "input()), stem=False)"), json.dumps(call), ROUGELAB_CACHE=cache,
                    ROUGELAB_COMPILE_SECONDS="0")
    loaded = {name.rsplit(".", 1)[1] for name in json.loads(done)}
    assert {"small_batch_rpf", "_scan", "text_bounds", "batch_pair_stats", "lcs_pair_stats", "pooled_rpf"} <= loaded


THREADS = LOADED.replace("print(json.dumps(compiled()))", """import threading
print(json.dumps(sorted(t.name for t in threading.enumerate() if t.name.startswith("rougelab"))))""")


@needs_numba
def test_a_process_that_starts_small_starts_the_threads_of_large_batches(tmp_path):
    """The small first call that loads the batch kernels also starts the threads that score a large batch's
    pieces (``_jit.start_threads``), which the process's first large batch started otherwise, waiting for each."""
    call = json.dumps((SUMMARIES[:1], REFERENCES[:1], ["rouge-1", "rouge-2", "rouge-l"]))
    cache = os.environ.get("ROUGELAB_CACHE", str(tmp_path))
    started = _run(THREADS.replace("input()))", "input()), stem=False)"), call, ROUGELAB_CACHE=cache,
                   ROUGELAB_COMPILE_SECONDS="0", NUMBA_NUM_THREADS="2")
    assert json.loads(started) == ["rougelab_0"]  # with the calling thread, two


HEAPS = THREADS.replace("""import threading
print(json.dumps(sorted(t.name for t in threading.enumerate() if t.name.startswith("rougelab"))))""", """
import resource, threading
import numpy as np
met = threading.Barrier(2)
def written(_):  # the pages this thread faults writing 3 MB: all 768 in memory new to it
    met.wait(timeout=30)
    before = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
    np.ones(3 << 20, dtype=np.uint8)
    return resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - before
print(json.dumps(_jit.map_threads(written, [0, 1])))""")


@needs_numba
@pytest.mark.skipif(not (sys.platform.startswith("linux") and os.confstr("CS_GNU_LIBC_VERSION")),
                    reason="glibc's malloc on Linux")
def test_the_loading_call_leaves_each_scoring_threads_heap_ready(tmp_path):
    """After the call that loads the batch kernels, the calling thread and the pool's thread each write 3 MB
    (about what a piece of a 1,000-pair batch writes) in memory the process has: a few page faults, not 768
    (``_jit._ready_heap``)."""
    call = json.dumps((SUMMARIES[:1], REFERENCES[:1], ["rouge-1", "rouge-2", "rouge-l"]))
    cache = os.environ.get("ROUGELAB_CACHE", str(tmp_path))
    faults = json.loads(_run(HEAPS.replace("input()))", "input()), stem=False)"), call, ROUGELAB_CACHE=cache,
                             ROUGELAB_COMPILE_SECONDS="0", NUMBA_NUM_THREADS="2"))
    assert len(faults) == 2 and max(faults) < 100, faults


# First calls on ROUGE-1.5.5's pair-by-pair path (``rouge.core``): length limits, Lin's ROUGE-W, best-f over it,
# and the ``rouge155`` front end's ``score_peer``.
PAIR_BY_PAIR_CALLS = [
    (SUMMARIES, REFERENCES, ["rouge-1", "rouge-2", "rouge-l"], {"word_limit": 100}),
    (SUMMARIES, REFERENCES, ["rouge-2", "rouge-su4", "rouge-l"], {"byte_limit": 30, "stem": False}),
    (SUMMARIES, REFERENCES, ["rouge-w-1.2"], {"perl_wlcs": False}),
    (SUMMARIES, REFERENCES, ["rouge-1", "rouge-l"], {"multiref": "best-f", "word_limit": 8}),
    # 9-grams of 200 distinct words do not fit 7 bits an id: their table is made by gram_codes and count_codes
    ([" ".join(f"w{k % 50}" for k in range(60))], [[" ".join(f"w{k}" for k in range(200))]], ["rouge-1", "rouge-9"],
     {"word_limit": 150}),
]
PAIR_BY_PAIR = SCORED.replace("print(json.dumps(", """from rougelab.rouge.core import score_peer
from rougelab.rouge.options import RougeOptions
peer = score_peer(["the cat sat on the mat .", "it was happy ."], [["a cat was on the mat ."], ["the mat ."]],
                  RougeOptions(max_n=2, skip_distance=4, skip_unigrams=True, wlcs_weight=1.2, word_limit=9))
print(json.dumps(""").replace('"scores": scores', '"scores": scores, "peer": peer')


def _pair_by_pair_first_calls(cache: str, compile_now: bool) -> dict:
    return json.loads(_run(PAIR_BY_PAIR, json.dumps(PAIR_BY_PAIR_CALLS), ROUGELAB_CACHE=cache,
                           ROUGELAB_COMPILE_SECONDS="0" if compile_now else "1"))


@needs_numba
def test_a_small_first_call_on_the_pair_by_pair_path_compiles_nothing(tmp_path):
    """The same for ``rouge`` with ``word_limit``, ``byte_limit``, ``perl_wlcs=False`` and best-f on that path, and
    for ``core.score_peer``: no compiled function, no file kept, the compiled kernels' numbers to the last bit."""
    python = _pair_by_pair_first_calls(str(tmp_path), compile_now=False)
    assert python["compiled"] == [] and python["kept"] == []
    compiled = _pair_by_pair_first_calls(os.environ.get("ROUGELAB_CACHE", str(tmp_path / "compiled")),
                                         compile_now=True)
    assert {"rougelab.rouge.grams.gram_tables", "rougelab.rouge.grams.count_codes",
            "rougelab.rouge.grams.multi_clipped_hits", "rougelab.rouge.lcs.summary_lcs_hits",
            "rougelab.rouge.lcs.summary_wlcs_lin", "rougelab.rouge.best_f.best_f_rpf"} <= set(compiled["compiled"])
    assert python["scores"] == compiled["scores"] and python["peer"] == compiled["peer"]
    assert all(max(map(max, scores)) > 0 for scores in python["scores"])
    assert min(min(rpf) for rpf in python["peer"].values()) > 0  # every measure of score_peer has an overlap


LARGE = COMPILED + """
import json
from rougelab.rouge import rouge, batch
from rougelab.text import byte_tokens
import numpy as np
words = np.array([f"w{k}" for k in range(1000)])
texts = [" ".join(row) for row in words[np.random.default_rng(1).integers(0, 1000, (20_000, 60))]]  # distinct
rouge(texts[::2], [[t] for t in texts[1::2]], ["rouge-1"], stem=False)
print(json.dumps([compiled(), _jit._on_disk(batch.batch_pair_stats), _jit._on_disk(batch.pooled_rpf)]))
"""


@needs_numba
def test_a_large_first_batch_compiles_at_once(tmp_path):
    """10,000 pairs of 60-word texts: the scan and the n-gram kernel, whose Python runs would each take over
    ``COMPILE_SECONDS``, are compiled by the first call and kept on disk (``_on_disk`` finds them), and so are
    the batch's other kernels, whose Python runs alone would not reach it (summing R/P/F: 0.05 s)."""
    found = _run(LARGE, "", ROUGELAB_CACHE=str(tmp_path), ROUGELAB_COMPILE_SECONDS="1")
    compiled, ngrams_kept, rpf_kept = json.loads(found)
    assert {"rougelab.text.byte_tokens._scan", "rougelab.rouge.batch.batch_pair_stats",
            "rougelab.rouge.batch.text_bounds", "rougelab.rouge.batch.pooled_rpf"} <= set(compiled)
    assert ngrams_kept and rpf_kept


@needs_numba
def test_rent_or_buy(monkeypatch):
    """A kernel runs as Python until the estimated Python seconds spent on it, the batch at hand included,
    reach ``COMPILE_SECONDS``; then compiled, from then on; a batch that alone reaches it compiles at once, and
    every kernel after it.
    The Python twin of a kernel calls the twins of the compiled helpers it calls: nothing compiles."""
    import numba
    monkeypatch.setattr(_jit, "COMPILE_SECONDS", 1.0)  # the tests compile at once (conftest.py)
    monkeypatch.setattr(_jit, "_bulk", _jit.threading.Event())
    helper = numba.njit(lambda x: 2 * x)
    monkeypatch.setitem(globals(), "_doubled", helper)
    kernel = numba.njit(_plus_doubled)
    step = _jit.COMPILE_SECONDS / 3
    chosen = [_jit.compiled_or_python(kernel, step * 1.01) for _ in range(3)]
    assert chosen[0] is chosen[1] is _jit.python_twin(kernel) is not kernel and chosen[2] is kernel
    assert chosen[0](3) == 7 and not kernel.signatures and not helper.signatures
    assert chosen[2](3) == 7 and kernel.signatures
    assert _jit.compiled_or_python(kernel, 0.0) is kernel
    small = numba.njit(_plus_doubled)
    assert _jit.compiled_or_python(small, step) is not small
    at_once = numba.njit(_plus_doubled)
    assert _jit.compiled_or_python(at_once, _jit.COMPILE_SECONDS) is at_once
    assert _jit.compiled_or_python(small, 0.0) is small  # after a batch worth compiling for, every kernel compiles


def _plus_doubled(x):
    return 1 + _doubled(x)


def test_compile_seconds_from_the_environment():
    assert _jit._compile_seconds("0") == 0.0 and _jit._compile_seconds("2.5") == 2.5
    for bad in ("", "soon", "-1", "nan"):
        with pytest.raises(ValueError, match="ROUGELAB_COMPILE_SECONDS must be a number of seconds >= 0, got"):
            _jit._compile_seconds(bad)


def test_the_one_sentence_shortcut_gives_the_union_lcs_numbers():
    """``lcs_stats`` of pairs of one sentence each (``sentence_lcs_pair_stats``), ROUGE-L and ROUGE-W with weight 1,
    against ``lcs_pair_stats`` (the union LCS)."""
    texts = ["a b c a", "b a c c a b", "a a b", "c b a b c a", "b c", "d"]
    encoded = batch.EncodedBatch(texts, "newline", RougeOptions(stem=False))
    peers, models = (np.array(x, dtype=np.int64) for x in np.triu_indices(len(texts)))
    weights = np.array([parse_measure(m).weight for m in ("rouge-l", "rouge-w-1")])
    is_w = np.array([False, True])
    union = batch.lcs_pair_stats(peers, models, weights, is_w, encoded.vocabulary, encoded.ids, encoded.start,
                                 encoded.end, encoded.unit_offsets, encoded.unit_start)
    assert batch.one_sentence_pairs(encoded, peers, models, weights)
    assert batch.lcs_stats(encoded, peers, models, weights, is_w, True).tolist() == union.tolist()
    assert union[:, :, 1].max() > 0
