"""Scale-out: score a table too large for one process through Dask, partition by partition.

Each partition is scored by the same metric object as the single-process path, through the same
content-addressed score cache (atomic writes, so workers on one machine or a shared file system
can share it), so the results are identical to ``metric.score`` on the whole table.

``client(address)`` connects to any running scheduler (``tcp://host:8786``); with no address it
starts a ``LocalCluster`` on this machine. A cluster elsewhere needs rougelab installed in the
same version on every worker, and ``ROUGELAB_CACHE`` pointing at a shared folder if the workers
should share the score cache.
"""
from __future__ import annotations

import pandas as pd

from rougelab.extras import require
from rougelab.metrics.registry import get_metric
from rougelab.score_cache import cached_score


def client(address: str | None = None, *, n_workers: int = 2, threads_per_worker: int = 1,
           memory_limit: str = "4GiB"):
    """A ``distributed.Client``: to the scheduler at ``address``, or to a new LocalCluster."""
    require("distributed", extra="scale", needed_for="a Dask cluster")
    from distributed import Client, LocalCluster

    if address:
        return Client(address)
    cluster = LocalCluster(n_workers=n_workers, threads_per_worker=threads_per_worker,
                           memory_limit=memory_limit, processes=True, dashboard_address=":0")
    return Client(cluster)


def score_partition(part: pd.DataFrame, metric_name: str) -> pd.DataFrame:
    """Score one partition (columns ``summary``, ``references`` and, if needed, ``source``)."""
    metric = get_metric(metric_name)
    sources = list(part["source"]) if metric.needs_source else None
    # A list column read back from Arrow may arrive as arrays (-> lists); a string stays a string,
    # so that the batch check rejects it rather than scoring its characters as references.
    references = [r if isinstance(r, str) else list(r) for r in part["references"]]
    scores = cached_score(metric, list(part["summary"]), references, sources)
    scores.index = part.index
    return scores


def score_dask(frame, metric_name: str, *, chunksize: int = 10_000):
    """A lazy Dask DataFrame of ``metric_name``'s scores for every row of ``frame``.

    ``frame`` is a Dask DataFrame (or a pandas one, split into partitions of ``chunksize`` rows) with
    columns ``summary``, ``references`` (a list of strings per row) and, for metrics that read the
    source, ``source``. Call ``.compute()`` on the result (with a ``client`` active) to run it.
    """
    require("dask.dataframe", extra="scale", needed_for="scoring through Dask")
    import dask
    import dask.dataframe as dd

    if isinstance(frame, pd.DataFrame):
        # Dask would otherwise turn the list column into Arrow strings.
        with dask.config.set({"dataframe.convert-string": False}):
            frame = dd.from_pandas(frame, chunksize=chunksize, sort=False)
    metric = get_metric(metric_name)
    example = metric.score(["a b"], [["a b"]], ["a b"] if metric.needs_source else None)
    meta = pd.DataFrame({c: pd.Series(dtype=float) for c in example.columns})
    return frame.map_partitions(score_partition, metric_name, meta=meta)
