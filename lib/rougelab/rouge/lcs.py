"""Longest common subsequences for ROUGE-L and ROUGE-W (Lin 2004, sections 3 and 4).

The kernels reproduce ROUGE-1.5.5's dynamic programme and its back-trace (``lcs_inner``,
``wlcs_inner``, ``markLCS``): on equal tokens the path goes diagonal, otherwise up when
``c[i-1][j] >= c[i][j-1]``, else left. Which tokens form the union LCS depends on these ties, so
they are kept exactly. ROUGE-L's summary-level kernel computes the same DP bit-parallel
(``_lcs_bits_marked``: one machine word per 62 peer tokens, one row per model token that occurs in the peer
sentence) and back-traces it with the same choices from one parity bit per DP cell, made for the rows the
back-trace reaches; ``sentence_lcs_length`` is that DP without the back-trace; ROUGE-W keeps the full DP.
Tokens are integer ids (numpy ``int64`` arrays) inside the kernels; the public helpers accept any sequences
of hashable tokens.
"""
from __future__ import annotations

from typing import Hashable, Sequence

import numpy as np

from rougelab._jit import jit, jitable
from rougelab.text.token_ids import TokenIndex

_DIAG, _UP, _LEFT = 1, 2, 3  # back-trace moves (markLCS's "\\", "^", "<")


@jit
def _mark_lcs(model, m0, m1, peer, p0, p1, weight, mask):
    """Mark in ``mask[m0:m1]`` the model tokens on the (weighted) LCS of ``model[m0:m1]`` and ``peer[p0:p1]``.

    ``weight`` is the ROUGE-W exponent w of f(k) = k**w (Lin 2004, eq. 15); ``weight == 1`` is plain LCS.
    Returns the DP value c[m][n] (the LCS length, or Lin's WLCS score). Only two rows of c and of the run
    lengths are kept (row i in slot i % 2); the back-trace needs the moves alone.
    """
    m = m1 - m0
    n = p1 - p0
    if m == 0:
        return 0.0
    c = np.zeros((2, n + 1), dtype=np.float64)
    run = np.zeros((2, n + 1), dtype=np.int64)
    b = np.zeros((m + 1, n + 1), dtype=np.int8)
    gain = np.empty(min(m, n) + 1)  # f(k + 1) - f(k), once per run length (exactly 1.0 for plain LCS)
    for k in range(len(gain)):
        gain[k] = (k + 1.0) ** weight - float(k) ** weight
    for i in range(1, m + 1):
        tok = model[m0 + i - 1]
        now = i % 2
        before = 1 - now
        for j in range(1, n + 1):
            if tok == peer[p0 + j - 1]:
                k = run[before, j - 1]
                c[now, j] = c[before, j - 1] + gain[k]
                run[now, j] = k + 1
                b[i, j] = _DIAG
            elif c[before, j] >= c[now, j - 1]:
                c[now, j] = c[before, j]
                run[now, j] = 0
                b[i, j] = _UP
            else:
                c[now, j] = c[now, j - 1]
                run[now, j] = 0
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
    return c[m % 2, n]


_WORD = 62  # bits per word of a bit-parallel DP row: a word plus a word plus a carry stays below 2**63, exact
# in int64 and in Python; one word holds a sentence of up to 62 tokens
_FULL = (1 << _WORD) - 1


