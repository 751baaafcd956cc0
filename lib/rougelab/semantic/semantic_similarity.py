"""Path-based similarity of PPR vectors (ShafieiBavani et al. 2018, Eqs. 2-3, sections 3.4-3.5).

Rank and Weight (Eq. 3; Pilehvar et al. 2013)::

    RW(Y, Z) = sum_{h in H} 1 / (r_h(Y) + r_h(Z))  /  sum_{i=1}^{|H|} 1 / (2 i)     (0 if H is empty)

with ``H`` the nodes of positive mass in both vectors and ``r_h`` the rank of ``h`` (1 = largest mass;
equal masses are ranked by node id, so every vector has a strict order and RW(Y, Y) = 1).
Path-based similarity (Eq. 2) sums RW over the iterations of the random walk, early ones weighted
more: ``Sim_sem(I, J) = sum_{x=0}^{k} c^x RW(p(x)(I), p(x)(J))``. We divide by ``sum_x c^x`` so that
Sim_sem lies in [0, 1] and is 1 for identical vectors (the paper's "Sim_sem(fire, terminate) = 1").

Vectors here are ``PPRVectors``-shaped arrays ``ids (g, k + 1, w)`` / ``values (g, k + 1, w)``
sorted by value descending; an n-gram's vector is made by ``rougelab.semantic.gram_vectors`` from the
senses ``rougelab.semantic.sense_alignment`` chooses.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from rougelab._jit import jit_parallel, prange
from rougelab.semantic.pagerank import ranked_ids

C = 0.7          # c in Eq. 2
DENSE_SHARE = 0.2   # a node held by this share of a block's columns is compared as a dense row (speed only)


def iteration_weights(iterations: int, c: float = C) -> np.ndarray:
    """``c^x / sum_x c^x`` for x = 0..iterations (Eq. 2, normalised to sum to 1)."""
    if not 0.0 < c <= 1.0:
        raise ValueError(f"c must be in (0, 1], got {c}")
    w = c ** np.arange(iterations + 1, dtype=np.float64)
    return w / w.sum()


@jit_parallel
def _sim_sem_kernel(ids_a, ids_b, rows, row_start, cols, col_start, out_start, weights, n_nodes,
                    dense_share):  # pragma: no cover - compiled
    # Block p compares ids_a[rows[row_start[p]:row_start[p + 1]]] with ids_b[cols[col_start[p]:...]] into
    # out[out_start[p]:out_start[p + 1]] (row-major). Per block and iteration, each node of the b side
    # gets either a posting list (its (vector, rank) entries, by counting sort) or, when at least
    # ``dense_share`` of the b vectors hold it, a dense row of ranks (0: absent). Each a vector then
    # walks its nodes in rank order, adding 1 / (rank in a + rank in b) for every b vector sharing the
    # node: along the posting list, or over the whole dense row (adding +0.0 where b lacks the node,
    # which changes no sum, in a loop the compiler vectorises). Chunks of a vectors run in parallel.
    # An entry is summed in the same order whatever the blocks and paths (a's ranks, then iterations),
    # so blocks hold the entries of the whole matrix bit for bit.
    _, X, wa = ids_a.shape
    wb = ids_b.shape[2]
    out = np.zeros(out_start[-1], dtype=np.float64)
    harmonic = np.zeros(max(wa, wb) + 1, dtype=np.float64)   # sum_{i=1}^{h} 1/(2i)
    for h in range(1, len(harmonic)):
        harmonic[h] = harmonic[h - 1] + 0.5 / h
    width = 0
    for p in range(len(col_start) - 1):
        width = max(width, col_start[p + 1] - col_start[p])
    slot = np.full(n_nodes, -1, dtype=np.int64)              # node -> its slot at this iteration
    head = np.zeros(width * wb + 1, dtype=np.int64)          # slot -> start of its posting list
    dense_row = np.empty(width * wb, dtype=np.int64)         # slot -> its dense row, -1: a posting list
    owner = np.empty(width * wb, dtype=np.int64)
    rank = np.empty(width * wb, dtype=np.int64)
    nodes = np.empty(width * wb, dtype=np.int64)
    for p in range(len(row_start) - 1):
        b_side = cols[col_start[p]:col_start[p + 1]]
        a_side = rows[row_start[p]:row_start[p + 1]]
        na, nb = len(a_side), len(b_side)
        n_chunks = min(na, 64)
        for x in range(X):
            n_slots = 0
            for b in b_side:
                for t in range(wb):
                    h = ids_b[b, x, t]
                    if h >= 0:
                        if slot[h] < 0:
                            slot[h] = n_slots
                            nodes[n_slots] = h
                            head[n_slots + 1] = 0
                            n_slots += 1
                        head[slot[h] + 1] += 1
            n_dense = 0
            for s in range(n_slots):
                dense_row[s] = -1
                if head[s + 1] >= dense_share * nb:
                    dense_row[s] = n_dense
                    n_dense += 1
            dense = np.zeros((n_dense, nb), dtype=np.float64)  # ranks as floats: the loop below vectorises
            head[0] = 0
            for s in range(n_slots):
                head[s + 1] += head[s]
            fill = head[:n_slots].copy()
            for j in range(nb):
                for t in range(wb):
                    h = ids_b[b_side[j], x, t]
                    if h >= 0:
                        s = slot[h]
                        if dense_row[s] >= 0:
                            dense[dense_row[s], j] = t + 1
                        else:
                            owner[fill[s]] = j
                            rank[fill[s]] = t + 1
                            fill[s] += 1
            for chunk in prange(n_chunks):
                acc = np.zeros(nb, dtype=np.float64)
                cnt = np.zeros(nb, dtype=np.float64)             # |H| so far, exact in a float
                for i in range(chunk, na, n_chunks):
                    a = a_side[i]
                    for t in range(wa):
                        h = ids_a[a, x, t]
                        if h < 0 or slot[h] < 0:
                            continue
                        s = slot[h]
                        if dense_row[s] >= 0:
                            ranks = dense[dense_row[s]]
                            for j in range(nb):
                                held = ranks[j] > 0
                                acc[j] += held * (1.0 / (t + 1 + ranks[j]))
                                cnt[j] += held
                        else:
                            for e in range(head[s], head[s + 1]):
                                cnt[owner[e]] += 1
                                acc[owner[e]] += 1.0 / (t + 1 + rank[e])
                    at = out_start[p] + i * nb
                    for j in range(nb):
                        if cnt[j] > 0:
                            out[at + j] += weights[x] * acc[j] / harmonic[int(cnt[j])]
                            acc[j] = 0.0
                            cnt[j] = 0.0
            for s in range(n_slots):
                slot[nodes[s]] = -1
    return out


def sim_sem_blocks(ids_a: np.ndarray, ids_b: np.ndarray, rows: Sequence[np.ndarray], cols: Sequence[np.ndarray], *,
                   c: float = C) -> list[np.ndarray]:
    """Sim_sem (Eq. 2, normalised) between the vectors ``ids_a[rows[p]]`` and ``ids_b[cols[p]]``, per block ``p``.

    Many blocks of the same vectors in one call (each block's rows spread over numba's threads); block
    ``p`` holds exactly (bit for bit) the entries of ``sim_sem_matrix(ids_a, ids_b)[np.ix_(rows[p], cols[p])]``.

    Parameters
    ----------
    ids_a, ids_b : int arrays (g, k + 1, w)
        Node ids of each vector at each iteration, by mass descending, ``-1`` padded.
    rows, cols : sequences of int arrays, one pair per block
        Which vectors of ``a`` (rows) and of ``b`` (columns) each block compares.
    c : float
        Weight decay over iterations (0.7 in the paper).

    Returns
    -------
    List of ``(len(rows[p]), len(cols[p]))`` float arrays in [0, 1].
    """
    ids_a = np.ascontiguousarray(ids_a, dtype=np.int64)
    ids_b = np.ascontiguousarray(ids_b, dtype=np.int64)
    if ids_a.ndim != 3 or ids_b.ndim != 3 or ids_a.shape[1] != ids_b.shape[1]:
        raise ValueError(f"vectors must be (g, k + 1, w) with the same k; got {ids_a.shape} and {ids_b.shape}")
    if len(rows) != len(cols):
        raise ValueError(f"{len(rows)} row blocks but {len(cols)} column blocks")
    rows = [np.asarray(r, dtype=np.int64) for r in rows]
    cols = [np.asarray(j, dtype=np.int64) for j in cols]
    shapes = [(len(r), len(j)) for r, j in zip(rows, cols)]
    if any(len(r) and (r.min() < 0 or r.max() >= len(ids_a)) for r in rows) or \
            any(len(j) and (j.min() < 0 or j.max() >= len(ids_b)) for j in cols):
        raise ValueError(f"block indices must lie in 0..{len(ids_a) - 1} (rows) and 0..{len(ids_b) - 1} (columns)")
    out_start = np.cumsum([0] + [m * n for m, n in shapes]).astype(np.int64)
    if out_start[-1] == 0:
        return [np.zeros(shape) for shape in shapes]
    n_nodes = int(max(ids_a.max(initial=-1), ids_b.max(initial=-1))) + 1
    flat = _sim_sem_kernel(ids_a, ids_b, _concatenate(rows), _starts(rows), _concatenate(cols), _starts(cols),
                           out_start, iteration_weights(ids_a.shape[1] - 1, c), n_nodes, DENSE_SHARE)
    np.minimum(flat, 1.0, out=flat)
    return [flat[lo:hi].reshape(shape) for lo, hi, shape in zip(out_start[:-1], out_start[1:], shapes)]


def sim_sem_matrix(ids_a: np.ndarray, ids_b: np.ndarray, *, c: float = C) -> np.ndarray:
    """Sim_sem (Eq. 2, normalised) between every vector of ``a`` and every vector of ``b``.

    Parameters
    ----------
    ids_a, ids_b : int arrays (g, k + 1, w)
        Node ids of each vector at each iteration, by mass descending, ``-1`` padded.
    c : float
        Weight decay over iterations (0.7 in the paper).

    Returns
    -------
    (g_a, g_b) float array in [0, 1].
    """
    return sim_sem_blocks(ids_a, ids_b, [np.arange(len(ids_a))], [np.arange(len(ids_b))], c=c)[0]


def _concatenate(parts: Sequence[np.ndarray]) -> np.ndarray:
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _starts(parts: Sequence[np.ndarray]) -> np.ndarray:
    return np.cumsum([0] + [len(p) for p in parts]).astype(np.int64)


def rank_and_weight(y: np.ndarray, z: np.ndarray) -> float:
    """RW (Eq. 3) of two dense non-negative vectors."""
    ry, rz = ranked_ids(y), ranked_ids(z)
    width = max(len(ry), len(rz), 1)
    a = np.full((1, 1, width), -1, dtype=np.int64)
    b = np.full((1, 1, width), -1, dtype=np.int64)
    a[0, 0, :len(ry)] = ry
    b[0, 0, :len(rz)] = rz
    return float(sim_sem_matrix(a, b, c=1.0)[0, 0])
