"""Personalised PageRank on a graph, every iteration kept (ShafieiBavani et al. 2018, Eq. 1).

``p(k) = d A p(k-1) + (1 - d) p(0)``, with ``A`` the column-stochastic transition matrix of the
undirected graph and ``p(0)`` uniform over the seed set ``S`` (Haveliwala 2002). A node without
edges hands its mass back to ``p(0)`` (networkx's convention for dangling nodes), so every ``p(k)``
stays a probability distribution. Many seed sets run at once as one sparse-dense matrix product
per iteration; each iteration's vector is truncated to its ``top`` largest entries for storage
(the iteration itself is exact). Single-sense vectors are cached on disk by seed (``PPRCache``).
``top=None`` keeps every positive entry, the paper's vectors with one dimension per connected node
(section 3.1): on WordNet 3.0 nearly every node is reached by the fourth iteration, so a vector is
about 20 MB (21 iterations x 117,659 nodes x 8 bytes); ``FullPPR`` computes them in memory, never on disk.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np
import scipy.sparse as sp

from rougelab._jit import NUMBA, jit, jit_parallel, prange
from rougelab.cache_store import Maker, entry_folder, save
from rougelab.paths import cache_dir

DAMPING = 0.85      # d in Eq. 1
ITERATIONS = 20     # k in Eq. 1
TOP = 100           # entries kept per iteration vector (the paper is silent; swept in notebook 03)
PACKAGES = ("numba", "numpy", "scipy")  # third-party code that computes the vectors


def transition_matrix(adjacency: sp.spmatrix) -> sp.csr_matrix:
    """Column-stochastic ``A``: ``A[i, j] = w_ij / sum_i w_ij`` (0 in the column of an isolated node)."""
    adjacency = sp.csr_matrix(adjacency, dtype=np.float64)
    if adjacency.shape[0] != adjacency.shape[1]:
        raise ValueError(f"adjacency must be square, got shape {adjacency.shape}")
    degree = np.asarray(adjacency.sum(axis=0)).ravel()
    inverse = np.divide(1.0, degree, out=np.zeros_like(degree), where=degree > 0)
    return (adjacency @ sp.diags(inverse)).tocsr().astype(np.float32)


def seed_matrix(seed_sets: Sequence[Sequence[int]], n_nodes: int) -> np.ndarray:
    """``p(0)`` of each seed set as a column: uniform over the set's nodes, 0 elsewhere."""
    p0 = np.zeros((n_nodes, len(seed_sets)), dtype=np.float32)
    for column, seeds in enumerate(seed_sets):
        seeds = np.unique(np.asarray(seeds, dtype=np.int64))
        if len(seeds) == 0:
            raise ValueError(f"seed set {column} is empty")
        if seeds.min() < 0 or seeds.max() >= n_nodes:
            raise ValueError(f"seed set {column} has a node outside 0..{n_nodes - 1}")
        p0[seeds, column] = 1.0 / len(seeds)
    return p0


def personalized_pagerank(transition: sp.csr_matrix, p0: np.ndarray, *, damping: float = DAMPING,
                          iterations: int = ITERATIONS) -> Iterator[np.ndarray]:
    """Yield ``p(0), p(1), ..., p(iterations)`` (Eq. 1), each ``(n_nodes, n_seed_sets)``."""
    if not 0.0 <= damping <= 1.0:
        raise ValueError(f"damping must be in [0, 1], got {damping}")
    transition = sp.csr_matrix(transition, dtype=np.float32)
    dangling = np.flatnonzero(np.asarray(transition.sum(axis=0)).ravel() == 0)
    p0 = np.ascontiguousarray(p0, dtype=np.float32)
    seed_rows, seed_cols = np.nonzero(p0)                  # p(0) is sparse: restart only there
    seed_mass = p0[seed_rows, seed_cols]
    p = p0
    yield p
    for _ in range(iterations):
        restart = damping * p[dangling].sum(axis=0) + (1.0 - damping)
        nxt = _product(transition, p)
        nxt *= np.float32(damping)
        nxt[seed_rows, seed_cols] += restart[seed_cols] * seed_mass
        p = nxt
        yield p


def _product(transition: sp.csr_matrix, p: np.ndarray) -> np.ndarray:
    """``transition @ p`` (float32), on numba's threads when numba is there: the same sums in the same order
    as SciPy's product, so the same bits (tests/test_pagerank.py), about 3 times as fast on 2 cores."""
    if not NUMBA:
        return transition @ p
    out = np.empty_like(p)
    _csr_times_dense(transition.indptr, transition.indices, transition.data, p, out)
    return out


