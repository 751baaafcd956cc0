"""Optional packages: ``import rougelab`` and classic ROUGE stay light; a missing one names its extra."""
import subprocess
import sys

import pytest
from rougelab.extras import MissingExtra, require

# (pyarrow is left out: pandas itself imports it when it is installed)
HEAVY = ("torch", "transformers", "gensim", "dask", "distributed", "matplotlib", "bert_score")


def printed_by(script: str) -> str:
    """What ``script`` prints, run in a fresh interpreter (so that only its own imports are loaded)."""
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.strip()


def test_import_rougelab_imports_none_of_the_big_libraries():
    script = ("import sys, rougelab, rougelab.cli\n"
              "print([m for m in ('nltk', 'torch', 'transformers', 'gensim', 'dask', 'pandas') if m in sys.modules])")
    assert printed_by(script) == "[]"


def test_commands_that_read_no_table_load_no_pandas():
    """``--version`` and ``data fetch --help`` go through the CLI's error handling and the data registry,
    whose table loaders (pandas) load only when a table is read."""
    script = ("import contextlib, io, sys\n"
              "from rougelab.cli import main\n"
              "codes = []\n"
              "for argv in (['--version'], ['data', 'fetch', '--help']):\n"
              "    try:\n"
              "        with contextlib.redirect_stdout(io.StringIO()):\n"
              "            codes.append(main(argv))\n"
              "    except SystemExit as done:\n"
              "        codes.append(done.code)\n"
              "print(codes, 'pandas' in sys.modules)")
    assert printed_by(script) == "[0, 0] False"


def test_classic_rouge_imports_no_heavy_package():
    script = ("import sys, rougelab; from rougelab.rouge import rouge\n"
              "rouge(['a b c'], [['a b d']], ['rouge-1', 'rouge-l'])\n"
              f"print([m for m in {HEAVY!r} if m in sys.modules])")
    assert printed_by(script) == "[]"


def test_a_corpus_score_with_its_interval_and_a_comparison_load_no_scipy_statistics():
    """``rougelab score`` and ``compare`` resample with numpy alone (``metaeval.resampling``); SciPy's
    statistics (half a second to import) load only where a correlation is computed. (numba imports the
    ``scipy`` package itself.)"""
    script = ("import sys\n"
              "from rougelab.corpus import corpus_score\n"
              "from rougelab.compare import compare_systems\n"
              "corpus_score(['a b c', 'a c'], [['a b d'], ['a c']], metrics=['rouge-1'])\n"
              "print([m for m in ('scipy.stats', 'rougelab.metaeval.correlations') if m in sys.modules])")
    assert printed_by(script) == "[]"


def test_scoring_one_pair_on_the_command_line_loads_no_pandas(tmp_path):
    """``rougelab score`` prints its text and JSON from the scores themselves (``CorpusScore``, ROUGE's
    ``ScoreTable``): pandas (and the pyarrow it loads) is a third of the start-up time and memory; a
    progress bar nobody sees loads no ``tqdm.auto`` (asyncio), the data layer no ``urllib.request``."""
    (tmp_path / "s.txt").write_text("police killed the gunman\n")
    (tmp_path / "r.txt").write_text("police kill the gunman\n")
    script = ("import contextlib, io, sys\n"
              "from rougelab.cli import main\n"
              "out = io.StringIO()\n"
              "with contextlib.redirect_stdout(out):\n"
              f"    codes = [main(['score', '--metric', 'rouge-1,rouge-l', '--summaries', {str(tmp_path / 's.txt')!r},\n"
              f"                   '--references', {str(tmp_path / 'r.txt')!r}, '--format', fmt])\n"
              "             for fmt in ('text', 'json')]\n"
              "print(codes, 'rouge1_f 1.0000' in out.getvalue(),\n"
              "      [m for m in ('pandas', 'pyarrow', 'tqdm.auto', 'urllib.request') if m in sys.modules])")
    assert printed_by(script) == "[0, 0] True []"


def test_require_names_the_extra_of_a_missing_module(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # makes `import torch` fail as if not installed
    with pytest.raises(MissingExtra, match=r"'torch' for BERTScore.*pip install 'rougelab\[semantic\]'"):
        require("torch", extra="semantic", needed_for="BERTScore")


def test_scoring_a_semantic_metric_without_its_extra_fails_clearly(monkeypatch):
    from rougelab.semantic.encoder import ContextualEncoder

    monkeypatch.setitem(sys.modules, "transformers", None)
    encoder = ContextualEncoder()
    with pytest.raises(MissingExtra, match=r"rougelab\[semantic\]"):
        encoder._load()
