"""`rougelab evaluate` end to end on real data with the trivial `length` metric, and its errors."""
import json
import os

import pytest
from scipy.stats import kendalltau

import rougelab
from rougelab.cli import main


@pytest.fixture(autouse=True)
def private_score_cache(tmp_path, monkeypatch):
    """Scores go to a private folder; the datasets stay where `make data` put them."""
    from rougelab import score_cache

    def scores_dir(*parts):
        path = tmp_path.joinpath(*parts)
        path.mkdir(parents=True, exist_ok=True)
        return path

    monkeypatch.setattr(score_cache, "cache_dir", scores_dir)


@pytest.mark.parametrize("dataset", ["summeval", "realsumm", "newsroom", "pyrxsum"])
def test_evaluate_prints_one_row_per_criterion(dataset, capsys):
    assert main(["evaluate", "--dataset", dataset, "--metric", "length", "--level", "system",
                 "--coef", "pearson", "--format", "json", "--quiet"]) == 0
    rows = json.loads(capsys.readouterr().out)
    table = rougelab.load_dataset(dataset)
    from rougelab.evaluate import human_columns
    assert [r["criterion"] for r in rows] == human_columns(table)
    assert all(set(r) == {"metric", "criterion", "level", "coef", "value", "ci_low", "ci_high"} for r in rows)
    assert all(-1 <= r["value"] <= 1 for r in rows)


def test_global_kendall_matches_scipy_on_the_pooled_table(capsys):
    main(["evaluate", "--dataset", "summeval", "--metric", "length", "--criterion", "relevance",
          "--level", "global", "--coef", "kendall", "--format", "json", "--quiet"])
    [row] = json.loads(capsys.readouterr().out)
    table = rougelab.load_dataset("summeval")
    lengths = table.summary.str.split().map(len)
    assert row["value"] == pytest.approx(kendalltau(lengths, table.relevance).statistic, abs=1e-12)


def test_bootstrap_interval_brackets_the_value(capsys):
    main(["evaluate", "--dataset", "newsroom", "--metric", "length", "--criterion", "fluency",
          "--level", "system", "--coef", "spearman", "--bootstrap", "200", "--format", "csv", "--quiet"])
    header, line = capsys.readouterr().out.strip().splitlines()
    row = dict(zip(header.split(","), line.split(",")))
    assert float(row["ci_low"]) <= float(row["value"]) <= float(row["ci_high"])


@pytest.mark.parametrize("argv, message", [
    (["--dataset", "nosuchset", "--metric", "length"], "nosuchset"),
    (["--dataset", "summeval", "--metric", "nosuchmetric"], "unknown metric 'nosuchmetric'"),
    (["--dataset", "summeval", "--metric", "length", "--criterion", "tastiness"], "tastiness"),
])
def test_bad_names_get_a_one_line_error(argv, message, capsys):
    assert main(["evaluate", *argv, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


# Issue 14: everything is checked before scoring; --quiet silences every bar.

def _scoring_forbidden(monkeypatch):
    """Fail the test if any metric is scored (validation must come first)."""
    from rougelab import evaluate as evaluate_module

    def refuse(*args, **kwargs):
        raise AssertionError("scored before the arguments were checked")
    monkeypatch.setattr(evaluate_module, "cached_scores", refuse)


@pytest.mark.parametrize("argv, message", [
    (["--metric", ","], "--metric ',': no metric named"),
    (["--metric", "length,nosuchmetric"], "unknown metric 'nosuchmetric'"),
    (["--metric", "length", "--criterion", ","], "--criterion ',' names no criterion"),
    (["--metric", "length", "--criterion", "relevance,tastiness"], "unknown criterion 'tastiness'"),
    (["--metric", "length", "--bootstrap", "1"], "--bootstrap=1: must be a whole number >= 40 and <= 100000 (a 95% percentile"),
    (["--metric", "length", "--bootstrap", "-5"], "--bootstrap=-5: must be a whole number >= 0"),
    (["--metric", "length", "--seed", "-1"], "--seed=-1: must be a whole number >= 0"),
])
def test_bad_arguments_are_refused_before_scoring(argv, message, capsys, monkeypatch):
    _scoring_forbidden(monkeypatch)
    assert main(["evaluate", "--dataset", "summeval", *argv, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_python_api_refuses_one_resample_and_bad_names_before_scoring(monkeypatch):
    from rougelab.evaluate import evaluate

    _scoring_forbidden(monkeypatch)
    with pytest.raises(ValueError, match="n_resamples=1: must be a whole number >= 40"):
        evaluate("summeval", ["length"], n_resamples=1)
    with pytest.raises(ValueError, match="supports --level .* only, not .document."):
        evaluate("summeval", ["length"], level="document")
    with pytest.raises(ValueError, match="no metric named"):
        evaluate("summeval", [])


def _noisy_metric(name):
    """A metric whose scorer draws a progress bar the rougelab way (``rougelab.progress.bar``, asked for
    with ``progress=True``): ``--quiet`` switches it off without patching tqdm."""
    import pandas as pd

    from rougelab.metrics.base import Metric
    from rougelab.progress import bar

    def scorer(summaries, references):
        for _ in bar(summaries, progress=True, desc="noisy"):
            pass
        return pd.DataFrame({"n": [float(len(s)) for s in summaries]})
    return Metric(name, scorer, primary="n")


@pytest.mark.parametrize("quiet", [True, False])
def test_quiet_silences_every_progress_bar(quiet, tmp_path, capsys, monkeypatch):
    from rougelab import evaluate as evaluate_module

    monkeypatch.setattr(evaluate_module, "get_metric", _noisy_metric)
    flag = ["--quiet"] if quiet else []
    assert main(["evaluate", "--dataset", "newsroom", "--metric", "noisy-a,noisy-b", "--level", "system",
                 "--bootstrap", "40", *flag]) == 0
    summaries = tmp_path / "s.txt"
    summaries.write_text("a b\n")
    assert main(["score", "--metric", "noisy-a", "--summaries", str(summaries), "--references",
                 str(summaries), *flag]) == 0
    err = capsys.readouterr().err
    assert "TQDM_DISABLE" not in os.environ  # --quiet restores the environment it changed
    bars = ["noisy", "metrics", "correlations"]
    assert (not any(bar in err for bar in bars)) if quiet else all(bar in err for bar in bars)


def test_quiet_leaves_tqdm_its_defaults_when_it_first_imports_it():
    """tqdm reads TQDM_DISABLE once, when imported: a first import inside ``quiet()`` must not make every
    later bar of the process silent."""
    import subprocess
    import sys

    script = ("import io\nfrom rougelab.progress import quiet\nwith quiet():\n    import tqdm.auto\n"
              "from tqdm import tqdm\nprint(tqdm(range(1), file=io.StringIO()).disable)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                          env={k: v for k, v in os.environ.items() if k != "TQDM_DISABLE"})
    assert done.stdout.strip() == "False"
