"""`rougelab evaluate` on the factual-consistency sets: the levels each supports, and accuracy on Rank19."""
import json

import numpy as np
import pytest
from scipy import stats

import rougelab
from rougelab.cli import main
from test_cli import private_score_cache  # noqa: F401 (autouse fixture: scores in a temp folder)


def run(capsys, *argv):
    assert main(["evaluate", *argv, "--format", "json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def test_rank19_accuracy_is_the_share_of_pairs_whose_correct_summary_scores_higher(capsys):
    table = rougelab.load_dataset("rank19")
    lengths = table.assign(n=table.summary.str.split().map(len)).pivot(
        index="doc_id", columns="system_id", values="n")
    wins, ties = (lengths.correct > lengths.incorrect), (lengths.correct == lengths.incorrect)
    [wrong] = run(capsys, "--dataset", "rank19", "--metric", "length", "--level", "summary",
                  "--coef", "accuracy")
    [half] = run(capsys, "--dataset", "rank19", "--metric", "length", "--level", "summary",
                 "--coef", "accuracy-half")
    assert ties.any()  # lengths tie on some pairs, so the two conventions differ
    assert wrong["value"] == pytest.approx(wins.mean()) and wrong["coef"] == "accuracy"
    assert half["value"] == pytest.approx((wins + ties / 2).mean())


def test_rank19_bootstrap_resamples_pairs(capsys):
    table = rougelab.load_dataset("rank19")
    lengths = table.assign(n=table.summary.str.split().map(len)).pivot(
        index="doc_id", columns="system_id", values="n")
    [row] = run(capsys, "--dataset", "rank19", "--metric", "length", "--level", "summary",
                "--coef", "accuracy", "--bootstrap", "500", "--seed", "4")
    # Boot-Inputs on a 2-system table = percentile bootstrap of the mean over pairs (SciPy).
    # Docs are in table order (sorted ids), as the pivot above; same draws from the same seed.
    order = table.drop_duplicates("doc_id")["doc_id"]
    right = (lengths.loc[order].correct > lengths.loc[order].incorrect).to_numpy(dtype=float)
    reference = stats.bootstrap((right,), np.mean, n_resamples=500, method="percentile",
                                rng=np.random.default_rng(4)).confidence_interval
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(tuple(reference), abs=1e-12)


@pytest.mark.parametrize("dataset", ["qags-cnndm", "qags-xsum"])
def test_qags_global_pearson_matches_scipy(dataset, capsys):
    table = rougelab.load_dataset(dataset)
    [row] = run(capsys, "--dataset", dataset, "--metric", "length", "--level", "global", "--coef", "pearson")
    expected = stats.pearsonr(table.summary.str.split().map(len), table.fact).statistic
    assert row["value"] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("argv, message", [
    (["--dataset", "qags-cnndm", "--level", "summary"], "'qags-cnndm' supports --level global only"),
    (["--dataset", "qags-xsum", "--level", "system"], "'qags-xsum' supports --level global only"),
    (["--dataset", "rank19", "--level", "system", "--coef", "accuracy"], "'rank19' supports --level summary only"),
    (["--dataset", "rank19", "--level", "summary", "--coef", "kendall"],
     "'rank19' supports --coef accuracy, accuracy-half, accuracy-eq only, not 'kendall'"),
    (["--dataset", "qags-xsum", "--level", "global", "--coef", "accuracy"], "supports --coef pearson"),
])
def test_a_level_the_design_cannot_support_is_a_one_line_error(argv, message, capsys):
    assert main(["evaluate", *argv, "--metric", "length", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_data_list_says_what_each_factual_set_supports():
    from rougelab.data import describe

    text = describe()
    block = {name: text.split(f"\n{name}: ", 1)[1].split("\n\n", 1)[0] for name in ("qags-cnndm", "qags-xsum", "rank19")}
    assert "levels global; coefficients pearson, spearman, kendall" in block["qags-cnndm"].replace("\n", " ")
    assert "levels summary; coefficients accuracy, accuracy-half, accuracy-eq" in " ".join(block["rank19"].split())
    for name in block:
        assert "repeats the article" in block[name]
