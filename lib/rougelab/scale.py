"""Scale-out: score a table too large for one process through Dask, partition by partition.

Each partition is scored by the same metric objects as the single-process path, through the same
content-addressed score cache (atomic writes, so workers on one machine or a shared file system
can share it), so the results are identical to ``metric.score`` on the whole table. Several metrics
are scored in one pass over the data (``cached_scores``: classic ROUGE measures of the same settings
share one tokenisation); ``score_parquet`` reads and writes Parquet, so the data never has to fit in
one process, and each worker reads the partitions it scores.

``client(address)`` connects to any running scheduler (``tcp://host:8786``); with no address it
starts a ``LocalCluster`` on this machine. A cluster elsewhere needs rougelab installed in the
same version on every worker, and ``ROUGELAB_CACHE`` pointing at a shared folder if the workers
should share the score cache.
"""
from __future__ import annotations

import asyncio
import os
import weakref
from contextlib import suppress
from functools import lru_cache
from pathlib import Path
from typing import Sequence

import pandas as pd

from rougelab.extras import require
from rougelab.metrics.base import Metric
from rougelab.metrics.registry import get_metric
from rougelab.score_cache import cached_scores
from rougelab.scoring import InputError
from rougelab.user_files import check_parquet_columns


def client(address: str | None = None, *, n_workers: int | None = None, threads_per_worker: int = 1,
           memory_limit: str = "auto"):
    """A ``distributed.Client``: to the scheduler at ``address``, or to a new LocalCluster (closed with
    the client) of ``n_workers`` (default: one per core) whose kernels use as many threads as the worker
    has (``NUMBA_NUM_THREADS``), so that the workers do not compete for the cores. That cluster closes
    without a word on stderr: every worker gates its heartbeat as it starts (``_gate_heartbeat``, a setup
    callback, so a worker its nanny restarts too) and stops it before closing (``_stop_heartbeat``), so that
    the closing cuts none off, and each nanny gives its worker ``CLOSE_SECONDS`` to close."""
    require("distributed", extra="scale", needed_for="a Dask cluster")
    from distributed import Client

    if address:
        return Client(address)
    local_client, nanny = _local_cluster_classes()
    local = local_client(n_workers=n_workers or os.cpu_count() or 1, threads_per_worker=threads_per_worker,
                         memory_limit=memory_limit, processes=True, worker_class=nanny, dashboard_address=":0",
                         env={"NUMBA_NUM_THREADS": str(threads_per_worker)})
    local.register_worker_callbacks(setup=_gate_heartbeat)  # runs on these workers and on every later one
    return local


# distributed's nanny waits 4 s for its worker to close, then kills it with a warning on stderr: on a machine
# busy with other work, a worker of ours often took longer.
CLOSE_SECONDS = 30


@lru_cache(maxsize=None)
def _local_cluster_classes():
    """``distributed``'s Client whose ``close`` first stops the workers' heartbeats (for a cluster of its own),
    and Nanny that waits ``CLOSE_SECONDS`` for its worker to close."""
    from distributed import Client, Nanny

    class LocalClient(Client):
        def close(self, *args, **kwargs):
            if self.status == "running":
                with suppress(OSError, TimeoutError):  # a scheduler already gone has no heartbeats to stop
                    self.run(_stop_heartbeat, on_error="ignore")
            return super().close(*args, **kwargs)

    class PatientNanny(Nanny):
        async def close(self, timeout: float = CLOSE_SECONDS, reason: str = "nanny-close"):
            return await super().close(timeout=timeout, reason=reason)

    return LocalClient, PatientNanny


# A worker's heartbeat is a request to the scheduler every half second. One under way when the cluster closes
# is cut off (the worker logs "Failed to communicate with scheduler during heartbeat" to stderr), and one that
# arrives after the scheduler retired the worker is refused ("Scheduler was unaware of this worker"). So each
# worker holds a lock while a beat waits for its answer, and stops beating, between two beats, before closing.
_BEATING: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # worker -> its lock


