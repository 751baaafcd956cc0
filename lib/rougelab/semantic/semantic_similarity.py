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


@numba.njit(cache=True, parallel=True)
def _sim_sem_kernel(ids_a, ids_b, weights, n_nodes):  # pragma: no cover - compiled
    na, X, wa = ids_a.shape
    nb, _, wb = ids_b.shape
    out = np.zeros((na, nb), dtype=np.float64)
    harmonic = np.zeros(max(wa, wb) + 1, dtype=np.float64)   # sum_{i=1}^{h} 1/(2i)
    for h in range(1, len(harmonic)):
        harmonic[h] = harmonic[h - 1] + 0.5 / h
    slot = np.full(n_nodes, -1, dtype=np.int64)              # node -> its posting list at this iteration
    head = np.zeros(nb * wb + 1, dtype=np.int64)
    owner = np.empty(nb * wb, dtype=np.int64)
    rank = np.empty(nb * wb, dtype=np.int64)
    nodes = np.empty(nb * wb, dtype=np.int64)
    n_chunks = min(na, 64)
    for x in range(X):
        # side b at iteration x as posting lists: node -> (vector, rank) entries, by counting sort
        n_slots = 0
        for b in range(nb):
            for t in range(wb):
                h = ids_b[b, x, t]
                if h >= 0:
                    if slot[h] < 0:
                        slot[h] = n_slots
                        nodes[n_slots] = h
                        head[n_slots + 1] = 0
                        n_slots += 1
                    head[slot[h] + 1] += 1
        head[0] = 0
        for s in range(n_slots):
            head[s + 1] += head[s]
        fill = head[:n_slots].copy()
        for b in range(nb):
            for t in range(wb):
                h = ids_b[b, x, t]
                if h >= 0:
                    e = fill[slot[h]]
                    owner[e] = b
                    rank[e] = t + 1
                    fill[slot[h]] = e + 1
        for chunk in numba.prange(n_chunks):
            acc = np.zeros(nb, dtype=np.float64)
            cnt = np.zeros(nb, dtype=np.int64)
            for a in range(chunk, na, n_chunks):
                for t in range(wa):
                    h = ids_a[a, x, t]
                    if h < 0 or slot[h] < 0:
                        continue
                    for e in range(head[slot[h]], head[slot[h] + 1]):
                        cnt[owner[e]] += 1
                        acc[owner[e]] += 1.0 / (t + 1 + rank[e])
                for b in range(nb):
                    if cnt[b] > 0:
                        out[a, b] += weights[x] * acc[b] / harmonic[cnt[b]]
                        acc[b] = 0.0
                        cnt[b] = 0
        for s in range(n_slots):
            slot[nodes[s]] = -1
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
    n_nodes = int(max(ids_a.max(), ids_b.max(), -1)) + 1
    return np.minimum(_sim_sem_kernel(ids_a, ids_b, iteration_weights(ids_a.shape[1] - 1, c), n_nodes), 1.0)


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
def _ahead(h1, m1, h2, m2):  # pragma: no cover - compiled
    """Ranking order of PPR entries: larger mass first, then the smaller node id."""
    return m1 > m2 or (m1 == m2 and h1 < h2)