@jit_parallel
def _csr_times_dense(indptr, indices, data, p, out):  # pragma: no cover - compiled
    """``out = A p`` for ``A`` in CSR form: row i adds ``data[jj] * p[indices[jj]]`` over its stored entries in
    order, as SciPy's ``csr_matvecs`` does; rows are spread over the threads."""
    n, m = out.shape
    for i in prange(n):
        for k in range(m):
            out[i, k] = 0.0
        for jj in range(indptr[i], indptr[i + 1]):
            a = data[jj]
            j = indices[jj]
            for k in range(m):
                out[i, k] += a * p[j, k]


def ranked_ids(vector: np.ndarray) -> np.ndarray:
    """Node ids of a dense vector's positive entries, by mass descending (ties: smaller id first)."""
    vector = np.asarray(vector, dtype=np.float64)
    positive = np.flatnonzero(vector > 0)
    return positive[np.lexsort((positive, -vector[positive]))]


@jit
def _top_entries(p, top, out_ids, out_values):  # pragma: no cover - compiled
    """Per column of ``p`` (n, m): its ``top`` largest positive entries, by value descending
    (ties: smaller node id first), into ``out_ids``/``out_values`` (m, top), -1/0 padded."""
    n, m = p.shape
    heap_v = np.full((m, top), -1.0, dtype=np.float32)   # min-heap on (value, -id)
    heap_i = np.full((m, top), -1, dtype=np.int64)
    for j in range(n):
        for c in range(m):
            v = p[j, c]
            if v <= 0.0 or v <= heap_v[c, 0]:
                continue  # equal value: the earlier (smaller) node id stays
            heap_v[c, 0] = v
            heap_i[c, 0] = j
            k = 0
            while True:  # sift down
                left = 2 * k + 1
                if left >= top:
                    break
                small = left
                right = left + 1
                if right < top and (heap_v[c, right] < heap_v[c, left] or
                                    (heap_v[c, right] == heap_v[c, left] and heap_i[c, right] > heap_i[c, left])):
                    small = right
                if heap_v[c, small] < heap_v[c, k] or (heap_v[c, small] == heap_v[c, k] and heap_i[c, small] > heap_i[c, k]):
                    tv = heap_v[c, k]
                    ti = heap_i[c, k]
                    heap_v[c, k] = heap_v[c, small]
                    heap_i[c, k] = heap_i[c, small]
                    heap_v[c, small] = tv
                    heap_i[c, small] = ti
                    k = small
                else:
                    break
    for c in range(m):
        keys = np.empty(top, dtype=np.float64)
        for t in range(top):
            keys[t] = heap_i[c, t] if heap_v[c, t] > 0 else np.inf
        order = np.argsort(keys)                       # by node id ...
        vals = heap_v[c][order]
        order2 = np.argsort(-vals, kind="mergesort")   # ... then stably by value descending
        for t in range(top):
            src = order[order2[t]]
            if heap_v[c, src] > 0:
                out_ids[c, t] = heap_i[c, src]
                out_values[c, t] = heap_v[c, src]
            else:
                out_ids[c, t] = -1
                out_values[c, t] = 0.0


@dataclass(frozen=True)
class PPRVectors:
    """Truncated PPR vectors of ``m`` seed sets: ``ids[s, x, t]`` is the node with the ``t``-th largest
    mass in ``p(x)`` of seed set ``s`` and ``values[s, x, t]`` its mass (``-1``/``0`` pad a vector with
    fewer than ``top`` positive entries). ``x`` runs over iterations 0..k."""

    ids: np.ndarray      # (m, k + 1, top) int32
    values: np.ndarray   # (m, k + 1, top) float32

    def __len__(self) -> int:
        return len(self.ids)

    def take(self, rows) -> "PPRVectors":
        return PPRVectors(self.ids[rows], self.values[rows])

    def dense(self, row: int, n_nodes: int) -> np.ndarray:
        """Vector ``row`` as a dense ``(k + 1, n_nodes)`` array (for inspection and tests)."""
        out = np.zeros((self.ids.shape[1], n_nodes), dtype=np.float64)
        for x in range(self.ids.shape[1]):
            keep = self.ids[row, x] >= 0
            out[x, self.ids[row, x, keep]] = self.values[row, x, keep]
        return out


