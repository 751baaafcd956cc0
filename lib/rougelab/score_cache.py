"""A content-addressed cache of metric scores: (metric signature, texts) -> score table.

Keys are SHA-256 digests of the metric's signature and of every text it reads, never row
positions, so a cached table is reused only for exactly the same inputs and options. The signature
ends with the code fingerprint and the digest of the metric's resource files (``rougelab.fingerprint``),
so after a change to the package or to a resource the cache misses. Files are written atomically (a
finished file or none); a corrupt file is reported and recomputed. Each file has a metadata record
beside it (``<file>.meta``: signature, fingerprint, creation time) for ``rougelab cache info``.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from rougelab.fingerprint import write_meta
from rougelab.metrics.base import Metric, check_batch
from rougelab.paths import cache_dir


def content_digest(summaries, references, sources=None) -> str:
    """SHA-256 of every text in the batch, in order, with unambiguous separators."""
    h = hashlib.sha256()
    for i, summary in enumerate(summaries):
        h.update(b"\x1d" + summary.encode("utf-8", "surrogatepass"))
        for ref in references[i]:
            h.update(b"\x1e" + ref.encode("utf-8", "surrogatepass"))
        if sources is not None:
            h.update(b"\x1f" + sources[i].encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def cache_path(metric: Metric, summaries, references, sources=None) -> Path:
    key = hashlib.sha256(metric.signature.encode() + content_digest(summaries, references, sources).encode())
    return cache_dir("scores") / f"{metric.name}-{key.hexdigest()[:24]}.npz"


def cached_score(metric: Metric, summaries, references, sources=None) -> pd.DataFrame:
    """``metric.score(...)``, read from the cache when these exact inputs were scored before."""
    check_batch(summaries, references, sources, needs_source=metric.needs_source)
    path = cache_path(metric, summaries, references, sources if metric.needs_source else None)
    if path.exists():
        table = _read(path, expected_rows=len(summaries))
        if table is not None:
            return table
    table = metric.score(summaries, references, sources)
    _write(path, table)
    write_meta(path, metric.signature, metric.resource_files())
    return table


def _read(path: Path, expected_rows: int) -> pd.DataFrame | None:
    try:
        with np.load(path, allow_pickle=False) as stored:
            columns = [str(c) for c in stored["columns"]]
            values = stored["values"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as err:
        warnings.warn(f"score cache file {path} is corrupt ({err}); recomputing and overwriting it")
        return None
    if values.shape != (expected_rows, len(columns)):
        warnings.warn(f"score cache file {path} holds {values.shape} scores for {expected_rows} "
                      "summaries; recomputing and overwriting it")
        return None
    return pd.DataFrame(values, columns=columns)


def _write(path: Path, table: pd.DataFrame) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "wb") as out:
        np.savez(out, columns=np.array(table.columns, dtype=str), values=table.to_numpy(dtype=float))
    os.replace(tmp, path)
