"""Longest common subsequences for ROUGE-L and ROUGE-W (Lin 2004, sections 3 and 4).

The kernels reproduce ROUGE-1.5.5's dynamic programme and its back-trace (``lcs_inner``,
``wlcs_inner``, ``markLCS``): on equal tokens the path goes diagonal, otherwise up when
``c[i-1][j] >= c[i][j-1]``, else left. Which tokens form the union LCS depends on these ties, so
they are kept exactly. Tokens are integer ids (numpy ``int64`` arrays) inside the kernels; the public
helpers accept any sequences of hashable tokens.
"""
from __future__ import annotations

from typing import Hashable, Sequence

import numpy as np

from rougelab.rouge._jit import jit

_DIAG, _UP, _LEFT = 1, 2, 3  # back-trace moves (markLCS's "\\", "^", "<")


@jit
def _mark_lcs(model, m0, m1, peer, p0, p1, weight, mask):
    """Mark in ``mask[m0:m1]`` the model tokens on the (weighted) LCS of ``model[m0:m1]`` and ``peer[p0:p1]``.

    ``weight`` is the ROUGE-W exponent w of f(k) = k**w (Lin 2004, eq. 15); ``weight == 1`` is plain LCS.
    Returns the DP value c[m][n] (the LCS length, or Lin's WLCS score).
    """
    m = m1 - m0
    n = p1 - p0
    if m == 0:
        return 0.0
    c = np.zeros((m + 1, n + 1), dtype=np.float64)
    run = np.zeros((m + 1, n + 1), dtype=np.int64)
    b = np.zeros((m + 1, n + 1), dtype=np.int8)
    for i in range(1, m + 1):
        tok = model[m0 + i - 1]
        for j in range(1, n + 1):
            if tok == peer[p0 + j - 1]:
                k = run[i - 1, j - 1]
                if weight == 1.0:
                    c[i, j] = c[i - 1, j - 1] + 1.0
                else:
                    c[i, j] = c[i - 1, j - 1] + (k + 1.0) ** weight - float(k) ** weight
                run[i, j] = k + 1
                b[i, j] = _DIAG
            elif c[i - 1, j] >= c[i, j - 1]:
                c[i, j] = c[i - 1, j]
                b[i, j] = _UP
            else:
                c[i, j] = c[i, j - 1]
                b[i, j] = _LEFT
    i = m
    j = n
    while i != 0 and j != 0:
        if b[i, j] == _DIAG:
            i -= 1
            j -= 1
            mask[m0 + i] = 1
        elif b[i, j] == _UP:
            i -= 1
        else:
            j -= 1
    return c[m, n]


@jit
def _union_mask(model, m0, m1, peer, peer_offsets, weight, mask):
    """Union over every peer sentence of the LCS positions in model sentence ``model[m0:m1]`` (Lin 2004, 3.2)."""
    for s in range(len(peer_offsets) - 1):
        _mark_lcs(model, m0, m1, peer, peer_offsets[s], peer_offsets[s + 1], weight, mask)


def _as_ids(*sequences: Sequence[Hashable]) -> list[np.ndarray]:
    vocab: dict = {}
    return [np.array([vocab.setdefault(t, len(vocab)) for t in seq], dtype=np.int64) for seq in sequences]