def ppr_vectors(transition: sp.csr_matrix, seed_sets: Sequence[Sequence[int]], *, damping: float = DAMPING,
                iterations: int = ITERATIONS, top: int | None = TOP, batch: int = 128) -> PPRVectors:
    """PPR vectors (Eq. 1) of many seed sets, truncated to ``top`` entries (None: all), ``batch`` seed sets
    per matrix product."""
    n = transition.shape[0]
    full = top is None
    top = n if full else top
    if top < 1:
        raise ValueError(f"top must be >= 1, got {top}")
    m = len(seed_sets)
    ids = np.full((m, iterations + 1, top), -1, dtype=np.int32)
    values = np.zeros((m, iterations + 1, top), dtype=np.float32)
    for start in range(0, m, batch):
        chunk = seed_sets[start:start + batch]
        p0 = seed_matrix(chunk, n)
        out_i = np.empty((len(chunk), top), dtype=np.int64)
        out_v = np.empty((len(chunk), top), dtype=np.float32)
        for x, p in enumerate(personalized_pagerank(transition, p0, damping=damping, iterations=iterations)):
            if full:   # every positive entry: a sort beats the top-k heap
                out_i.fill(-1)
                out_v.fill(0.0)
                for c in range(len(chunk)):
                    ranked = ranked_ids(p[:, c])
                    out_i[c, :len(ranked)] = ranked
                    out_v[c, :len(ranked)] = p[ranked, c]
            else:
                _top_entries(np.ascontiguousarray(p), top, out_i, out_v)
            ids[start:start + len(chunk), x] = out_i
            values[start:start + len(chunk), x] = out_v
    return PPRVectors(ids, values)


class FullPPR:
    """Untruncated single-seed PPR vectors (``top=None``), computed on demand and kept in memory only."""

    top = None

    def __init__(self, transition: sp.csr_matrix, *, damping: float = DAMPING, iterations: int = ITERATIONS) -> None:
        self.transition, self.damping, self.iterations = transition, damping, iterations
        self.signature = f"ppr:d{damping}-k{iterations}-full"

    def vectors(self, seeds: Sequence[int]) -> PPRVectors:
        """The full vectors of the single-node seed sets ``{s}``, one per ``s`` in ``seeds``."""
        return ppr_vectors(self.transition, [[int(s)] for s in seeds], damping=self.damping,
                           iterations=self.iterations, top=None, batch=16)


class PPRCache:
    """Single-seed PPR vectors of one graph and setting, computed on demand and kept on disk.

    Files live in the cache store's folder entry ``wordnet/ppr-<key>`` whose key covers ``graph_signature``,
    ``damping``, ``iterations``, ``top``, this module's code and ``PACKAGES``' versions; each computed batch
    is one ``.npz`` written atomically, so an interrupted run keeps every finished batch.
    """

    def __init__(self, transition: sp.csr_matrix, graph_signature: str, *, damping: float = DAMPING,
                 iterations: int = ITERATIONS, top: int = TOP, folder: Path | None = None) -> None:
        self.transition = transition
        self.damping, self.iterations, self.top = damping, iterations, top
        self.signature = f"ppr:d{damping}-k{iterations}-top{top}"
        maker = Maker(f"{graph_signature}|{self.signature}", modules=(__name__,), packages=PACKAGES)
        self.folder = folder or entry_folder(cache_dir("wordnet"), "ppr", maker)
        self._row: dict[int, int] = {}
        self._ids: list[np.ndarray] = []
        self._values: list[np.ndarray] = []
        for path in sorted(self.folder.glob("batch-*.npz")):
            try:
                with np.load(path, allow_pickle=False) as stored:
                    self._add(stored["seeds"], stored["ids"], stored["values"])
            except (OSError, ValueError, KeyError):
                path.unlink(missing_ok=True)  # a corrupt batch is recomputed on demand

    def _add(self, seeds, ids, values) -> None:
        if ids.shape[1:] != (self.iterations + 1, self.top):
            raise ValueError(f"cached PPR batch has shape {ids.shape}")
        offset = sum(len(a) for a in self._ids)
        self._ids.append(ids)
        self._values.append(values)
        for i, seed in enumerate(seeds.tolist()):
            self._row.setdefault(seed, offset + i)

    def vectors(self, seeds: Sequence[int]) -> PPRVectors:
        """The vectors of single-node seed sets ``{s}`` for each ``s`` in ``seeds`` (computed if missing)."""
        seeds = [int(s) for s in seeds]
        missing = sorted({s for s in seeds if s not in self._row})
        for start in range(0, len(missing), 2048):
            chunk = missing[start:start + 2048]
            vec = ppr_vectors(self.transition, [[s] for s in chunk], damping=self.damping,
                              iterations=self.iterations, top=self.top)
            digest = hashlib.sha256(np.asarray(chunk, dtype=np.int64).tobytes()).hexdigest()[:16]
            save(self.folder / f"batch-{digest}.npz",
                 lambda out: np.savez(out, seeds=np.asarray(chunk, dtype=np.int64), ids=vec.ids, values=vec.values))
            self._add(np.asarray(chunk), vec.ids, vec.values)
        if len(self._ids) > 1:  # consolidate in memory for fast row access
            self._ids = [np.concatenate(self._ids)]
            self._values = [np.concatenate(self._values)]
        rows = np.array([self._row[s] for s in seeds], dtype=np.int64)
        if not self._ids:
            shape = (0, self.iterations + 1, self.top)
            return PPRVectors(np.empty(shape, np.int32), np.empty(shape, np.float32))
        return PPRVectors(self._ids[0][rows], self._values[0][rows])
