"""A content-addressed cache of metric scores: (metric signature, texts) -> score table.

Keys are SHA-256 digests of the metric's signature and of the BLAKE3 digest of every text it reads
(``content_digest``), never row positions, so a cached table is reused only for exactly the same inputs
and options. BLAKE3 is a cryptographic hash like SHA-256 (a collision as hard to find) that reads the
texts' 10 MB of a 20,000-pair batch in a quarter of SHA-256's time. The signature ends with the code
fingerprint, the versions of the third-party packages whose code computes the metric and the digest of its
resource files (``rougelab.fingerprint``), so after a change to any of them the cache misses. Entries are
kept by the cache store (``rougelab.cache_store``: atomic writes, a metadata record beside each file); a
corrupt file is reported and recomputed. An entry is one ``.npy`` file: the table as a structured array, one
float64 field per column, named as the column (``_save_table``), ``<metric>-<outline>-<key>.npy``: the outline
(``_outline``) is a short digest of a few of the batch's texts, so that the names tell, without the key, which
entries could be the batch's. Where the cache's folder holds none of a call's metrics with its outline
(``_holds_none``), no key can find one: the batch is scored first, and keyed by the first thread of the scoring's
threaded map that runs out of pieces while another finishes its last (``rougelab.tail_work``), which then opens
each entry's file, with its header and record (``_opened``): after the scoring only the numbers are written.
"""
from __future__ import annotations

import functools
import hashlib
import os
import pickle
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from rougelab.cache_store import Maker, PendingEntry, entry_file, entry_prefix, save
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
    texts = batch_texts(summaries, references)
    return _path(metric, _outline(texts), _both_digests(texts, references, sources)[sources is not None])


def _path(metric: Metric, outline: str, digest: str, maker: Maker | None = None, where: Path | None = None) -> Path:
    return entry_file(where or cache_dir("scores"), _stem(metric, outline), maker or _maker(metric), ".npy", digest)


def _stem(metric: Metric, outline: str) -> str:
    return f"{metric.name}-{outline}"


# Texts of a batch its outline reads at most (``_outline``).
OUTLINE_TEXTS = 8


