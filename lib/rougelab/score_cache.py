"""A content-addressed cache of metric scores: (metric signature, texts) -> score table.

Keys are SHA-256 digests of the metric's signature and of every text it reads, never row
positions, so a cached table is reused only for exactly the same inputs and options. The signature
ends with the code fingerprint, the versions of the third-party packages whose code computes the metric
and the digest of its resource files (``rougelab.fingerprint``), so after a change to any of them the
cache misses. Entries are kept by the cache store (``rougelab.cache_store``: atomic writes, a metadata
record beside each file); a corrupt file is reported and recomputed.
"""
from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from rougelab.cache_store import Maker, entry_file, save
from rougelab.metrics.base import Metric
from rougelab.paths import cache_dir
from rougelab.progress import bar
from rougelab.scoring import checked_batch
from rougelab.warn import warn


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
    return _path(metric, content_digest(summaries, references, sources))


def _path(metric: Metric, digest: str) -> Path:
    return entry_file(cache_dir("scores"), metric.name, _maker(metric), ".npz", digest)


def _maker(metric: Metric) -> Maker:
    return Maker(metric.signature, packages=metric.packages, resources=tuple(metric.resource_files()))


def cached_score(metric: Metric, summaries, references, sources=None) -> pd.DataFrame:
    """``metric.score(...)``, read from the cache when these exact inputs were scored before."""
    return cached_scores([metric], summaries, references, sources)[0]


def cached_scores(metrics: list[Metric], summaries, references, sources=None, *,
                  progress: bool = False) -> list[pd.DataFrame]:
    """``cached_score`` of each of ``metrics``. The metrics the cache misses that differ only in their
    ``measures`` option (ROUGE-1, -2 and -L; ROUGE-G-1, -2 and -SU4) are scored in one call of their
    scorer, which shares the work between the measures (ROUGE-G's Sim_sem blocks, ROUGE's tokens): a
    measure scored with others gets the same numbers as alone (tests/test_score_cache.py), and each
    metric's table is stored under its own signature. ``progress`` shows a bar over the calls."""
    with checked_batch(summaries, references, sources, needs_source=any(m.needs_source for m in metrics)):
        digests = {False: content_digest(summaries, references)}  # the texts are hashed once, not once per metric
        if any(m.needs_source for m in metrics):
            digests[True] = content_digest(summaries, references, sources)
        paths = [_path(m, digests[m.needs_source]) for m in metrics]
        tables: list[pd.DataFrame | None] = [_read(p, len(summaries)) if p.is_file() else None for p in paths]
        groups: dict[tuple, list[int]] = {}
        for i, metric in enumerate(metrics):
            if tables[i] is None:
                groups.setdefault(_joint_key(metric), []).append(i)
        for members in bar(groups.values(), progress=progress and len(groups) > 1, desc="metrics"):
            scored = _score_together([metrics[i] for i in members], summaries, references, sources)
            for i, table in zip(members, scored):
                tables[i] = table
                save(paths[i], _npz(table), _maker(metrics[i]))
        return tables


def _joint_key(metric: Metric) -> tuple:
    """Metrics with equal keys can be scored in one call (a metric without ``measures``: only alone)."""
    if "measures" not in metric.options:
        return (id(metric),)
    others = sorted((k, repr(v)) for k, v in metric.options.items() if k != "measures")
    return (metric.scorer, metric.needs_source, metric.resources, repr(sorted(metric.pins.items())), repr(others))


def _score_together(metrics: list[Metric], summaries, references, sources) -> list[pd.DataFrame]:
    """Each metric's table, from one call with all their measures when each metric's R, P and F columns
    can be told apart in it (its primary column's prefix), else from a call of its own."""
    sources = sources if metrics[0].needs_source else None
    if len(metrics) > 1:
        measures = list(dict.fromkeys(m for metric in metrics for m in metric.options["measures"]))
        joint = metrics[0].with_options(measures=measures).score(summaries, references, sources)
        prefixes = [metric.primary.rsplit("_", 1)[0] + "_" for metric in metrics]
        columns = [[c for c in joint.columns if c.startswith(prefix)] for prefix in prefixes]
        if all(c == [f"{prefix}{x}" for x in "rpf"] for c, prefix in zip(columns, prefixes)):
            return [joint[c] for c in columns]
    return [metric.score(summaries, references, sources) for metric in metrics]


def _read(path: Path, expected_rows: int) -> pd.DataFrame | None:
    try:
        with np.load(path, allow_pickle=False) as stored:
            columns = [str(c) for c in stored["columns"]]
            values = stored["values"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as err:
        warn(f"score cache file {path} is corrupt ({err}); recomputing and overwriting it")
        return None
    if values.shape != (expected_rows, len(columns)):
        warn(f"score cache file {path} holds {values.shape} scores for {expected_rows} "
             "summaries; recomputing and overwriting it")
        return None
    return pd.DataFrame(values, columns=columns)


def _npz(table: pd.DataFrame):
    """Writes ``table`` to a binary file handle (an ``.npz`` archive without pickles)."""
    return lambda out: np.savez(out, columns=np.array(table.columns, dtype=str), values=table.to_numpy(dtype=float))
