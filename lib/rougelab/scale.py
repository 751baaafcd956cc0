"""Scale-out: score a table too large for one process through Dask, partition by partition.

Each partition is scored by the same metric objects as the single-process path, through the same
content-addressed score cache (atomic writes, so workers on one machine or a shared file system
can share it), so the results are identical to ``metric.score`` on the whole table. Several metrics
are scored in one pass over the data (``cached_scores``: classic ROUGE measures of the same settings
share one tokenisation); ``score_parquet`` reads and writes Parquet, so the data never has to fit in
one process.

``client(address)`` connects to any running scheduler (``tcp://host:8786``); with no address it
starts a ``LocalCluster`` on this machine. A cluster elsewhere needs rougelab installed in the
same version on every worker, and ``ROUGELAB_CACHE`` pointing at a shared folder if the workers
should share the score cache.
"""
from __future__ import annotations

from typing import Sequence

import pandas as pd

from rougelab.extras import require
from rougelab.metrics.registry import get_metric
from rougelab.score_cache import cached_scores


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


def _names(metric_names: str | Sequence[str]) -> list[str]:
    return [metric_names] if isinstance(metric_names, str) else list(metric_names)


def joined_table(names: Sequence[str], tables: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """The metrics' tables side by side; a column name already taken by an earlier metric gets the
    metric's name in front (``rouge-1-nostem:rouge1_f``)."""
    renamed, taken = [], set()
    for name, table in zip(names, tables):
        renamed.append(table.rename(columns=lambda c: f"{name}:{c}" if c in taken else c))
        taken |= set(renamed[-1].columns)
    return pd.concat(renamed, axis=1) if len(renamed) > 1 else renamed[0]


def score_partition(part: pd.DataFrame, metric_names: str | Sequence[str]) -> pd.DataFrame:
    """Score one partition (columns ``summary``, ``references`` and, if needed, ``source``) with every metric."""
    names = _names(metric_names)
    metrics = [get_metric(name) for name in names]
    sources = list(part["source"]) if any(m.needs_source for m in metrics) else None
    # A list column read back from Arrow may arrive as arrays (-> lists); a string stays a string,
    # so that the batch check rejects it rather than scoring its characters as references.
    references = [r if isinstance(r, str) else list(r) for r in part["references"]]
    scores = joined_table(names, cached_scores(metrics, list(part["summary"]), references, sources))
    scores.index = part.index
    return scores


def score_dask(frame, metric_names: str | Sequence[str], *, chunksize: int = 10_000):
    """A lazy Dask DataFrame of the scores of ``metric_names`` (one name or several, scored in one pass)
    for every row of ``frame``.

    ``frame`` is a Dask DataFrame (or a pandas one, split into partitions of ``chunksize`` rows) with
    columns ``summary``, ``references`` (a list of strings per row) and, for metrics that read the
    source, ``source``. Call ``.compute()`` on the result (with a ``client`` active) to run it, or
    ``.to_parquet(folder)`` to write it partition by partition.
    """
    require("dask.dataframe", extra="scale", needed_for="scoring through Dask")
    import dask
    import dask.dataframe as dd

    if isinstance(frame, pd.DataFrame):
        # Dask would otherwise turn the list column into Arrow strings.
        with dask.config.set({"dataframe.convert-string": False}):
            frame = dd.from_pandas(frame, chunksize=chunksize, sort=False)
    names = _names(metric_names)
    metrics = [get_metric(name) for name in names]
    example = joined_table(names, [m.score(["a b"], [["a b"]], ["a b"] if m.needs_source else None)
                                   for m in metrics])
    meta = pd.DataFrame({c: pd.Series(dtype=float) for c in example.columns})
    return frame.map_partitions(score_partition, names, meta=meta)


def score_parquet(source: str, target: str, metric_names: str | Sequence[str]) -> None:
    """Score the rows of the Parquet data at ``source`` (columns as ``score_dask`` reads them) and write
    the scores, row for row, as Parquet to the folder ``target``, one file per partition (files made with
    the workers' umask). Runs on the active Dask client (``client``), or Dask's default scheduler."""
    require("dask.dataframe", extra="scale", needed_for="scoring through Dask")
    import dask
    import dask.dataframe as dd

    with dask.config.set({"dataframe.convert-string": False}):
        frame = dd.read_parquet(source)
    score_dask(frame, metric_names).to_parquet(target, write_index=False)