def lcs_length(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Length of the longest common subsequence of ``a`` and ``b`` (Lin 2004, section 3.1)."""
    x, y = _as_ids(a, b)
    return int(_mark_lcs(x, 0, len(x), y, 0, len(y), 1.0, np.zeros(len(x), dtype=np.int8)))


def union_lcs_positions(reference_sentence: Sequence[Hashable],
                        candidate_sentences: Sequence[Sequence[Hashable]]) -> list[int]:
    """Indices of the reference tokens in the union LCS with the candidate sentences (Lin 2004, 3.2, eq. 7).

    Lin's example: r_i = w1 w2 w3 w4 w5, c1 = w1 w2 w6 w7 w8, c2 = w1 w3 w8 w9 w5 gives the union
    w1 w2 w3 w5, i.e. positions [0, 1, 2, 4] (LCS_U = 4, 4/5 of r_i).
    """
    return _positions(reference_sentence, candidate_sentences, 1.0)


def weighted_lcs_positions(reference_sentence: Sequence[Hashable],
                           candidate_sentences: Sequence[Sequence[Hashable]], weight: float) -> list[int]:
    """Like ``union_lcs_positions`` along ROUGE-1.5.5's weighted LCS path (f(k) = k**weight)."""
    return _positions(reference_sentence, candidate_sentences, float(weight))


def _positions(reference_sentence, candidate_sentences, weight: float) -> list[int]:
    ids = _as_ids(reference_sentence, *candidate_sentences)
    ref = ids[0]
    peer = np.concatenate(ids[1:]) if len(ids) > 1 else np.zeros(0, dtype=np.int64)
    offsets = np.cumsum([0] + [len(c) for c in ids[1:]]).astype(np.int64)
    mask = np.zeros(len(ref), dtype=np.int8)
    _union_mask(ref, 0, len(ref), peer, offsets, weight, mask)
    return [int(i) for i in np.flatnonzero(mask)]


def wlcs(x: Sequence[Hashable], y: Sequence[Hashable], weight: float = 2.0) -> float:
    """Lin's weighted LCS score WLCS(X, Y) with f(k) = k**weight (Lin 2004, section 3.3, Figure 1)."""
    a, b = _as_ids(x, y)
    return float(_mark_lcs(a, 0, len(a), b, 0, len(b), float(weight), np.zeros(len(a), dtype=np.int8)))


@jit
def _lookup(keys, key):
    """Index of ``key`` in the sorted array ``keys``, or -1."""
    lo = 0
    hi = len(keys)
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < len(keys) and keys[lo] == key:
        return lo
    return -1


@jit
def summary_lcs_hits(model, model_offsets, peer, peer_offsets, weight,
                     model_vocab, model_counts, peer_vocab, peer_counts):
    """Summary-level union-LCS hits and base of one model (reference) against one peer, as ROUGE-1.5.5.

    For every model sentence, the union LCS with all peer sentences is marked (Lin 2004, eq. 7); a marked
    token counts only while both its model and peer unigram counts (``*_vocab`` sorted token ids,
    ``*_counts`` their counts, taken from the possibly differently truncated unigram text) are positive,
    and each counted hit uses one of each (ROUGE-1.5.5's clipping). With ``weight == 1`` (ROUGE-L) the
    hit is the number of counted tokens and the base the number of model tokens; otherwise (ROUGE-W) a
    run of k counted tokens adjacent in the model sentence adds k**weight, and the base is the sum of
    sentence length**weight (the Perl ``wlcs`` routine).

    Returns
    -------
    (hit, base) : tuple of float
    """
    mc = model_counts.copy()
    pc = peer_counts.copy()
    hit = 0.0
    base = 0.0
    for s in range(len(model_offsets) - 1):
        m0 = model_offsets[s]
        m1 = model_offsets[s + 1]
        length = m1 - m0
        if weight == 1.0:
            base += length
        else:
            base += float(length) ** weight
        mask = np.zeros(length, dtype=np.int8)
        for t in range(len(peer_offsets) - 1):
            _mark_lcs(model[m0:m1], 0, length, peer, peer_offsets[t], peer_offsets[t + 1], weight, mask)
        run = 0
        for j in range(length):
            if mask[j] == 1:
                tok = model[m0 + j]
                a = _lookup(model_vocab, tok)
                b = _lookup(peer_vocab, tok)
                if a >= 0 and b >= 0 and mc[a] > 0 and pc[b] > 0:
                    if weight == 1.0:
                        hit += 1.0
                    else:
                        run += 1
                        if j + 1 < length and mask[j + 1] == 0:
                            hit += float(run) ** weight
                            run = 0
                        elif j + 1 == length:
                            hit += float(run) ** weight
                            run = 0
                    mc[a] -= 1
                    pc[b] -= 1
    return hit, base


@jit
def summary_wlcs_lin(model, model_offsets, peer, peer_offsets, weight):
    """Lin's (2004, section 4) WLCS summed over the model sentences, each against its best peer sentence.

    Returns ``(hit, model_base, peer_base)``: sum_i max_j WLCS(r_i, c_j) (Figure 1's c(m, n)),
    sum_i |r_i|**weight and sum_j |c_j|**weight. For one sentence on each side, f^-1(hit / model_base)
    and f^-1(hit / peer_base) are Lin's eqs. 13 and 14. (The paper does not define a summary-level
    ROUGE-W; this is rougelab's reading of it.)
    """
    hit = 0.0
    model_base = 0.0
    peer_base = 0.0
    for t in range(len(peer_offsets) - 1):
        peer_base += float(peer_offsets[t + 1] - peer_offsets[t]) ** weight
    for s in range(len(model_offsets) - 1):
        m0 = model_offsets[s]
        m1 = model_offsets[s + 1]
        model_base += float(m1 - m0) ** weight
        mask = np.zeros(m1 - m0, dtype=np.int8)
        best = 0.0
        for t in range(len(peer_offsets) - 1):
            value = _mark_lcs(model[m0:m1], 0, m1 - m0, peer, peer_offsets[t], peer_offsets[t + 1], weight, mask)
            if value > best:
                best = value
        hit += best
    return hit, model_base, peer_base
