"""A content-addressed cache of metric scores: (metric signature, texts) -> score table.

Keys are SHA-256 digests of the metric's signature and of the BLAKE3 digest of every text it reads
(``content_digest``), never row positions, so a cached table is reused only for exactly the same inputs
and options. BLAKE3 is a cryptographic hash like SHA-256 (a collision as hard to find) that reads the
texts' 10 MB of a 20,000-pair batch in a quarter of SHA-256's time. The signature ends with the code
fingerprint, the versions of the third-party packages whose code computes the metric and the digest of its
resource files (``rougelab.fingerprint``), so after a change to any of them the cache misses. Entries are
kept by the cache store (``rougelab.cache_store``: atomic writes, a metadata record beside each file); a
corrupt file is reported and recomputed. An entry is one ``.npy`` file: the table as a structured array, one
float64 field per column, named as the column (``_save_table``). Where the cache's folder holds no entry of the
metrics (``_holds_none``), no key can find one: the batch is scored first, and keyed by the first thread of the
scoring's threaded map that runs out of pieces while another finishes its last (``rougelab.tail_work``).
"""
from __future__ import annotations

import functools
import os
import pickle
from pathlib import Path
from types import SimpleNamespace

from typing import TYPE_CHECKING

import numpy as np

from rougelab.cache_store import Maker, entry_file, entry_prefix, save
from rougelab.metrics.base import Metric
from rougelab.metrics.together import score_together
from rougelab.paths import cache_dir
from rougelab.score_table import ScoreTable
from rougelab.scoring import batch_texts, checked_batch
from rougelab.tail_work import tail_work
from rougelab.warn import warn

if TYPE_CHECKING:  # pandas loads when a cached table is read
    import pandas as pd


def content_digest(summaries, references, sources=None) -> str:
    """BLAKE3 (hex) of the batch's pickles (``pickle`` protocol 5, without a memo): the list of every text (the
    summaries in order, then each summary's references in order), then the shape of the references (``_shape``),
    then, given ``sources``, the list of the sources. A pickle gives each text with its length: the bytes give
    back the texts, their roles and places. A text of a ``str`` subclass (numpy's ``str_``) is
    pickled as the plain ``str`` it equals, so each sequence type of a row gets one key. For a batch
    ``scoring.check_batch`` accepts: the pickle checks nothing (a lone surrogate is pickled as UTF-8's
    "surrogatepass" has it)."""
    return _both_digests(batch_texts(summaries, references), references, sources)[sources is not None]


def _both_digests(texts: list, references, sources=None) -> dict[bool, str]:
    """``content_digest`` of the batch whose ``texts`` are listed (``scoring.batch_texts``), under False, and, given
    ``sources``, of the batch with them (True), from one pass: the second continues the first's bytes. The
    pickler copies each text's UTF-8 (an ASCII text's own memory) into 64 KB frames, which go to the digest as
    they fill: in a miss of 20,000 distinct news pairs on a loaded machine the digest took 5.0 ms of CPU, where
    encoding each text and joining the bytes in Python took 8.6 (benchmarks/RESULTS.md). CPython keeps the UTF-8
    of a non-ASCII text it pickles beside the text, as after any pickle of it."""
    try:
        return _pickled_digests(texts, references, sources)
    except _NotPlain:  # a str subclass among the texts (rare): the batch again, every text a plain str
        return _pickled_digests(_plain(texts), references, None if sources is None else _plain(sources))


def _pickled_digests(texts: list, references, sources) -> dict[bool, str]:
    from blake3 import blake3  # loaded when a key is first made: `rougelab score` imports this module

    digest = blake3()
    pickler = _PlainPickler(SimpleNamespace(write=digest.update), protocol=5)
    pickler.fast = True  # no memo: a text repeated pickles in full, whether or not it is the same object
    pickler.dump(texts)
    pickler.dump(_shape(texts, references))
    digests = {False: digest.hexdigest()}
    if sources is not None:
        pickler.dump(list(sources))
        digests[True] = digest.hexdigest()
    return digests


def _shape(texts: list, references) -> int | list[int]:
    """The number of summaries when each has one reference (the usual batch: nothing to list), else the list of
    the number of references of each; a row of a batch ``scoring.check_batch`` accepts has one at least, so a
    batch has one each exactly when it has twice as many texts as summaries."""
    return len(references) if len(texts) == 2 * len(references) else list(map(len, references))


class _NotPlain(Exception):
    """A text that is not a plain ``str``."""


class _PlainPickler(pickle.Pickler):
    """Pickles lists of plain ``str`` and ``int``, for which ``pickle`` never asks ``reducer_override``: any other
    object raises ``_NotPlain``."""

    def reducer_override(self, obj):
        raise _NotPlain


def _plain(texts) -> list[str]:
    return list(map(str.__str__, texts))  # a str subclass's text as a plain str (a plain str itself)


def cache_path(metric: Metric, summaries, references, sources=None) -> Path:
    return _path(metric, content_digest(summaries, references, sources))


