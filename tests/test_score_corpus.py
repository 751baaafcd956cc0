"""Corpus scores with bootstrap intervals and signature: ``rougelab.corpus.corpus_score``, ``rougelab score``
(files or standard input, text/json/csv) and ``rougelab compare`` on the command line."""
from __future__ import annotations

import io
import json

import numpy as np
import pytest

from rougelab import __version__
from rougelab.cli import main
from rougelab.compare import compare_systems
from rougelab.corpus import corpus_score
from rougelab.metrics.registry import get_metric
from rougelab.scoring import InputError

SUMMARIES = ["the cat sat on the mat", "the dog ran to the park", "birds sing in the morning",
             "rain fell all day long"]
REFERENCES = [["the cat was on the mat"], ["a dog ran in the park"], ["the birds sang at dawn"],
              ["it rained the whole day"]]


def test_corpus_score_is_the_mean_with_a_seeded_percentile_bootstrap():
    result = corpus_score(SUMMARIES, REFERENCES, ["rouge-1", "rouge-2"], n_resamples=500, seed=9)
    rows = np.hstack([get_metric(m).score(SUMMARIES, REFERENCES).to_numpy() for m in ("rouge-1", "rouge-2")])
    np.testing.assert_allclose(result.table["score"], rows.mean(axis=0), rtol=0, atol=1e-15)
    draws = np.random.default_rng(9).integers(0, len(rows), size=(500, len(rows)))
    means = rows[draws].mean(axis=1)
    np.testing.assert_allclose(result.table["low"], np.quantile(means, 0.025, axis=0), rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.table["high"], np.quantile(means, 0.975, axis=0), rtol=0, atol=1e-12)
    assert list(result.table["column"]) == [*get_metric("rouge-1").score(SUMMARIES[:1], REFERENCES[:1]).columns,
                                            *get_metric("rouge-2").score(SUMMARIES[:1], REFERENCES[:1]).columns]
    assert result.signature.endswith("+ bootstrap:500|confidence:0.95|seed:9")
    assert result.signature.startswith(get_metric("rouge-1").signature)
    other = corpus_score(SUMMARIES, REFERENCES, ["rouge-1", "rouge-2"], n_resamples=500, seed=10)
    assert not other.table["low"].equals(result.table["low"])


def test_one_summary_has_a_zero_width_interval_and_no_resamples_no_interval():
    one = corpus_score(SUMMARIES[:1], REFERENCES[:1], "rouge-1").table
    assert (one["low"] == one["score"]).all() and (one["high"] == one["score"]).all()
    none = corpus_score(SUMMARIES, REFERENCES, "rouge-1", n_resamples=0)
    assert none.table[["low", "high"]].isna().all().all() and none.signature.endswith("+ bootstrap:0")
    assert json.loads(none.format("json"))["scores"][0]["low"] is None


def _unused_scorer(summaries, references):
    raise AssertionError("corpus_of_tables reads tables already scored")


@pytest.mark.parametrize("seed", range(12))
def test_text_and_json_are_what_pandas_makes_of_the_table(seed):
    """``format("text")`` and ``to_dict()`` lay the scores out without pandas: exactly as the table's
    ``to_string`` (the text ``rougelab score`` printed through pandas) and ``to_dict`` would, for names of
    any length, missing intervals or scores, tiny, huge and negative numbers."""
    import pandas as pd

    from rougelab.corpus import corpus_of_tables
    from rougelab.metrics.base import Metric
    from rougelab.score_table import ScoreTable

    rng = np.random.default_rng(seed)
    names = rng.choice(["m", "rouge-1", "rouge-su4-jackknife", "a-much-longer-metric-name"], 2, replace=False)
    metrics = [Metric(str(n), _unused_scorer, primary="x", pins={"code": "toy"}) for n in names]
    n_rows, tables = int(rng.integers(1, 5)), []
    for width in rng.integers(1, 4, size=2):
        values = rng.choice([0.5, 1e-9, -2.25, 1e7, 0.0, 1 / 3, np.nan], size=(n_rows, width))
        columns = tuple(str(c) for c in rng.choice(["r", "rouge1_f", "bleu", "a_long_column_name"], width,
                                                     replace=False))
        tables.append(ScoreTable(columns, values) if seed % 2 else pd.DataFrame(values, columns=columns))
    result = corpus_of_tables(metrics, tables, n_resamples=int(rng.choice([0, 40])), seed=seed)
    table = result.table
    pandas_text = table.to_string(index=False, na_rep="", float_format=lambda x: f"{x:.4f}")
    assert result.format("text") == f"{pandas_text}\nsignature: {result.signature}"
    records = table.astype(object).where(table.notna(), None).to_dict(orient="records")
    assert result.format("json") == json.dumps({"scores": records, "signature": result.signature}, indent=1)
    assert list(result.rows.columns) == [c for t in tables for c in t.columns] or \
        list(result.rows.columns) == [f"{n}:{c}" for n, t in zip(names, tables) for c in t.columns]
    np.testing.assert_array_equal(result.rows.to_numpy(), np.hstack([t.values for t in tables]))


