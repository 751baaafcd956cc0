"""Several metrics in one Dask pass, and Parquet in and out, give the single-process scores."""
import os
import stat

import pandas as pd
import pytest

from rougelab.metrics.registry import get_metric
from rougelab.scale import client, joined_table, score_dask, score_parquet
from rougelab.synthetic import synthetic_pairs

NAMES = ["rouge-1", "rouge-2", "rouge-l", "rouge-1-nostem", "length"]


@pytest.fixture(scope="module")
def local_client():
    with client(n_workers=2, memory_limit="1GiB") as c:
        yield c


def alone(frame, names):
    """Each metric scored on its own over the whole table, side by side."""
    return joined_table(names, [get_metric(n).score(list(frame.summary), list(frame.references)) for n in names])


def test_joined_table_names_a_repeated_column_by_its_metric():
    a, b = pd.DataFrame({"x": [1.0]}), pd.DataFrame({"x": [2.0], "y": [3.0]})
    assert list(joined_table(["m", "n"], [a, b]).columns) == ["x", "n:x", "y"]


def test_several_metrics_in_one_pass_equal_each_alone(local_client):
    frame = synthetic_pairs(2_000, words=30, seed=4)
    got = score_dask(frame, NAMES, chunksize=700).compute()
    expected = alone(frame, NAMES)
    assert "rouge-1-nostem:rouge1_f" in expected.columns
    pd.testing.assert_frame_equal(got.reset_index(drop=True), expected)


def test_parquet_in_and_out(local_client, tmp_path):
    frame = synthetic_pairs(1_500, words=25, seed=5)
    frame.to_parquet(tmp_path / "pairs.parquet")
    old = os.umask(0o022)
    try:
        score_parquet(str(tmp_path / "pairs.parquet"), str(tmp_path / "scores"), ["rouge-2", "rouge-l"])
    finally:
        os.umask(old)
    written = sorted((tmp_path / "scores").glob("*.parquet"))
    got = pd.concat([pd.read_parquet(p) for p in written], ignore_index=True)
    pd.testing.assert_frame_equal(got, alone(frame, ["rouge-2", "rouge-l"]))
    assert all(stat.S_IMODE(p.stat().st_mode) & 0o044 == 0o044 for p in written)  # readable by the group, others


def test_the_written_files_read_back_in_row_order(local_client, tmp_path):
    """pandas reads a folder's files in name order: with Dask's own names, partition 10 came before
    partition 2 and a user reading the scores of 11 or more partitions got rows out of order."""
    frame = synthetic_pairs(12 * 30, words=12, seed=6)
    (tmp_path / "pairs").mkdir()
    for i in range(12):
        frame.iloc[30 * i:30 * (i + 1)].to_parquet(tmp_path / "pairs" / f"in-{i:02d}.parquet", index=False)
    score_parquet(str(tmp_path / "pairs"), str(tmp_path / "scores"), ["rouge-1"])
    assert len(list((tmp_path / "scores").glob("*.parquet"))) == 12
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "scores"), alone(frame, ["rouge-1"]))


def test_a_partition_is_read_and_scored_in_one_task(tmp_path):
    """No task of the graph only reads Parquet: the worker that reads a partition scores it, so its texts
    never travel to another worker (Dask ran ``read_parquet`` and ``score_partition`` as separate tasks,
    and moved partitions between them)."""
    import dask.dataframe as dd

    for i in range(3):
        synthetic_pairs(50, words=10, seed=i).to_parquet(tmp_path / f"part-{i}.parquet")
    scores = score_dask(dd.read_parquet(str(tmp_path)), ["rouge-1", "rouge-2"])
    names = {key[0] if isinstance(key, tuple) else key for key in dict(scores.__dask_graph__())}
    assert scores.npartitions == 3
    assert len(names) == 1 and "read_parquet" in next(iter(names)) and "score_partition" in next(iter(names))