def _gate_heartbeat(dask_worker) -> None:
    """Run on a worker as it starts (a setup callback): its heartbeat holds the worker's lock until the
    scheduler answers."""
    beat, lock = dask_worker.heartbeat, _BEATING.setdefault(dask_worker, asyncio.Lock())

    async def gated():
        async with lock:
            await beat()

    dask_worker.periodic_callbacks["heartbeat"].callback = gated


async def _stop_heartbeat(dask_worker) -> None:
    """Run on a worker: stop its heartbeat, once the beat under way (if any) has its answer."""
    dask_worker.periodic_callbacks["heartbeat"].stop()
    async with _BEATING.get(dask_worker) or asyncio.Lock():
        pass


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
    meta = joined_table(names, [_empty_table(m) for m in metrics])
    # Optimised here, so that reading a partition and scoring it are one task (Dask's blockwise fusion, which
    # ``to_parquet`` and ``compute`` leave out): the worker that reads a partition scores it, and only the
    # scores travel, never the texts (pickling 10,000 pairs costs a good part of scoring them).
    return frame.map_partitions(score_partition, names, meta=meta).optimize()


def _empty_table(metric) -> pd.DataFrame:
    """The metric's table for no rows: its declared ``columns``, or those of a one-pair score."""
    columns = metric.columns or metric.score(["a b"], [["a b"]], ["a b"] if metric.needs_source else None).columns
    return pd.DataFrame({c: pd.Series(dtype=float) for c in columns})


def score_parquet(source: str, target: str, metric_names: str | Sequence[str]) -> None:
    """Score the rows of the Parquet data at ``source`` (columns as ``score_dask`` reads them) and write
    the scores, row for row, as Parquet to the folder ``target``, one file per partition (files made with
    the workers' umask), named so that their names sort in row order (``part-000000.parquet``, ...): a reader
    of the folder (``pandas.read_parquet``, pyarrow) takes the files in name order, and Dask's own names
    (``part.10.parquet`` before ``part.2.parquet``) put the rows of 11 or more partitions out of order.
    Runs on the active Dask client (``client``), or Dask's default scheduler."""
    require("dask.dataframe", extra="scale", needed_for="scoring through Dask")
    import dask
    import dask.dataframe as dd

    with dask.config.set({"dataframe.convert-string": False}):
        frame = dd.read_parquet(source)
    width = max(6, len(str(frame.npartitions - 1)))
    score_dask(frame, metric_names).to_parquet(target, write_index=False,
                                               name_function=lambda i: f"part-{i:0{width}d}.parquet")


def score_tables(data, metrics: Sequence[Metric], address: str | None = None, *,
                 chunksize: int = 10_000) -> list[pd.DataFrame]:
    """Each metric's per-summary table, as ``metric.score`` gives it, scored through Dask on the cluster at
    ``address`` (none: a LocalCluster of one one-thread worker per core). ``data`` is a pandas DataFrame
    or the path of Parquet data (a file or a folder of files, read by the workers), columns as
    ``score_dask`` reads them. The metrics go to the workers by name (``rougelab score --dask``)."""
    require("dask.dataframe", extra="scale", needed_for="scoring through Dask")
    import dask
    import dask.dataframe as dd

    names = [metric.name for metric in metrics]
    with client(address):
        if isinstance(data, (str, Path)):
            with dask.config.set({"dataframe.convert-string": False}):
                path, data = data, dd.read_parquet(str(data))
            check_parquet_columns(path, list(data.columns))
        reading = [metric.name for metric in metrics if metric.needs_source]
        if reading and "source" not in data.columns:
            raise InputError(f"metrics {', '.join(reading)} read the source documents: the data has no 'source' column")
        joined = score_dask(data, names, chunksize=chunksize).compute()
    tables, start = [], 0
    for metric in metrics:  # the joined columns back into each metric's own table
        columns = _empty_table(metric).columns
        table = joined.iloc[:, start:start + len(columns)].reset_index(drop=True)
        table.columns = columns
        tables.append(table)
        start += len(columns)
    return tables
