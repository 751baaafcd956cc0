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
import io
import zipfile
from collections import deque
from itertools import chain, repeat
from pathlib import Path

from typing import TYPE_CHECKING

import numpy as np

from rougelab.cache_store import Maker, entry_file, save
from rougelab.metrics.base import Metric
from rougelab.metrics.together import score_together
from rougelab.paths import cache_dir
from rougelab.scoring import check_texts, checked_batch
from rougelab.warn import warn

if TYPE_CHECKING:  # pandas loads when a cached table is read
    import pandas as pd


def content_digest(summaries, references, sources=None) -> str:
    """SHA-256 of every text in the batch, in order, each UTF-8 encoded after a byte that UTF-8 never
    contains (0xFF before a summary, 0xFE before each of its references, 0xFD before its source), so a
    text cannot pass for a separator: the bytes give back the texts and their places. For a batch whose
    shape ``scoring.check_batch`` accepts (at least one reference a summary, so no reference list is empty);
    a text that is not a ``str`` raises ``TypeError``, one that is not valid Unicode (a lone surrogate)
    ``UnicodeEncodeError``: the encoding checks the texts (``cached_scores``)."""
    if set(map(len, references)) == {1}:  # one reference a row (the usual batch): no list to join
        joined = map(str.encode, chain.from_iterable(references))  # a row's one text, whatever its index
    else:
        joined = map(_REFERENCE.join, map(map, repeat(str.encode), references))
    fields = [repeat(_SUMMARY), map(str.encode, summaries), repeat(_REFERENCE), joined]
    if sources is not None:
        fields += [repeat(_SOURCE), map(str.encode, sources)]
    h = hashlib.sha256()
    deque(map(h.update, map(b"".join, zip(*fields))), maxlen=0)  # a row at a time, every loop in C
    return h.hexdigest()


_SUMMARY, _REFERENCE, _SOURCE = b"\xff", b"\xfe", b"\xfd"  # bytes no UTF-8 text contains


def cache_path(metric: Metric, summaries, references, sources=None) -> Path:
    return _path(metric, content_digest(summaries, references, sources))


def _path(metric: Metric, digest: str, maker: Maker | None = None) -> Path:
    return entry_file(cache_dir("scores"), metric.name, maker or _maker(metric), ".npz", digest)


def _maker(metric: Metric) -> Maker:
    return Maker(metric.signature, packages=metric.packages, resources=tuple(metric.resource_files()))


def cached_score(metric: Metric, summaries, references, sources=None) -> pd.DataFrame:
    """``metric.score(...)``, read from the cache when these exact inputs were scored before."""
    return cached_scores([metric], summaries, references, sources)[0]


def cached_scores(metrics: list[Metric], summaries, references, sources=None, *,
                  progress: bool = False) -> list[pd.DataFrame]:
    """``cached_score`` of each of ``metrics``. The metrics the cache misses are scored together
    (``metrics.together.score_together``: those that declare they can join, such as ROUGE-1, -2 and -L,
    in one call of their scorer), and each metric's table is stored under its own signature.
    ``progress`` shows a bar over the calls."""
    needs_source = any(m.needs_source for m in metrics)
    keyed = sources is None or needs_source  # every text goes into a key, whose strict encoding checks it
    with checked_batch(summaries, references, sources, needs_source=needs_source, texts=not keyed):
        digests = _digests(summaries, references, sources if needs_source else None)
        makers = [_maker(m) for m in metrics]
        paths = [_path(m, digests[m.needs_source], maker) for m, maker in zip(metrics, makers)]
        tables: list[pd.DataFrame | None] = [_read(p, len(summaries)) if p.is_file() else None for p in paths]
        missed = [i for i, table in enumerate(tables) if table is None]
        scored = score_together([metrics[i] for i in missed], summaries, references, sources, progress=progress)
        for i, table in zip(missed, scored):
            tables[i] = table
            save(paths[i], _npz(table), makers[i])
        return tables


def _digests(summaries, references, sources) -> dict[bool, str]:
    """``content_digest`` of the batch (under False) and, given ``sources``, of the batch with them (True): the
    texts are hashed once, not once per metric. Its strict UTF-8 encoding of every text checks the texts
    (``scoring.check_batch``): when it fails, ``check_texts`` says which text is wrong and why."""
    try:
        digests = {False: content_digest(summaries, references)}
        if sources is not None:
            digests[True] = content_digest(summaries, references, sources)
    except (TypeError, UnicodeEncodeError):  # a text that is not a str, or holds a lone surrogate
        check_texts(summaries, references, sources)
        raise
    return digests


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
    import pandas as pd

    return pd.DataFrame(values, columns=columns)


def _npz(table: pd.DataFrame) -> bytes:
    """``table`` as the bytes of an ``.npz`` archive without pickles (built in memory: one write to the file)."""
    out = io.BytesIO()
    np.savez(out, columns=np.array(table.columns, dtype=str), values=table.to_numpy(dtype=float))
    return out.getvalue()
