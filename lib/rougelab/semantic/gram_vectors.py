"""An n-gram's PPR vector from its words' chosen senses (ShafieiBavani et al. 2018, sections 3.4-3.5).

PPR is linear in ``p(0)``, so the vector of a seed set is the mean of its single-sense vectors (exact
before truncation; we average the truncated vectors and keep the ``top`` largest entries), plus one
extra dimension of mass 0.5 per out-of-vocabulary word (section 3.5, after Pilehvar and Navigli 2015).
Vectors are ``PPRVectors``-shaped arrays, ranked by mass descending (ties: smaller node id first), as
``rougelab.semantic.semantic_similarity`` compares them.
"""
from __future__ import annotations

import numpy as np

from rougelab._jit import get_thread_id, jit, jit_parallel, max_threads, prange

OOV_MASS = 0.5   # section 3.5


@jit
def _ahead(h1, m1, h2, m2):  # pragma: no cover - compiled
    """Ranking order of PPR entries: larger mass first, then the smaller node id."""
    return m1 > m2 or (m1 == m2 and h1 < h2)


@jit
def _sift_down(heap, n, k, mass):  # pragma: no cover - compiled
    """Restore the heap ``heap[:n]`` (best by the ranking order on top) below position ``k``."""
    while True:
        child = 2 * k + 1
        if child >= n:
            return
        if child + 1 < n and _ahead(heap[child + 1], mass[heap[child + 1]], heap[child], mass[heap[child]]):
            child += 1
        if not _ahead(heap[child], mass[heap[child]], heap[k], mass[heap[k]]):
            return
        heap[k], heap[child] = heap[child], heap[k]
        k = child


@jit_parallel
def _gram_vectors_kernel(sense_ids, sense_values, seed_rows, oov_words, oov_offset, top, oov_mass,
                         n_threads):  # pragma: no cover - compiled
    # The mean of several ranked vectors, ranked, without sorting it all: a node in one vector keeps
    # its place in that vector's order, so only nodes shared by several vectors need ordering (a heap);
    # then the vectors' own orders and the shared nodes are merged, best first, up to ``top``.
    g, n_seeds = seed_rows.shape
    _, X, w = sense_ids.shape
    max_oov = 0
    for i in range(g):   # loops, not array expressions: parallel=True would launch threads for each
        n_oov = 0
        for word in oov_words[i]:
            n_oov += word >= 0
        max_oov = max(max_oov, n_oov)
    out = np.full((g, X, top + max_oov), -1, dtype=np.int64)
    masses = np.zeros((n_threads, oov_offset), dtype=np.float64)   # per thread and graph node, reset after use
    seens = np.zeros((n_threads, oov_offset), dtype=np.int64)      # how many of the gram's vectors hold the node
    for i in prange(g):
        thread = get_thread_id()
        mass = masses[thread]
        seen = seens[thread]
        rows = np.empty(n_seeds, dtype=np.int64)
        n_rows = 0
        for r in seed_rows[i]:
            if r >= 0:
                rows[n_rows] = r
                n_rows += 1
        share = 1.0 / n_rows if n_rows else 0.0
        nodes = np.empty(n_rows * w, dtype=np.int64)
        heap = np.empty(n_rows * w, dtype=np.int64)
        at = np.empty(n_rows, dtype=np.int64)                        # next position in each vector
        kept = np.empty(top, dtype=np.int64)
        kept_mass = np.empty(top, dtype=np.float64)
        for x in range(X):
            n = 0
            for j in range(n_rows):
                for t in range(w):
                    h = sense_ids[rows[j], x, t]
                    if h < 0:
                        break
                    if seen[h] == 0:
                        nodes[n] = h
                        n += 1
                    seen[h] += 1
                    mass[h] += sense_values[rows[j], x, t] * share
            n_heap = 0
            for t in range(n):
                if seen[nodes[t]] > 1:
                    heap[n_heap] = nodes[t]
                    n_heap += 1
            for t in range(n_heap // 2 - 1, -1, -1):
                _sift_down(heap, n_heap, t, mass)
            at[:] = 0
            k = 0
            while k < top:
                best_h, best_m, best_r = -1, 0.0, -1
                for j in range(n_rows):
                    while at[j] < w and sense_ids[rows[j], x, at[j]] >= 0 and seen[sense_ids[rows[j], x, at[j]]] > 1:
                        at[j] += 1                      # shared: taken from the heap
                    if at[j] < w and sense_ids[rows[j], x, at[j]] >= 0:
                        h = sense_ids[rows[j], x, at[j]]
                        if best_h < 0 or _ahead(h, mass[h], best_h, best_m):
                            best_h, best_m, best_r = h, mass[h], j
                if n_heap > 0:
                    h = heap[0]
                    if best_h < 0 or _ahead(h, mass[h], best_h, best_m):
                        best_h, best_m, best_r = h, mass[h], -2
                if best_h < 0:
                    break
                if best_r == -2:
                    n_heap -= 1
                    heap[0] = heap[n_heap]
                    _sift_down(heap, n_heap, 0, mass)
                else:
                    at[best_r] += 1
                kept[k] = best_h
                kept_mass[k] = best_m
                k += 1
            for t in range(n):
                mass[nodes[t]] = 0.0
                seen[nodes[t]] = 0
            # OOV dimensions (mass 0.5, ids above every graph node) go after the entries of mass >= 0.5
            split = 0
            while split < k and kept_mass[split] >= oov_mass:
                split += 1
            out[i, x, :split] = kept[:split]
            n_oov = 0
            for word in oov_words[i]:
                if word >= 0:
                    out[i, x, split + n_oov] = oov_offset + word
                    n_oov += 1
            out[i, x, split + n_oov:k + n_oov] = kept[split:k]
    return out


def gram_vectors(sense_ids: np.ndarray, sense_values: np.ndarray, seed_rows: np.ndarray,
                 oov_words: np.ndarray, *, oov_offset: int, top: int | None) -> np.ndarray:
    """Ranked node ids of each gram's PPR vector, every iteration (sections 3.1, 3.5).

    Parameters
    ----------
    sense_ids, sense_values : (s, k + 1, w) arrays
        Single-sense PPR vectors (``PPRVectors.ids`` / ``.values``).
    seed_rows : (g, n) int array
        Per gram, the rows of its distinct chosen senses in ascending order, ``-1`` padded; the
        gram's vector is their mean.
    oov_words : (g, n) int array
        Per gram, the ids of its distinct out-of-vocabulary words in ascending order, ``-1`` padded;
        each becomes the extra node ``oov_offset + id`` with mass ``OOV_MASS`` (0.5) at every iteration.
    top : int or None
        Entries of the averaged PPR part kept per iteration; None keeps them all (then the mean is the
        exact PPR vector of the seed set, Eq. 1 being linear in p(0), if the single-sense vectors are full).

    Returns
    -------
    int array (g, k + 1, top + max OOV words), by mass descending (ties: smaller id first), ``-1`` padded.
    """
    top = oov_offset if top is None else top
    seed_rows = np.atleast_2d(np.asarray(seed_rows, dtype=np.int64))
    oov_words = np.atleast_2d(np.asarray(oov_words, dtype=np.int64))
    if len(seed_rows) != len(oov_words):
        raise ValueError(f"{len(seed_rows)} seed rows but {len(oov_words)} OOV rows")
    return _gram_vectors_kernel(np.ascontiguousarray(sense_ids), np.ascontiguousarray(sense_values),
                                np.ascontiguousarray(seed_rows), np.ascontiguousarray(oov_words),
                                int(oov_offset), int(top), OOV_MASS, max_threads())
