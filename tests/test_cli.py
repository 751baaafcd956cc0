"""`rougelab evaluate` end to end on real data with the trivial `length` metric, and its errors."""
import json

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