@jitable
def _popcount(x):
    """Number of set bits of ``x`` (0 <= x < 2**62); no product, so no int64 overflow."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x += x >> 8
    x += x >> 16
    x += x >> 32
    return x & 0x7F


@jit
def match_masks(model, peer, peer_offsets, slot):
    """Where each model token occurs in each peer sentence, as bit words (``_lcs_bits_marked``' M).

    The distinct peer tokens are numbered in order of first occurrence through ``slot``, a scratch
    array indexed by token id (at least the largest peer id + 1 long) that holds -1 everywhere on entry
    and again on return. Returns (which, masks): ``which[i]`` is model token i's number, -1 when the peer
    lacks it; bit r of ``masks[d, t, r // _WORD]`` (at ``r % _WORD``) is set when token r of peer
    sentence t has number d.
    """
    n_distinct = 0
    for j in range(len(peer)):
        if slot[peer[j]] < 0:
            slot[peer[j]] = n_distinct
            n_distinct += 1
    words = 1
    for t in range(len(peer_offsets) - 1):
        words = max(words, (peer_offsets[t + 1] - peer_offsets[t] + _WORD - 1) // _WORD)
    masks = np.zeros((n_distinct, len(peer_offsets) - 1, words), dtype=np.int64)
    for t in range(len(peer_offsets) - 1):
        for j in range(peer_offsets[t], peer_offsets[t + 1]):
            r = j - peer_offsets[t]
            masks[slot[peer[j]], t, r // _WORD] |= 1 << (r % _WORD)
    which = np.empty(len(model), dtype=np.int64)
    for i in range(len(model)):
        which[i] = slot[model[i]] if 0 <= model[i] < len(slot) else -1
    for j in range(len(peer)):
        slot[peer[j]] = -1
    return which, masks


@jitable
def _prefix_parity(x):
    """Bit k of the result is the parity of bits 0 .. k of ``x`` (0 <= x < 2**62). (A shift may push bits
    past bit 63 in int64; only bits below 62 are kept, and no bit moves down.)"""
    x ^= x << 1
    x ^= x << 2
    x ^= x << 4
    x ^= x << 8
    x ^= x << 16
    x ^= x << 32
    return x & _FULL


@jit
def _occurs(masks, d, t):
    """Whether the peer token numbered ``d`` (``match_masks``) occurs in peer sentence t."""
    for w in range(masks.shape[2]):
        if masks[d, t, w] != 0:
            return True
    return False


@jitable
def _advance(rows, before, after, words, masks, d, t):
    """One row of the bit-parallel LCS DP (``_lcs_bits_marked``): V_i into ``rows[after]`` from V_{i-1} in
    ``rows[before]`` (the same row is fine), over ``words`` words, for a model token of ``masks`` row ``d``
    (-1: absent) against peer sentence t. Rows are indexed, never sliced: a view per row cost more than
    the DP on short sentences."""
    carry = 0
    for w in range(words):
        v = rows[before, w]
        match = masks[d, t, w] if d >= 0 else 0
        total = v + (v & match) + carry
        carry = total >> _WORD
        rows[after, w] = (total & _FULL) | (v & ~match & _FULL)


@jitable
def _lcs_of_row(rows, i, n):
    """c[i][n] from DP row V_i (``rows[i]``) over ``n`` peer positions: the clear bits among bits 0 .. n - 1."""
    length = 0
    for w in range((n + _WORD - 1) // _WORD):
        bits = min(_WORD, n - w * _WORD)
        length += bits - _popcount(rows[i, w] & ((1 << bits) - 1))
    return length


@jit
def _up_bits(rows, i, w):
    """Word ``w`` of D_i (``_lcs_bits_marked``): bit k set where c[i][j] - c[i-1][j] is 1, j = w * _WORD + k + 1;
    the parity of V_i's changes from V_{i-1} up to that column."""
    below = 0
    for k in range(w):
        below ^= _popcount(rows[i - 1, k] ^ rows[i, k]) & 1
    flips = _prefix_parity(rows[i - 1, w] ^ rows[i, w])
    return flips ^ _FULL if below else flips


@jit
def _mark_lcs_bits(model, which, m0, m1, peer, p0, p1, masks, t, mask):
    """``_lcs_bits_marked`` with scratch arrays of its own (one model sentence against one peer sentence): what
    tests/test_rouge_fast_path.py checks against ``_mark_lcs``; ``union_lcs_hits`` calls ``_lcs_bits_marked``."""
    present = np.empty(m1 - m0, dtype=np.int64)
    rows = np.empty((m1 - m0 + 1, max(1, (p1 - p0 + _WORD - 1) // _WORD)), dtype=np.int64)
    return _lcs_bits_marked(model, which, m0, m1, peer, p0, p1, masks, t, mask, present, rows)


@jitable
def _lcs_bits_marked(model, which, m0, m1, peer, p0, p1, masks, t, mask, present, rows):
    """``_mark_lcs`` with weight 1 against peer sentence t (``peer[p0:p1]``), the DP computed bit-parallel
    (Allison and Dix 1986; Hyyro 2004).

    ``which[i]`` is model token i's row in ``masks`` (``match_masks``), -1 when the peer lacks it.
    Row i of the DP is a bit vector V_i over the peer positions, bit j clear where c[i][j+1] = c[i][j] + 1;
    with M the peer positions equal to model token i, V_i = (V_{i-1} + (V_{i-1} & M)) | (V_{i-1} & ~M),
    in words of ``_WORD`` bits added with carries (``_advance``). The back-trace makes ROUGE-1.5.5's choices
    (diagonal on equal tokens, else up when c[i-1][j] >= c[i][j-1]); off the diagonal c[i][j] is the larger
    of the two, so the path goes up exactly where D_i[j] = c[i][j] - c[i-1][j] is 0. That difference is 0
    or 1 in every column, so the columns where V_i and V_{i-1} differ alternately raise and lower it: it is
    the parity of those columns up to j (``_up_bits``), made for the rows the back-trace reaches. A model
    token absent from the peer sentence leaves the row as it was (V_i = V_{i-1}, D_i = 0: the path only goes
    up through it), so the DP and the back-trace run over the rows of the present tokens alone. No LCS:
    nothing to mark, no back-trace. Returns the LCS length. ``present`` (at least m1 - m0 long) and ``rows``
    (at least m1 - m0 + 1 rows of the peer sentence's words) are scratch arrays, allocated once per pair by
    ``union_lcs_hits``: once per pair of sentences they cost 8% of ROUGE-L on news texts of 3 sentences.
    """
    n = p1 - p0
    m = 0  # present[:m]: the model positions whose token occurs in the peer sentence
    if n > 0:
        for i in range(m0, m1):
            if which[i] >= 0 and _occurs(masks, which[i], t):
                present[m] = i
                m += 1
    if m == 0:
        return 0.0
    words = (n + _WORD - 1) // _WORD
    for w in range(words):
        rows[0, w] = _FULL
    for r in range(1, m + 1):
        _advance(rows, r - 1, r, words, masks, which[present[r - 1]], t)
    length = _lcs_of_row(rows, m, n)
    r = m
    j = n if length else 0
    while r != 0 and j != 0:
        token = model[present[r - 1]]
        w = (j - 1) // _WORD
        up = _up_bits(rows, r, w)
        while j != 0:  # left along row r, up to a diagonal or an up move
            if (j - 1) // _WORD != w:
                w = (j - 1) // _WORD
                up = _up_bits(rows, r, w)
            if token == peer[p0 + j - 1]:
                j -= 1
                mask[present[r - 1]] = 1
                break
            if (up >> ((j - 1) % _WORD)) & 1 == 0:
                break
            j -= 1
        r -= 1
    return float(length)


@jit
def sentence_lcs_length(model, peer, peer_offsets, slot):
    """LCS length of one model sentence and one peer sentence (``peer_offsets``: ``[0, len(peer)]``; ``slot``
    as in ``match_masks``), bit-parallel like ``_lcs_bits_marked``, without the back-trace.

    For one sentence on each side this is ROUGE-1.5.5's union-LCS hit when the unigram counts that clip it
    are those of the same tokens (no length limit): the LCS pairs each of its model tokens with a
    peer token of the same id, so no id is counted more often than either sentence holds it.
    """
    which, masks = match_masks(model, peer, peer_offsets, slot)
    n = len(peer)
    words = max(1, (n + _WORD - 1) // _WORD)
    row = np.full((1, words), _FULL, dtype=np.int64)
    for i in range(len(model)):
        _advance(row, 0, 0, words, masks, which[i], 0)
    return float(_lcs_of_row(row, 0, n))


@jit
def _union_mask(model, m0, m1, peer, peer_offsets, weight, mask):
    """Union over every peer sentence of the LCS positions in model sentence ``model[m0:m1]`` (Lin 2004, 3.2)."""
    for s in range(len(peer_offsets) - 1):
        _mark_lcs(model, m0, m1, peer, peer_offsets[s], peer_offsets[s + 1], weight, mask)


def _as_ids(*sequences: Sequence[Hashable]) -> list[np.ndarray]:
    index = TokenIndex()
    return [index.ids(seq) for seq in sequences]


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
def summary_lcs_hits(model, model_offsets, peer, peer_offsets, weight,
                     model_vocab, model_counts, peer_vocab, peer_counts):
    """``union_lcs_hits`` with the two unigram tables given as sorted ids (``*_vocab``) and their counts,
    and scratch arrays of its own."""
    largest = -1
    for ids in (model, peer, model_vocab, peer_vocab):
        if len(ids):
            largest = max(largest, ids.max())
    slot = np.full(largest + 1, -1, dtype=np.int64)
    model_count = np.zeros(largest + 1, dtype=np.int64)
    peer_count = np.zeros(largest + 1, dtype=np.int64)
    model_count[model_vocab] = model_counts
    peer_count[peer_vocab] = peer_counts
    return union_lcs_hits(model, model_offsets, peer, peer_offsets, weight, model_count, peer_count, slot)


@jit
def union_lcs_hits(model, model_offsets, peer, peer_offsets, weight, model_count, peer_count, slot):
    """Summary-level union-LCS hits and base of one model (reference) against one peer, as ROUGE-1.5.5.

    For every model sentence, the union LCS with all peer sentences is marked (Lin 2004, eq. 7); a marked
    token counts only while both its model and peer unigram counts (``*_count[id]``, taken from the possibly
    differently truncated unigram text) are positive, and each counted hit uses one of each (ROUGE-1.5.5's
    clipping: the counts are used up here). With ``weight == 1`` (ROUGE-L) the hit is the number of counted
    tokens and the base the number of model tokens, the LCS computed bit-parallel; otherwise (ROUGE-W) a run
    of k counted tokens adjacent in the model sentence adds k**weight, and the base is the sum of sentence
    length**weight (the Perl ``wlcs`` routine). ``slot`` is a scratch array over token ids (at least the
    largest id of the arguments + 1 long, all -1; left all -1), which numbers the peer's tokens
    (``match_masks``).

    Returns
    -------
    (hit, base) : tuple of float
    """
    hit = 0.0
    base = 0.0
    if weight == 1.0:
        which, masks = match_masks(model, peer, peer_offsets, slot)
        longest = 0  # scratch of _lcs_bits_marked for the longest model sentence and every peer sentence
        for s in range(len(model_offsets) - 1):
            longest = max(longest, model_offsets[s + 1] - model_offsets[s])
        present = np.empty(longest, dtype=np.int64)
        rows = np.empty((longest + 1, masks.shape[2]), dtype=np.int64)
    mask = np.zeros(len(model), dtype=np.int8)  # marks of the model's tokens, sentence by sentence
    for s in range(len(model_offsets) - 1):
        m0 = model_offsets[s]
        m1 = model_offsets[s + 1]
        if weight == 1.0:
            base += m1 - m0
        else:
            base += float(m1 - m0) ** weight
        for t in range(len(peer_offsets) - 1):
            if weight == 1.0:
                _lcs_bits_marked(model, which, m0, m1, peer, peer_offsets[t], peer_offsets[t + 1], masks, t, mask,
                                 present, rows)
            else:
                _mark_lcs(model, m0, m1, peer, peer_offsets[t], peer_offsets[t + 1], weight, mask)
        run = 0
        for j in range(m0, m1):
            if mask[j] == 1:
                token = model[j]
                if model_count[token] > 0 and peer_count[token] > 0:
                    if weight == 1.0:
                        hit += 1.0
                    else:
                        run += 1
                        if j + 1 < m1 and mask[j + 1] == 0:
                            hit += float(run) ** weight
                            run = 0
                        elif j + 1 == m1:
                            hit += float(run) ** weight
                            run = 0
                    model_count[token] -= 1
                    peer_count[token] -= 1
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
