"""The Dask path gives the same scores as the single-process path, on a real LocalCluster."""
import pandas as pd
import pytest

from rougelab.metrics.registry import get_metric
from rougelab.scale import client, score_dask
from rougelab.synthetic import synthetic_pairs


@pytest.fixture(scope="module")
def local_client():
    with client(n_workers=2, memory_limit="1GiB") as c:
        yield c


@pytest.mark.parametrize("metric_name", ["length", "rouge-1", "rouge-l"])
def test_dask_equals_single_process(local_client, metric_name):
    """Three partitions scored on two workers, compared with one call on the whole table."""
    frame = synthetic_pairs(3_000, words=20, seed=1)
    expected = get_metric(metric_name).score(list(frame.summary), list(frame.references))
    got = score_dask(frame, metric_name, chunksize=1_000).compute()
    pd.testing.assert_frame_equal(got.reset_index(drop=True), expected)


def test_references_turned_into_strings_are_refused(local_client):
    import dask.dataframe as dd
    from rougelab.metrics.base import InputError

    frame = dd.from_pandas(synthetic_pairs(20, seed=2), npartitions=2, sort=False)  # lists -> Arrow strings
    with pytest.raises(InputError, match="is a string"):
        score_dask(frame, "rouge-1").compute()


def test_synthetic_pairs_are_seeded_and_shaped():
    a, b = synthetic_pairs(10, words=40, seed=3), synthetic_pairs(10, words=40, seed=3)
    pd.testing.assert_frame_equal(a, b)
    assert a.summary.map(lambda s: len(s.split())).tolist() == [40] * 10
    assert a.summary.map(lambda s: s.count("\n")).tolist() == [1] * 10
