"""A process that makes one call (``_jit.one_call``: the command line's scoring commands) runs a kernel kept on disk
as Python when loading it would cost more than its Python run, and loads it for a batch whose Python run would cost
more; the library's rule, outside it, is unchanged: a kept kernel is ready at once."""
import json
import os
import subprocess
import sys

import pytest

from rougelab import _jit, cli

needs_numba = pytest.mark.skipif(not _jit.NUMBA, reason="numba disabled (ROUGELAB_NO_NUMBA)")


@pytest.fixture
def kept(monkeypatch):
    """A maker of new kernels that ``_jit`` finds kept on disk (none is compiled in this process), with records of
    the kernels of their own (the Python spent on every kept kernel counts together) and an empty ``_bulk`` (with
    the tests' ``COMPILE_SECONDS`` of 0, any batch sets it)."""
    import numba

    for name, empty in (("_bulk", _jit.threading.Event()), ("_ready", set()), ("_kept", set()),
                        ("_python_seconds", {})):
        monkeypatch.setattr(_jit, name, empty)
    made = []
    monkeypatch.setattr(_jit, "_on_disk", lambda kernel: kernel in made)

    def make():
        made.append(numba.njit(_doubled))
        return made[-1]

    return make


def _doubled(x):
    return 2 * x


@needs_numba
def test_one_call_runs_a_kept_kernel_as_python_until_loading_pays(kept):
    tiny, large = 1e-6, _jit.load_seconds()
    kernel = kept()
    with _jit.one_call():
        chosen = _jit.compiled_or_python(kernel, tiny)
        assert chosen is _jit.python_twin(kernel) is not kernel and chosen(3) == 6 and not kernel.signatures
        assert _jit.compiled_or_python(kernel, large) is kernel  # a batch whose Python run costs the load
        assert _jit.compiled_or_python(kernel, tiny) is kernel  # loaded: from now on
    assert _jit._one_call is False


@needs_numba
def test_outside_one_call_a_kept_kernel_is_ready_at_once(kept):
    kernel = kept()
    assert _jit.compiled_or_python(kernel, 1e-6) is kernel and _jit.runs_compiled(kept())
    rented = kept()
    with _jit.one_call():
        assert _jit.compiled_or_python(rented, 1e-6) is not rented and not _jit.runs_compiled(rented)
    assert _jit.compiled_or_python(rented, 1e-6) is rented  # the choice made inside does not stay


@needs_numba
def test_numbas_start_is_rented_by_every_kept_kernel_together(kept, monkeypatch):
    """Until numba has started, the Python of every kept kernel counts against its start; then each kernel's own
    against its load."""
    monkeypatch.setattr(_jit, "_numba_started", lambda: False)
    first, second = kept(), kept()
    half = 0.6 * _jit.load_seconds()
    with _jit.one_call():
        assert _jit.compiled_or_python(first, half) is not first
        assert _jit.compiled_or_python(second, half) is second
        monkeypatch.setattr(_jit, "_numba_started", lambda: True)
        third = kept()
        assert _jit.compiled_or_python(third, 0.6 * _jit.LOAD_SECONDS) is not third
        assert _jit.compiled_or_python(third, 0.6 * _jit.LOAD_SECONDS) is third


@needs_numba
def test_a_call_whose_python_run_would_cost_the_load_loads_at_once(kept):
    """A call the caller estimates at numba's start or more: kept kernels are ready at once, whatever the batch
    (a kernel's batch may be a piece of the call, 1 of 4 on 1,000 pairs)."""
    kernel = kept()
    with _jit.one_call(_jit.load_seconds()):
        assert _jit.compiled_or_python(kernel, 1e-6) is kernel


@pytest.mark.parametrize("argv, module, scorer", [
    (["score", "--metric", "rouge-1", "--summaries", "{s}", "--references", "{r}"], "rougelab.corpus",
     "corpus_score"),
    (["compare", "--metric", "rouge-1", "--references", "{r}", "{s}", "{s2}"], "rougelab.compare", "compare_systems"),
    (["evaluate", "--dataset", "summeval", "--metric", "rouge-1", "--quiet"], "rougelab.evaluate", "evaluate"),
])
@pytest.mark.parametrize("pairs", [1, 1_000])
def test_the_scoring_commands_score_as_one_call(argv, module, scorer, pairs, tmp_path, monkeypatch, capsys):
    """A few texts are scored as one call (``_jit.one_call``'s renting of kept kernels); 1,000 pairs of 60-word
    texts as the library scores them (the evaluation's data are read inside: not known, as one call)."""
    import importlib

    files = {}
    for name in ("s", "s2", "r"):
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text(f"{' '.join(['police kill the gunman'] * 15)}\n" * pairs)
    inside = []

    def recorded(*args, **kwargs):
        inside.append(_jit._one_call)
        raise ValueError("recorded")

    monkeypatch.setattr(importlib.import_module(module), scorer, recorded)
    assert cli.main([a.format(**files) for a in argv]) == 2
    assert inside == [pairs == 1 or scorer == "evaluate"] and _jit._one_call is False
    assert "recorded" in capsys.readouterr().err


CLI_THEN_LIBRARY = """
import contextlib, io, json, sys
import numba
from rougelab import cli
from rougelab.corpus import corpus_score
from rougelab.evaluate import metrics_named
from rougelab.user_files import read_batch

def compiled():
    ours = [m for m in list(sys.modules.values()) if getattr(m, "__name__", "").startswith("rougelab")]
    return sorted(f"{m.__name__}.{n}" for m in ours for n, v in vars(m).items()
                  if isinstance(v, numba.core.dispatcher.Dispatcher) and v.signatures)

summaries, references, metrics = json.loads(input())
out = io.StringIO()
with contextlib.redirect_stdout(out):
    status = cli.main(["score", "--metric", metrics, "--per-summary", "--format", "csv", "--summaries", summaries,
                       *[a for r in references for a in ("--references", r)]])
by_the_command = compiled()
batch = read_batch(summaries, references)
rows = corpus_score(batch.summaries, batch.references, metrics_named(metrics.split(",")), n_resamples=0).rows
print(json.dumps([status, out.getvalue(), by_the_command, rows.to_csv(index=False), compiled()]))
"""


@needs_numba
def test_rougelab_score_on_a_few_texts_loads_no_kernel_and_prints_the_librarys_numbers(tmp_path):
    """In a fresh process whose kernels are kept on disk (a first run with ``ROUGELAB_COMPILE_SECONDS=0`` keeps
    them), ``rougelab score`` on a few texts loads none and prints what the library, loading them, gives."""
    summaries = tmp_path / "sys.txt"
    summaries.write_text("police killed the gunman.\nthe cat sat on the mat\nrates rose again in may\n")
    references = [tmp_path / "r1.txt", tmp_path / "r2.txt"]
    references[0].write_text("police kill the gunman near the station\nthe cat was on the mat\nrates rose\n")
    references[1].write_text("the gunman was shot\na cat sat there\nin may the rates went up\n")
    stdin = json.dumps([str(summaries), [str(r) for r in references], "rouge-1,rouge-2,rouge-l,rouge-su4"])
    env = {**os.environ, "ROUGELAB_COMPILE_SECONDS": "0"}
    for _ in range(2):  # the first run keeps on disk what was not
        done = subprocess.run([sys.executable, "-c", CLI_THEN_LIBRARY], input=stdin, capture_output=True, text=True,
                              env=env)
        assert done.returncode == 0, done.stderr[-2000:]
    status, printed, by_the_command, library, by_the_library = json.loads(done.stdout)
    assert status == 0 and by_the_command == [] and by_the_library
    assert printed == library
