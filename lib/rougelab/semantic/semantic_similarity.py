"""Path-based similarity of PPR vectors (ShafieiBavani et al. 2018, Eqs. 2-3, sections 3.4-3.5).

Rank and Weight (Eq. 3; Pilehvar et al. 2013)::

    RW(Y, Z) = sum_{h in H} 1 / (r_h(Y) + r_h(Z))  /  sum_{i=1}^{|H|} 1 / (2 i)     (0 if H is empty)

with ``H`` the nodes of positive mass in both vectors and ``r_h`` the rank of ``h`` (1 = largest mass;
equal masses are ranked by node id, so every vector has a strict order and RW(Y, Y) = 1).
Path-based similarity (Eq. 2) sums RW over the iterations of the random walk, early ones weighted
more: ``Sim_sem(I, J) = sum_{x=0}^{k} c^x RW(p(x)(I), p(x)(J))``. We divide by ``sum_x c^x`` so that
Sim_sem lies in [0, 1] and is 1 for identical vectors (the paper's "Sim_sem(fire, terminate) = 1").

Vectors here are ``PPRVectors``-shaped arrays ``ids (g, k + 1, w)`` / ``values (g, k + 1, w)``
sorted by value descending. ``gram_vectors`` makes an n-gram's vector: PPR is linear in ``p(0)``,
so the vector of a seed set is the mean of its single-sense vectors (exact before truncation; we
average the truncated vectors and keep the ``top`` largest entries), plus one extra dimension of
mass 0.5 per out-of-vocabulary word (section 3.5, after Pilehvar and Navigli 2015).
"""
from __future__ import annotations

import numba
import numpy as np

C = 0.7          # c in Eq. 2
OOV_MASS = 0.5   # section 3.5


def iteration_weights(iterations: int, c: float = C) -> np.ndarray:
    """``c^x / sum_x c^x`` for x = 0..iterations (Eq. 2, normalised to sum to 1)."""
    if not 0.0 < c <= 1.0:
        raise ValueError(f"c must be in (0, 1], got {c}")
    w = c ** np.arange(iterations + 1, dtype=np.float64)
    return w / w.sum()


@numba.njit(cache=True)
def _sim_sem_kernel(ids_a, ids_b, weights):  # pragma: no cover - compiled
    na, X, wa = ids_a.shape
    nb, _, wb = ids_b.shape
    out = np.zeros((na, nb), dtype=np.float64)
    harmonic = np.zeros(max(wa, wb) + 1, dtype=np.float64)   # sum_{i=1}^{h} 1/(2i)
    for h in range(1, len(harmonic)):
        harmonic[h] = harmonic[h - 1] + 0.5 / h
    acc = np.zeros(nb, dtype=np.float64)
    cnt = np.zeros(nb, dtype=np.int64)
    touched = np.empty(nb, dtype=np.int64)
    for x in range(X):
        # inverted index of side b at iteration x: (node, vector, rank) sorted by node
        n_entries = 0
        for b in range(nb):
            for t in range(wb):
                if ids_b[b, x, t] >= 0:
                    n_entries += 1
        nodes = np.empty(n_entries, dtype=np.int64)
        owner = np.empty(n_entries, dtype=np.int64)
        rank = np.empty(n_entries, dtype=np.float64)
        e = 0
        for b in range(nb):
            for t in range(wb):
                if ids_b[b, x, t] >= 0:
                    nodes[e] = ids_b[b, x, t]
                    owner[e] = b
                    rank[e] = t + 1
                    e += 1
        order = np.argsort(nodes, kind="mergesort")
        nodes = nodes[order]
        owner = owner[order]
        rank = rank[order]
        for a in range(na):
            n_touched = 0
            for t in range(wa):
                h = ids_a[a, x, t]
                if h < 0:
                    continue
                lo = np.searchsorted(nodes, h)
                while lo < n_entries and nodes[lo] == h:
                    b = owner[lo]
                    if cnt[b] == 0:
                        touched[n_touched] = b
                        n_touched += 1
                    cnt[b] += 1
                    acc[b] += 1.0 / (t + 1 + rank[lo])
                    lo += 1
            for i in range(n_touched):
                b = touched[i]
                out[a, b] += weights[x] * acc[b] / harmonic[cnt[b]]
                acc[b] = 0.0
                cnt[b] = 0
    return out


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
    ids_a = np.ascontiguousarray(ids_a, dtype=np.int64)
    ids_b = np.ascontiguousarray(ids_b, dtype=np.int64)
    if ids_a.ndim != 3 or ids_b.ndim != 3 or ids_a.shape[1] != ids_b.shape[1]:
        raise ValueError(f"vectors must be (g, k + 1, w) with the same k; got {ids_a.shape} and {ids_b.shape}")
    if len(ids_a) == 0 or len(ids_b) == 0:
        return np.zeros((len(ids_a), len(ids_b)))
    return np.minimum(_sim_sem_kernel(ids_a, ids_b, iteration_weights(ids_a.shape[1] - 1, c)), 1.0)


def ranked_ids(vector: np.ndarray) -> np.ndarray:
    """Node ids of a dense vector's positive entries, by mass descending (ties: smaller id first)."""
    vector = np.asarray(vector, dtype=np.float64)
    positive = np.flatnonzero(vector > 0)
    return positive[np.lexsort((positive, -vector[positive]))]


