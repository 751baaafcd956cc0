"""The bare package, installed into a fresh virtual environment, does what its light core promises.

``pip install rougelab`` (no extras, the workbook's pins as constraints) must score classic ROUGE without
importing torch, gensim, dask or matplotlib, reproduce ROUGE-1.5.5's official sample output through
``rougelab rouge155``, run the meta-evaluation, run every command or name the extra it needs in one line,
and run the README's quick start verbatim.
Marked ``book`` (about 1.5 minutes of pip): ``make test-book`` and CI run it.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rougelab.paths import cache_dir

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.book

# Jain et al. (2022), WIDAR, Table 3: ROUGE-1's Kendall tau-b over all SummEval summaries
PAPER_ROUGE_1 = {"coherence": 0.137, "consistency": 0.111, "fluency": 0.067, "relevance": 0.228}


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    folder = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    subprocess.run([folder / "bin" / "pip", "install", "--quiet", "-c", ROOT / "constraints.txt", ROOT],
                   check=True, cwd=folder)
    return folder / "bin"


def _run(*args, cwd):
    # the installed package, not the checkout's lib/, reading the data the suite fetched (an installed
    # package's own default cache is ~/.cache/rougelab)
    env = {**os.environ, "PYTHONPATH": "", "ROUGELAB_CACHE": str(cache_dir())}
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd=cwd, env=env, check=False)


def test_classic_rouge_without_the_heavy_packages(venv, tmp_path):
    script = ("import sys; from rougelab.rouge import rouge\n"
              "t = rouge(['police kill the gunman'], [['police killed the gunman']], ['rouge-2'], stem=False)\n"
              "print(round(t.rouge2_r[0], 3))\n"
              "print(sorted(m for m in ('torch', 'gensim', 'dask', 'matplotlib', 'transformers') if m in sys.modules))")
    done = _run(venv / "python", "-c", script, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # Lin (2004), section 3.1: S2 has one of S1's three bigrams
    assert done.stdout.split("\n")[:2] == ["0.333", "[]"]
    installed = _run(venv / "python", "-c", "import rougelab; print(rougelab.__file__)", cwd=tmp_path).stdout
    assert "site-packages" in installed


def test_rouge155_reproduces_the_official_sample_output(venv):
    from rougelab.data import dataset_path

    root = dataset_path("rouge155-sample")
    done = _run(venv / "rougelab", "rouge155", *["-c", "95", "-2", "-1", "-U", "-r", "1000", "-n", "4", "-w", "1.2", "-a", "-m", "ROUGE-test.xml"],
                cwd=root / "sample-test")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (root / "sample-output" / "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m.out").read_text()


def test_meta_evaluation_matches_the_papers_rouge_1_row(venv, tmp_path):
    done = _run(venv / "rougelab", "evaluate", "--dataset", "summeval", "--metric", "rouge-1", "--level", "global",
                "--coef", "kendall", "--format", "csv", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = [line.split(",") for line in done.stdout.splitlines()[1:]]
    ours = {row[1]: float(row[4]) for row in rows}
    assert set(ours) == set(PAPER_ROUGE_1)
    assert all(abs(ours[c] - PAPER_ROUGE_1[c]) <= 0.0015 for c in PAPER_ROUGE_1), ours


def test_a_metric_of_a_missing_extra_names_the_extra(venv, tmp_path):
    text = tmp_path / "one.txt"
    text.write_text("the cat sat on the mat\n")
    done = _run(venv / "rougelab", "score", "--metric", "bertscore", "--summaries", text, "--references", text,
                cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "pip install 'rougelab[semantic]'" in done.stderr
    script = ("from rougelab.scale import client\n"
              "try:\n    client()\nexcept ImportError as e:\n    print(e)")
    assert "pip install 'rougelab[scale]'" in _run(venv / "python", "-c", script, cwd=tmp_path).stdout


def test_every_command_works_or_names_its_extra_in_one_line(venv, tmp_path):
    """Each command of the bare install runs, or exits 2 with one line naming the extra it needs."""
    reference, system = tmp_path / "ref.txt", tmp_path / "sys.txt"
    reference.write_text("police killed the gunman\nthe cat was on the mat\n")
    system.write_text("police kill the gunman\nthe cat sat on the mat\n")
    ok = [["--version"], ["metrics"], ["data", "list"], ["cache", "info"],
          ["score", "--metric", "rouge-2", "--summaries", system, "--references", reference],
          ["compare", "--metric", "rouge-1", "--references", reference, reference, system, "--n-trials", "100"]]
    for argv in ok:
        done = _run(venv / "rougelab", *argv, cwd=tmp_path)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (argv, done.stderr)
    listing = _run(venv / "rougelab", "metrics", cwd=tmp_path).stdout
    assert "\nrouge-1\t" in listing and "(needs pip install 'rougelab[semantic]')" in listing
    piped = subprocess.run([str(venv / "rougelab"), "score", "--metric", "rouge-2", "--references", str(reference)],
                           input=system.read_text(), capture_output=True, text=True, cwd=tmp_path,
                           env={**os.environ, "PYTHONPATH": "", "ROUGELAB_CACHE": str(cache_dir())})
    assert piped.returncode == 0 and piped.stdout == _run(venv / "rougelab", "score", "--metric", "rouge-2",
                                                          "--summaries", system, "--references", reference,
                                                          cwd=tmp_path).stdout
    # the notebooks are those of the checkout the command runs in (here: from its notebooks/ folder)
    for argv, cwd, message in [(["book"], ROOT, "pip install 'rougelab[book]'"),
                               (["workbook", "--smoke", "00_tour"], ROOT / "notebooks", "pip install 'rougelab[lab]'"),
                               (["workbook", "--smoke", "00_tour"], tmp_path, "no rougelab checkout in")]:
        done = _run(venv / "rougelab", *argv, cwd=cwd)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and message in done.stderr, (argv, done.stderr)


def test_the_readme_quick_start_runs_verbatim_in_the_bare_install(venv, tmp_path):
    from test_readme_quickstart import check_output, quickstart_examples, run_example

    env = {**os.environ, "PYTHONPATH": "", "ROUGELAB_CACHE": str(cache_dir())}
    examples = quickstart_examples()
    assert examples
    for language, code, shown in examples:
        done = run_example(language, code, venv, tmp_path, env)
        assert done.returncode == 0, (code, done.stderr)
        check_output(done.stdout, shown)
