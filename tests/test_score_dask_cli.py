"""`rougelab score --dask`: the same output as without it, from text files and from Parquet; a missing
dask is a one-line error naming the extra."""
import json
import sys

import pandas as pd
import pytest

from rougelab.cli import main
from rougelab.synthetic import synthetic_pairs

METRICS = "rouge-1,rouge-2,rouge-l,length"


@pytest.fixture(autouse=True)
def private_score_cache(tmp_path, monkeypatch):
    """The workers inherit this process's environment: the score cache goes to a private folder."""
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """One small LocalCluster for the module (`--dask ADDRESS`); its workers keep a private score cache."""
    from rougelab.scale import client

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ROUGELAB_CACHE", str(tmp_path_factory.mktemp("worker-cache")))
        with client(n_workers=2, memory_limit="1GiB") as c:
            yield c.scheduler.address


@pytest.fixture
def pairs(tmp_path):
    frame = synthetic_pairs(300, words=30, seed=7)
    (tmp_path / "sys.txt").write_text("\n".join(s.replace("\n", "<q>") for s in frame.summary) + "\n")
    (tmp_path / "ref.txt").write_text("\n".join(r[0].replace("\n", "<q>") for r in frame.references) + "\n")
    frame.to_parquet(tmp_path / "pairs.parquet", index=False)
    return tmp_path


def score(capsys, *argv) -> dict:
    assert main(["score", "--metric", METRICS, "--format", "json", "--n-resamples", "200", *argv]) == 0
    return json.loads(capsys.readouterr().out)


TEXT = ["--sentence-separator", "<q>"]


def text_files(folder) -> list[str]:
    return ["--summaries", str(folder / "sys.txt"), "--references", str(folder / "ref.txt"), *TEXT]


def test_dask_gives_the_corpus_scores_and_signature_of_one_process(pairs, scheduler, capsys):
    alone = score(capsys, *text_files(pairs))
    assert score(capsys, *text_files(pairs), "--dask", scheduler) == alone
    parquet = ["--summaries", str(pairs / "pairs.parquet")]
    assert score(capsys, *parquet, "--dask", scheduler) == alone  # read by the workers
    assert score(capsys, *parquet) == alone                       # read here
    assert {row["metric"] for row in alone["scores"]} == set(METRICS.split(","))
    rows = ["--per-summary", "--format", "csv"]
    assert main(["score", "--metric", METRICS, *parquet, *rows]) == 0
    here = capsys.readouterr().out
    assert main(["score", "--metric", METRICS, *parquet, *rows, "--dask", scheduler]) == 0
    assert capsys.readouterr().out == here


@pytest.mark.slow
def test_dask_without_an_address_starts_a_local_cluster(pairs, capsys):
    assert score(capsys, *text_files(pairs), "--dask") == score(capsys, *text_files(pairs))


def test_parquet_without_the_columns_is_refused_by_name(pairs, scheduler, capsys):
    pd.DataFrame({"summary": ["a b"], "refs": [["a"]]}).to_parquet(pairs / "bad.parquet")
    assert main(["score", "--metric", "rouge-1", "--summaries", str(pairs / "bad.parquet"), "--dask", scheduler]) == 2
    err = capsys.readouterr().err
    assert "missing: references" in err and "not read: refs" in err and "Traceback" not in err


@pytest.mark.parametrize("module", ["distributed", "dask.dataframe"])
def test_without_dask_one_line_names_the_extra(pairs, capsys, monkeypatch, module):
    monkeypatch.setitem(sys.modules, module, None)  # `import module` now raises ImportError
    code = main(["score", "--metric", "rouge-1", "--summaries", str(pairs / "sys.txt"),
                 "--references", str(pairs / "ref.txt"), "--dask"])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "pip install 'rougelab[scale]'" in err and "Traceback" not in err