@pytest.mark.parametrize("kwargs, parameter", [
    (dict(metrics=[]), "metrics"), (dict(n_resamples=-1), "n_resamples"), (dict(confidence=95), "confidence"),
])
def test_corpus_score_refusals_name_the_parameter(kwargs, parameter):
    with pytest.raises(InputError, match=parameter):
        corpus_score(SUMMARIES, REFERENCES, **{"metrics": "rouge-1", **kwargs})


@pytest.fixture
def files(tmp_path):
    summaries = tmp_path / "sys.txt"
    summaries.write_text("".join(s + "\n" for s in SUMMARIES))
    references = tmp_path / "ref.txt"
    references.write_text("".join(r[0] + "\n" for r in REFERENCES))
    return summaries, references


def _stdin(monkeypatch, text: str):
    stream = io.TextIOWrapper(io.BytesIO(text.encode("utf-8")))
    stream.isatty = lambda: False
    monkeypatch.setattr("sys.stdin", stream)


def test_score_reads_standard_input_and_prints_corpus_scores_with_the_signature(files, monkeypatch, capsys):
    _, references = files
    _stdin(monkeypatch, "".join(s + "\n" for s in SUMMARIES))
    assert main(["score", "--metric", "rouge-1", "--references", str(references), "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = corpus_score(SUMMARIES, REFERENCES, "rouge-1")
    assert printed == json.loads(expected.format("json"))
    assert [row["column"] for row in printed["scores"]] == ["rouge1_r", "rouge1_p", "rouge1_f"]


def test_score_text_csv_and_per_summary_rows(files, capsys):
    summaries, references = files
    argv = ["score", "--metric", "rouge-2", "--summaries", str(summaries), "--references", str(references),
            "--seed", "3", "--n-resamples", "200"]
    assert main(argv) == 0
    text = capsys.readouterr().out.splitlines()
    expected = corpus_score(SUMMARIES, REFERENCES, "rouge-2", n_resamples=200, seed=3)
    assert text[-1] == f"signature: {expected.signature}"
    f_row = next(line.split() for line in text if "rouge2_f" in line)
    assert [float(x) for x in f_row[2:]] == [round(v, 4) for v in expected.table.iloc[2][["score", "low", "high"]]]
    assert main([*argv, "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "metric,column,score,low,high"
    assert main([*argv, "--per-summary", "--format", "jsonl"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["rouge2_f"] for r in rows] == pytest.approx(list(expected.rows["rouge2_f"]), abs=1e-15)


def test_version_and_one_line_errors(files, capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f"rougelab {__version__}"
    summaries, references = files
    base = ["score", "--metric", "rouge-1", "--summaries", str(summaries), "--references", str(references)]
    for extra in (["--format", "jsonl"], ["--confidence", "95"], ["--references", "-", "--summaries", "-"]):
        assert main([*base, *extra]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_compare_command_prints_what_compare_systems_returns(tmp_path, capsys):
    references = tmp_path / "ref.txt"
    references.write_text("".join(r[0] + "\n" for r in REFERENCES))
    better = ["the cat was on a mat", "a dog ran in a park", "the birds sang at dawn", "it rained all day"]
    paths = []
    for name, texts in [("base.txt", SUMMARIES), ("better.txt", better)]:
        (tmp_path / name).write_text("".join(t + "\n" for t in texts))
        paths.append(str(tmp_path / name))
    assert main(["compare", "--metric", "rouge-1", "--references", str(references), *paths,
                 "--n-resamples", "300", "--n-trials", "300", "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = compare_systems({p: t for p, t in zip(paths, [SUMMARIES, better])}, REFERENCES, "rouge-1",
                               n_resamples=300, n_trials=300)
    row = printed["comparisons"][1]
    for key in ("score", "delta", "low", "high", "p_bootstrap", "p_ar"):
        assert row[key] == pytest.approx(expected.table.iloc[1][key], abs=1e-15), key
    assert printed["signatures"] == [expected.signature]
    assert main(["compare", "--metric", "rouge-1", "--references", str(references), paths[0]]) == 2
    assert "at least one system" in capsys.readouterr().err