def rank_and_weight(y: np.ndarray, z: np.ndarray) -> float:
    """RW (Eq. 3) of two dense non-negative vectors."""
    ry, rz = ranked_ids(y), ranked_ids(z)
    width = max(len(ry), len(rz), 1)
    a = np.full((1, 1, width), -1, dtype=np.int64)
    b = np.full((1, 1, width), -1, dtype=np.int64)
    a[0, 0, :len(ry)] = ry
    b[0, 0, :len(rz)] = rz
    return float(sim_sem_matrix(a, b, c=1.0)[0, 0])


@numba.njit(cache=True)
def _gram_vectors_kernel(sense_ids, sense_values, starts, members, oov_starts, oov_members,
                         oov_offset, top, oov_mass):  # pragma: no cover - compiled
    g = len(starts) - 1
    _, X, w = sense_ids.shape
    max_oov = 0
    max_rows = 1
    for i in range(g):
        max_oov = max(max_oov, oov_starts[i + 1] - oov_starts[i])
        max_rows = max(max_rows, starts[i + 1] - starts[i])
    out = np.full((g, X, top + max_oov), -1, dtype=np.int64)
    scratch = np.zeros(oov_offset, dtype=np.float64)      # mass per graph node, reset after use
    nodes = np.empty(max_rows * w, dtype=np.int64)
    for i in range(g):
        rows = members[starts[i]:starts[i + 1]]
        oov = oov_members[oov_starts[i]:oov_starts[i + 1]]
        share = 1.0 / len(rows) if len(rows) else 0.0
        for x in range(X):
            n = 0
            for r in rows:
                for t in range(w):
                    h = sense_ids[r, x, t]
                    if h < 0:
                        break
                    if scratch[h] == 0.0:
                        nodes[n] = h
                        n += 1
                    scratch[h] += sense_values[r, x, t] * share
            fn = np.empty(n + len(oov), dtype=np.int64)
            fm = np.empty(n + len(oov), dtype=np.float64)
            for t in range(n):
                fn[t] = nodes[t]
                fm[t] = scratch[nodes[t]]
                scratch[nodes[t]] = 0.0
            by_id = np.argsort(fn[:n])
            order = by_id[np.argsort(-fm[:n][by_id], kind="mergesort")]   # mass descending, ids ascending
            keep = min(n, top)
            kn = np.empty(keep + len(oov), dtype=np.int64)
            km = np.empty(keep + len(oov), dtype=np.float64)
            for t in range(keep):
                kn[t] = fn[order[t]]
                km[t] = fm[order[t]]
            for t in range(len(oov)):
                kn[keep + t] = oov_offset + oov[t]
                km[keep + t] = oov_mass
            by_id = np.argsort(kn)
            order = by_id[np.argsort(-km[by_id], kind="mergesort")]
            for t in range(len(kn)):
                out[i, x, t] = kn[order[t]]
    return out


def gram_vectors(sense_ids: np.ndarray, sense_values: np.ndarray, seed_rows: list[list[int]],
                 oov_words: list[list[int]], *, oov_offset: int, top: int) -> np.ndarray:
    """Ranked node ids of each gram's PPR vector, every iteration (sections 3.1, 3.5).

    Parameters
    ----------
    sense_ids, sense_values : (s, k + 1, w) arrays
        Single-sense PPR vectors (``PPRVectors.ids`` / ``.values``).
    seed_rows : list of lists of int
        Per gram, the rows of its (distinct) chosen senses; the gram's vector is their mean.
    oov_words : list of lists of int
        Per gram, ids of its out-of-vocabulary words; each becomes the extra node
        ``oov_offset + id`` with mass ``OOV_MASS`` (0.5) at every iteration.
    top : int
        Entries of the averaged PPR part kept per iteration.

    Returns
    -------
    int array (g, k + 1, top + max OOV words), by mass descending, ``-1`` padded.
    """
    starts = np.cumsum([0] + [len(r) for r in seed_rows]).astype(np.int64)
    members = np.asarray([r for rows in seed_rows for r in rows], dtype=np.int64)
    oov_starts = np.cumsum([0] + [len(o) for o in oov_words]).astype(np.int64)
    oov_members = np.asarray([o for words in oov_words for o in words], dtype=np.int64)
    return _gram_vectors_kernel(np.ascontiguousarray(sense_ids, dtype=np.int64),
                                np.ascontiguousarray(sense_values, dtype=np.float64), starts, members,
                                oov_starts, oov_members, int(oov_offset), int(top), OOV_MASS)


def align_senses(sense_sim: np.ndarray, rows_a: list[np.ndarray], rows_b: list[np.ndarray]
                 ) -> tuple[list[int], list[int]]:
    """Alignment-based sense selection (section 3.4; Pilehvar et al. 2013).

    Each word of one side takes the sense most similar to any sense of any word of the other
    side; a word none of whose senses meets the other side (similarity 0) keeps its first,
    most frequent, sense. Ties go to the earlier sense in WordNet's order.

    Parameters
    ----------
    sense_sim : (s_a, s_b) array
        Sim_sem between every sense of side a (rows) and of side b (columns).
    rows_a, rows_b : lists of int arrays (or None)
        Per word, the positions of its senses in the rows (columns) of ``sense_sim``; ``None`` for
        a word WordNet lacks.

    Returns
    -------
    The chosen row of each word of a, the chosen column of each word of b (``None`` for OOV words).
    """
    best_a = sense_sim.max(axis=1) if sense_sim.shape[1] else np.zeros(sense_sim.shape[0])
    best_b = sense_sim.max(axis=0) if sense_sim.shape[0] else np.zeros(sense_sim.shape[1])
    return ([None if rows is None else int(rows[np.argmax(best_a[rows])]) for rows in rows_a],
            [None if rows is None else int(rows[np.argmax(best_b[rows])]) for rows in rows_b])