@numba.njit(cache=True)
def _gram_vectors_kernel(sense_ids, sense_values, seed_rows, oov_words, oov_offset, top,
                         oov_mass):  # pragma: no cover - compiled
    # The mean of several ranked vectors, ranked, without sorting it all: a node in one vector keeps
    # its place in that vector's order, so only nodes shared by several vectors need sorting; then
    # the vectors' own orders and the sorted shared nodes are merged, best first, up to ``top``.
    g = seed_rows.shape[0]
    _, X, w = sense_ids.shape
    max_oov = 0
    for i in range(g):
        max_oov = max(max_oov, int((oov_words[i] >= 0).sum()))
    out = np.full((g, X, top + max_oov), -1, dtype=np.int64)
    mass = np.zeros(oov_offset, dtype=np.float64)      # per graph node, reset after use
    seen = np.zeros(oov_offset, dtype=np.int64)        # how many of the gram's vectors hold the node
    nodes = np.empty(seed_rows.shape[1] * w, dtype=np.int64)
    shared_buffer = np.empty(seed_rows.shape[1] * w, dtype=np.int64)
    shared_mass = np.empty(seed_rows.shape[1] * w, dtype=np.float64)
    kept = np.empty(top, dtype=np.int64)
    kept_mass = np.empty(top, dtype=np.float64)
    for i in range(g):
        rows = seed_rows[i][seed_rows[i] >= 0]
        oov = oov_words[i][oov_words[i] >= 0]
        share = 1.0 / len(rows) if len(rows) else 0.0
        for x in range(X):
            n = 0
            for r in rows:
                for t in range(w):
                    h = sense_ids[r, x, t]
                    if h < 0:
                        break
                    if seen[h] == 0:
                        nodes[n] = h
                        n += 1
                    seen[h] += 1
                    mass[h] += sense_values[r, x, t] * share
            n_shared = 0
            for t in range(n):
                if seen[nodes[t]] > 1:
                    shared_buffer[n_shared] = nodes[t]
                    n_shared += 1
            shared = np.sort(shared_buffer[:n_shared])
            for t in range(n_shared):
                shared_mass[t] = -mass[shared[t]]
            shared = shared[np.argsort(shared_mass[:n_shared], kind="mergesort")]
            at = np.zeros(len(rows), dtype=np.int64)    # next position in each vector
            at_shared = 0
            k = 0
            while k < top:
                best_h, best_m, best_r = -1, 0.0, -1
                for j in range(len(rows)):
                    while at[j] < w and sense_ids[rows[j], x, at[j]] >= 0 and seen[sense_ids[rows[j], x, at[j]]] > 1:
                        at[j] += 1                      # shared: taken from the sorted shared list
                    if at[j] < w and sense_ids[rows[j], x, at[j]] >= 0:
                        h = sense_ids[rows[j], x, at[j]]
                        if best_h < 0 or _ahead(h, mass[h], best_h, best_m):
                            best_h, best_m, best_r = h, mass[h], j
                if at_shared < len(shared):
                    h = shared[at_shared]
                    if best_h < 0 or _ahead(h, mass[h], best_h, best_m):
                        best_h, best_m, best_r = h, mass[h], -2
                if best_h < 0:
                    break
                if best_r == -2:
                    at_shared += 1
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
            for t in range(len(oov)):
                out[i, x, split + t] = oov_offset + oov[t]
            out[i, x, split + len(oov):k + len(oov)] = kept[split:k]
    return out


def gram_vectors(sense_ids: np.ndarray, sense_values: np.ndarray, seed_rows: np.ndarray,
                 oov_words: np.ndarray, *, oov_offset: int, top: int) -> np.ndarray:
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
    top : int
        Entries of the averaged PPR part kept per iteration.

    Returns
    -------
    int array (g, k + 1, top + max OOV words), by mass descending (ties: smaller id first), ``-1`` padded.
    """
    seed_rows = np.atleast_2d(np.asarray(seed_rows, dtype=np.int64))
    oov_words = np.atleast_2d(np.asarray(oov_words, dtype=np.int64))
    if len(seed_rows) != len(oov_words):
        raise ValueError(f"{len(seed_rows)} seed rows but {len(oov_words)} OOV rows")
    return _gram_vectors_kernel(np.ascontiguousarray(sense_ids), np.ascontiguousarray(sense_values),
                                np.ascontiguousarray(seed_rows), np.ascontiguousarray(oov_words),
                                int(oov_offset), int(top), OOV_MASS)


@numba.njit(cache=True)
def _first_argmax_per_word(best, starts):  # pragma: no cover - compiled
    chosen = np.full(len(starts) - 1, -1, dtype=np.int64)
    for i in range(len(starts) - 1):
        for r in range(starts[i], starts[i + 1]):
            if chosen[i] < 0 or best[r] > best[chosen[i]]:
                chosen[i] = r
    return chosen


def align_senses(sense_sim: np.ndarray, starts_a: np.ndarray, starts_b: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Alignment-based sense selection (section 3.4; Pilehvar et al. 2013).

    Each word of one side takes the sense most similar to any sense of any word of the other
    side; a word none of whose senses meets the other side (similarity 0) keeps its first,
    most frequent, sense. Ties go to the earlier sense in WordNet's order.

    Parameters
    ----------
    sense_sim : (s_a, s_b) array
        Sim_sem between every sense of side a (rows) and of side b (columns), grouped by word.
    starts_a, starts_b : int arrays
        Word ``i`` of side a owns rows ``starts_a[i]:starts_a[i + 1]`` (none for a word WordNet
        lacks); likewise for the columns of side b.

    Returns
    -------
    The chosen row of each word of a and column of each word of b (``-1`` for OOV words).
    """
    best_a = sense_sim.max(axis=1, initial=0.0)
    best_b = sense_sim.max(axis=0, initial=0.0)
    return (_first_argmax_per_word(best_a, np.asarray(starts_a, dtype=np.int64)),
            _first_argmax_per_word(best_b, np.asarray(starts_b, dtype=np.int64)))
