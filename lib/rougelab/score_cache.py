"""A content-addressed cache of metric scores: (metric signature, texts) -> score table.

Keys are SHA-256 digests of the metric's signature and of the BLAKE3 digest of every text it reads
(``content_digest``), never row positions, so a cached table is reused only for exactly the same inputs
and options. BLAKE3 is a cryptographic hash like SHA-256 (a collision as hard to find) that reads the
texts' 10 MB of a 20,000-pair batch in a quarter of SHA-256's time. The signature ends with the code
fingerprint, the versions of the third-party packages whose code computes the metric and the digest of its
resource files (``rougelab.fingerprint``), so after a change to any of them the cache misses. Entries are
kept by the cache store (``rougelab.cache_store``: atomic writes, a metadata record beside each file); a
corrupt file is reported and recomputed.
"""
from __future__ import annotations

import io
import zipfile
from itertools import chain, islice, repeat
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
    """BLAKE3 (hex) of every text in the batch, each UTF-8 encoded after a byte that UTF-8 never contains:
    the summaries in order, each after 0xFF; then the reference lists, each reference after 0xFE (the first
    of its list) or 0xFD (the others); then the sources, each after 0xFC. A text cannot pass for a
    separator: the bytes give back the texts, their roles and places. For a batch whose shape
    ``scoring.check_batch`` accepts (at least one reference a summary); a text that is not a ``str``
    raises ``TypeError``, one that is not valid Unicode (a lone surrogate) ``UnicodeEncodeError``: the
    encoding checks the texts (``cached_scores``)."""
    return _both_digests(summaries, references, sources)[sources is not None]


def _both_digests(summaries, references, sources=None) -> dict[bool, str]:
    """``content_digest`` of the batch (under False) and, given ``sources``, of the batch with them (True),
    from one pass over the texts: the second continues the first's bytes."""
    from blake3 import blake3  # loaded when a key is first made: `rougelab score` imports this module

    digest = blake3()
    _add(digest, summaries, _SUMMARY)
    if set(map(len, references)) == {1}:  # one reference a row (the usual batch): no list to join
        _add(digest, chain.from_iterable(references), _REFERENCE, len(references))
    else:
        _add(digest, map(_FURTHER.join, map(map, repeat(str.encode), references)), _REFERENCE, len(references),
             encode=False)
    digests = {False: digest.hexdigest()}
    if sources is not None:
        _add(digest, sources, _SOURCE)
        digests[True] = digest.hexdigest()
    return digests


def _add(digest, texts, separator: bytes, count: int | None = None, encode: bool = True) -> None:
    """Feed ``texts`` (``count`` of them; UTF-8 bytes already with ``encode=False``) to ``digest``, each after
    ``separator``, in blocks of ``BLOCK_TEXTS`` joined in C: fed a text at a time, the digest of 40,000 texts
    took 2.5 times as long, and a block (some 140 KB of news text) still fits the processor's cache (blocks of
    128 or 2,048 texts were slower)."""
    count = len(texts) if count is None else count
    texts = iter(texts)
    for _ in range(0, count, BLOCK_TEXTS):
        block = islice(texts, BLOCK_TEXTS)
        digest.update(separator)
        digest.update(separator.join(map(str.encode, block) if encode else block))


BLOCK_TEXTS = 512
_SUMMARY, _REFERENCE, _FURTHER, _SOURCE = b"\xff", b"\xfe", b"\xfd", b"\xfc"  # bytes no UTF-8 text contains


def cache_path(metric: Metric, summaries, references, sources=None) -> Path:
    return _path(metric, content_digest(summaries, references, sources))


def _path(metric: Metric, digest: str, maker: Maker | None = None, where: Path | None = None) -> Path:
    return entry_file(where or cache_dir("scores"), metric.name, maker or _maker(metric), ".npz", digest)


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
        where = cache_dir("scores")  # once a call: it makes the folder
        paths = [_path(m, digests[m.needs_source], maker, where) for m, maker in zip(metrics, makers)]
        tables: list[pd.DataFrame | None] = [_read(p, len(summaries)) if p.is_file() else None for p in paths]
        missed = [i for i, table in enumerate(tables) if table is None]
        scored = score_together([metrics[i] for i in missed], summaries, references, sources, progress=progress)
        for i, table in zip(missed, scored):
            tables[i] = table
            save(paths[i], _npz(table), makers[i])
        return tables


def _digests(summaries, references, sources) -> dict[bool, str]:
    """``_both_digests``, whose strict UTF-8 encoding of every text checks the texts (``scoring.check_batch``):
    when it fails, ``check_texts`` says which text is wrong and why."""
    try:
        return _both_digests(summaries, references, sources)
    except (TypeError, UnicodeEncodeError):  # a text that is not a str, or holds a lone surrogate
        check_texts(summaries, references, sources)
        raise


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