def _outline(texts: list) -> str:
    """8 hex digits of a digest of the number of the batch's listed ``texts`` and of ``OUTLINE_TEXTS`` of them,
    evenly spaced, first included: the same for the same batch, and for few others. It names entries, it keys
    nothing: where two batches share one, the second's miss makes its key before scoring, as any call did."""
    sample = _plain(texts[::max(1, len(texts) // OUTLINE_TEXTS)][:OUTLINE_TEXTS])
    return hashlib.blake2b(pickle.dumps((len(texts), sample), protocol=5), digest_size=4).hexdigest()


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
        where, outline = cache_dir("scores"), _outline(texts)  # once a call: ``cache_dir`` makes the folder
        batch = (texts, references, sources if needs_source else None, outline, where)
        if _holds_none(where, metrics, outline, len(texts)):  # each a miss: the key waits for the scoring's idle end
            opened = _Deferred(_opened, metrics, len(summaries), *batch)
            with tail_work(opened):
                try:
                    scored = score_together(metrics, summaries, references, sources, progress=progress, frames=False)
                except BaseException:
                    _discard(opened.done() or [])
                    raise
            return _committed(opened.result(), scored)
        entries = _entries(metrics, *batch)
        tables: list[pd.DataFrame | None] = [_read(p, len(summaries)) if p.is_file() else None for p, _ in entries]
        missed = [i for i, table in enumerate(tables) if table is None]
        scored = score_together([metrics[i] for i in missed], summaries, references, sources, progress=progress,
                                frames=False)
        for i, table in zip(missed, scored):
            tables[i] = _stored(*entries[i], table)
        return tables


def _entries(metrics: list[Metric], texts: list, references, sources, outline: str,
             where: Path) -> list[tuple[Path, Maker]]:
    """Where each metric's entry of the batch whose ``texts`` are listed lives in ``where``, and what makes it."""
    digests = _both_digests(texts, references, sources)
    makers = [_maker(m) for m in metrics]
    return [(_path(m, outline, digests[m.needs_source], maker, where), maker) for m, maker in zip(metrics, makers)]


class _Opened(NamedTuple):
    """A metric's entry, its file opened with the header of a table of ``columns`` and ``rows`` written (``file``;
    None where the metric declares no columns a stored table can have)."""

    path: Path
    maker: Maker
    file: PendingEntry | None
    columns: list[str]
    rows: int


def _opened(metrics: list[Metric], rows: int, *batch) -> list[_Opened]:
    """``_entries`` of the batch (``batch``: its arguments after ``metrics``), each metric's file opened with its
    record and the ``.npy`` header of ``rows`` rows of its declared columns, so that after the scoring only the
    numbers are written and the files renamed (``_committed``): in a miss of 20,000 pairs, ROUGE-1, -2 and -L,
    the three entries took 3.8-5.2 ms of the calling thread after the scoring when written whole there
    (benchmarks/RESULTS.md)."""
    entries = _entries(metrics, *batch)
    opened: list[_Opened] = []
    try:
        for (path, maker), metric in zip(entries, metrics):
            columns = list(metric.columns)
            opened.append(_Opened(path, maker, _header_written(path, maker, columns, rows), columns, rows))
    except BaseException:
        _discard(opened)
        raise
    return opened


def _header_written(path: Path, maker: Maker, columns: list[str], rows: int) -> PendingEntry | None:
    """The entry at ``path`` opened, with its record and the ``.npy`` header (version 1.0, as ``np.save`` writes it)
    of ``rows`` rows of ``columns``; None where the columns cannot name a stored table's fields or need a later
    version's header (``np.save`` writes those after the scoring)."""
    if not _storable(columns):
        return None
    file = PendingEntry(path, maker)
    header = {"descr": np.lib.format.dtype_to_descr(_row_type(columns)), "fortran_order": False, "shape": (rows,)}
    try:
        np.lib.format.write_array_header_1_0(file.handle, header)
    except ValueError:  # a name beyond Latin-1, a header too long for version 1.0
        file.discard()
        return None
    except BaseException:
        file.discard()
        raise
    return file


def _committed(opened: list[_Opened], tables: list) -> list[pd.DataFrame]:
    """Each of ``tables`` stored in its ``opened`` entry (``_stored``), as a DataFrame; on an error no file stays
    half-written."""
    frames = []
    try:
        for entry, table in zip(opened, tables):
            frames.append(_stored(entry.path, entry.maker, table, entry))
    except BaseException:
        _discard(opened[len(frames):])
        raise
    return frames


def _discard(opened: list[_Opened]) -> None:
    for entry in opened:
        if entry.file is not None:
            entry.file.discard()


# Texts of a batch per name of the scores folder read at most to learn that it holds no entry of a call's metrics
# (``_holds_none``): a name took about 0.4 us to read, a text 0.09 us to key (20,000 news pairs: 1,000 names
# read in 0.41 ms, the key of their 40,000 texts 3.5 ms).
TEXTS_PER_NAME = 40


def _holds_none(where: Path, metrics: list[Metric], outline: str, texts: int) -> bool:
    """Whether the folder ``where`` holds no entry of ``metrics`` with the batch's ``outline`` (no name opens as
    theirs: a miss for each whatever the key), read from its first ``texts // TEXTS_PER_NAME`` names: a folder
    holding more may hold one. An entry another process writes meanwhile is written again with the numbers it
    holds (``write_atomic``)."""
    prefixes = tuple({entry_prefix(_stem(metric, outline)) for metric in metrics})
    at_most = texts // TEXTS_PER_NAME
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

    def done(self):
        """The value, where the call has run without an error; else None."""
        return self._outcome[1] if self._outcome is not None and self._outcome[0] else None

    def result(self):
        if self._outcome is None:
            self()
        done, value = self._outcome
        if not done:
            raise value
        return value


def _stored(path: Path, maker: Maker, table: ScoreTable | pd.DataFrame,
            opened: _Opened | None = None) -> pd.DataFrame:
    """The DataFrame of a table ``score_together`` gave (``frames=False``), stored at ``path`` (in its file
    ``opened`` where the table has the columns and rows of its header, ``_save_table``): a ``ScoreTable``'s
    own array is stored and becomes the frame (``frame(copy=False)``: the table is this call's alone), without
    the DataFrame of the joint call, its columns taken and turned back into a C-ordered array: about 1-2 ms of a
    miss of 20,000 pairs, ROUGE-1, -2 and -L (benchmarks/RESULTS.md)."""
    if isinstance(table, ScoreTable):
        _save_table(path, list(table.columns), table.values, maker, opened)
        return table.frame(copy=False)
    _save_table(path, [str(c) for c in table.columns], table.to_numpy(dtype=np.float64), maker, opened)
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


def _save_table(path: Path, columns: list[str], values: np.ndarray, maker: Maker,
                opened: _Opened | None = None) -> None:
    """Store the table of ``columns`` and ``values`` (a row per summary) at ``path`` as a structured ``.npy``
    array, one float64 field per column (``np.save`` writes its header and the values in one write, straight to
    the file: the cache's own CPU in a miss of 20,000 pairs on a loaded machine was 10.3-11.5 ms so, 15.0-16.6
    with ``.npz`` archives built in memory; benchmarks/RESULTS.md). A table whose column names are not distinct
    and non-empty (no structured array can name its fields so) is not stored, with a warning. Where ``opened``
    holds the entry's file with the header of these columns and rows, the numbers are written after it (the
    same bytes), else the file is discarded and the entry written whole."""
    numbers = np.ascontiguousarray(values, dtype=np.float64)
    if opened is not None and opened.file is not None:
        if (opened.columns, (opened.rows, len(opened.columns))) == (columns, numbers.shape):
            opened.file.handle.write(numbers.data)
            opened.file.commit()
            return
        opened.file.discard()
    if not _storable(columns):
        warn(f"score cache: the table of {path.name} has the columns {columns}, which cannot name a stored "
             "table's fields (distinct, non-empty); it is not cached")
        return
    rows = numbers.view(_row_type(columns)).reshape(-1)
    save(path, lambda handle: np.save(handle, rows), maker)


def _storable(columns: list[str]) -> bool:
    return bool(columns) and "" not in columns and len(set(columns)) == len(columns)


def _row_type(columns: list[str]) -> np.dtype:
    return np.dtype([(c, np.float64) for c in columns])