def _path(metric: Metric, digest: str, maker: Maker | None = None, where: Path | None = None) -> Path:
    return entry_file(where or cache_dir("scores"), metric.name, maker or _maker(metric), ".npy", digest)


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
    with checked_batch(summaries, references, sources, needs_source=needs_source) as listed:
        texts = listed.texts if listed else batch_texts(summaries, references)
        where = cache_dir("scores")  # once a call: it makes the folder
        keyed = _Deferred(_entries, metrics, texts, references, sources if needs_source else None, where)
        if _holds_none(where, metrics, len(texts)):  # each a miss: the key waits for the scoring's idle end
            with tail_work(keyed):
                scored = score_together(metrics, summaries, references, sources, progress=progress, frames=False)
            return [_stored(*entry, table) for entry, table in zip(keyed.result(), scored)]
        entries = keyed.result()
        tables: list[pd.DataFrame | None] = [_read(p, len(summaries)) if p.is_file() else None for p, _ in entries]
        missed = [i for i, table in enumerate(tables) if table is None]
        scored = score_together([metrics[i] for i in missed], summaries, references, sources, progress=progress,
                                frames=False)
        for i, table in zip(missed, scored):
            tables[i] = _stored(*entries[i], table)
        return tables


def _entries(metrics: list[Metric], texts: list, references, sources, where: Path) -> list[tuple[Path, Maker]]:
    """Where each metric's entry of the batch whose ``texts`` are listed lives in ``where``, and what makes it."""
    digests = _both_digests(texts, references, sources)
    makers = [_maker(m) for m in metrics]
    return [(_path(m, digests[m.needs_source], maker, where), maker) for m, maker in zip(metrics, makers)]


# Texts of a batch per name of the scores folder read at most to learn that it holds no entry of a call's metrics
# (``_holds_none``): a name took about 0.4 us to read, a text 0.09 us to key (20,000 news pairs: 1,000 names
# read in 0.41 ms, the key of their 40,000 texts 3.5 ms).
TEXTS_PER_NAME = 40


def _holds_none(where: Path, metrics: list[Metric], texts: int) -> bool:
    """Whether the folder ``where`` holds no entry of ``metrics`` (no name opens as theirs: a miss for each
    whatever the key), read from its first ``texts // TEXTS_PER_NAME`` names: a folder holding more may hold one.
    An entry another process writes meanwhile is written again with the numbers it holds (``write_atomic``)."""
    prefixes, at_most = tuple({entry_prefix(metric.name) for metric in metrics}), texts // TEXTS_PER_NAME
    with os.scandir(where) as names:
        for count, entry in enumerate(names):
            if count == at_most or entry.name.startswith(prefixes):
                return False
    return True


class _Deferred:
    """``function(*args)``, called when asked for or before (``tail_work``, on another thread): ``result()`` gives
    its value or raises its error in the thread that asks."""

    def __init__(self, function, *args):
        self._call = functools.partial(function, *args)
        self._outcome: tuple[bool, object] | None = None

    def __call__(self) -> None:
        try:
            self._outcome = (True, self._call())
        except Exception as err:  # raised by ``result``: a thread of a threaded map would raise it as the map's
            self._outcome = (False, err)

    def result(self):
        if self._outcome is None:
            self()
        done, value = self._outcome
        if not done:
            raise value
        return value


def _stored(path: Path, maker: Maker, table: ScoreTable | pd.DataFrame) -> pd.DataFrame:
    """The DataFrame of a table ``score_together`` gave (``frames=False``), stored at ``path``: a ``ScoreTable``'s
    own array is stored and becomes the frame (``frame(copy=False)``: the table is this call's alone), without
    the DataFrame of the joint call, its columns taken and turned back into a C-ordered array: about 1-2 ms of a
    miss of 20,000 pairs, ROUGE-1, -2 and -L (benchmarks/RESULTS.md)."""
    if isinstance(table, ScoreTable):
        _save_table(path, list(table.columns), table.values, maker)
        return table.frame(copy=False)
    _save_table(path, [str(c) for c in table.columns], table.to_numpy(dtype=np.float64), maker)
    return table


def _read(path: Path, expected_rows: int) -> pd.DataFrame | None:
    try:
        with open(path, "rb") as handle:
            stored = np.lib.format.read_array(handle, allow_pickle=False)
        columns = list(stored.dtype.names or ())
        if stored.ndim != 1 or not columns or stored.dtype != _row_type(columns):
            raise ValueError(f"not a table of float columns: {stored.dtype} {stored.shape}")
    except (OSError, ValueError, EOFError) as err:
        warn(f"score cache file {path} is corrupt ({err}); recomputing and overwriting it")
        return None
    if len(stored) != expected_rows:
        warn(f"score cache file {path} holds {(len(stored), len(columns))} scores for {expected_rows} "
             "summaries; recomputing and overwriting it")
        return None
    import pandas as pd

    return pd.DataFrame(stored.view(np.float64).reshape(len(stored), len(columns)), columns=columns)


def _save_table(path: Path, columns: list[str], values: np.ndarray, maker: Maker) -> None:
    """Store the table of ``columns`` and ``values`` (a row per summary) at ``path`` as a structured ``.npy``
    array, one float64 field per column (``np.save`` writes its header and the values in one write, straight to
    the file: the cache's own CPU in a miss of 20,000 pairs on a loaded machine was 10.3-11.5 ms so, 15.0-16.6
    with ``.npz`` archives built in memory; benchmarks/RESULTS.md). A table whose column names are not distinct
    and non-empty (no structured array can name its fields so) is not stored, with a warning."""
    if not columns or "" in columns or len(set(columns)) != len(columns):
        warn(f"score cache: the table of {path.name} has the columns {columns}, which cannot name a stored "
             "table's fields (distinct, non-empty); it is not cached")
        return
    rows = np.ascontiguousarray(values, dtype=np.float64).view(_row_type(columns)).reshape(-1)
    save(path, lambda handle: np.save(handle, rows), maker)


def _row_type(columns: list[str]) -> np.dtype:
    return np.dtype([(c, np.float64) for c in columns])
