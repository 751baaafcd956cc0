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

from rougelab._jit import jit, jitable, jitable_borrowing
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


@jitable
def _numbered(peer, lo, hi, slot):
    """Number the distinct tokens of ``peer[lo:hi]`` in order of first occurrence: ``slot[id]`` (all -1 on
    entry) becomes the number. Returns how many there are."""
    n_distinct = 0
    for j in range(lo, hi):
        if slot[peer[j]] < 0:
            slot[peer[j]] = n_distinct
            n_distinct += 1
    return n_distinct


@jitable
def _unnumbered(peer, lo, hi, slot):
    """Undo ``_numbered``: ``slot`` all -1 again."""
    for j in range(lo, hi):
        slot[peer[j]] = -1


@jitable
def _words(offsets, u0, u1):
    """Bit words of the longest sentence bounded by ``offsets[u0:u1]`` (at least 1)."""
    words = 1
    for t in range(u0, u1 - 1):
        words = max(words, (offsets[t + 1] - offsets[t] + _WORD - 1) // _WORD)
    return words


@jitable
def _longest(offsets, u0, u1):
    """Tokens of the longest sentence bounded by ``offsets[u0:u1]`` (0 without one)."""
    longest = 0
    for t in range(u0, u1 - 1):
        longest = max(longest, offsets[t + 1] - offsets[t])
    return longest


@jitable_borrowing
def _masks_into(model, m_lo, m_hi, peer, p_start, peer_offsets, u0, u1, n_distinct, words, slot, which, masks):
    """``match_masks`` into scratch arrays, the peer's tokens numbered already (``_numbered``): ``which[i - m_lo]``
    for model token i, and ``masks`` flat, word w of token number d in peer sentence t at
    ``(d * sentences + t) * words + w`` (sentence t: ``peer[p_start + peer_offsets[u0 + t]:...]``)."""
    sentences = u1 - u0 - 1
    for k in range(n_distinct * sentences * words):
        masks[k] = 0
    for t in range(sentences):
        p0 = p_start + peer_offsets[u0 + t]
        for j in range(p0, p_start + peer_offsets[u0 + t + 1]):
            r = j - p0
            masks[(slot[peer[j]] * sentences + t) * words + r // _WORD] |= 1 << (r % _WORD)
    for i in range(m_lo, m_hi):
        which[i - m_lo] = slot[model[i]] if 0 <= model[i] < len(slot) else -1


@jit
def match_masks(model, peer, peer_offsets, slot):
    """Where each model token occurs in each peer sentence, as bit words (``_lcs_bits_marked``' M).

    The distinct peer tokens are numbered in order of first occurrence through ``slot``, a scratch
    array indexed by token id (at least the largest peer id + 1 long) that holds -1 everywhere on entry
    and again on return. Returns (which, masks): ``which[i]`` is model token i's number, -1 when the peer
    lacks it; bit r of ``masks[d, t, r // _WORD]`` (at ``r % _WORD``) is set when token r of peer
    sentence t has number d.
    """
    n_distinct = _numbered(peer, 0, len(peer), slot)
    words = _words(peer_offsets, 0, len(peer_offsets))
    masks = np.empty((n_distinct, len(peer_offsets) - 1, words), dtype=np.int64)
    which = np.empty(len(model), dtype=np.int64)
    _masks_into(model, 0, len(model), peer, 0, peer_offsets, 0, len(peer_offsets), n_distinct, words, slot, which,
                masks.reshape(-1))
    _unnumbered(peer, 0, len(peer), slot)
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


@jitable
def _occurs(masks, at, words):
    """Whether a peer token occurs in a peer sentence: its mask words ``masks[at:at + words]`` (``_masks_into``)."""
    found = False
    for w in range(words):
        found |= masks[at + w] != 0
    return found


@jitable
def _advance(rows, before, after, words, masks, at):
    """One row of the bit-parallel LCS DP (``_lcs_bits_marked``): V_i into row ``after`` of ``rows`` (flat, ``words``
    a row) from V_{i-1} in row ``before`` (the same row is fine), for a model token whose mask words against the
    peer sentence start at ``masks[at]`` (-1: absent). Rows are indexed, never sliced: a view per row cost more
    than the DP on short sentences."""
    carry = 0
    for w in range(words):
        v = rows[before * words + w]
        match = masks[at + w] if at >= 0 else 0
        total = v + (v & match) + carry
        carry = total >> _WORD
        rows[after * words + w] = (total & _FULL) | (v & ~match & _FULL)


@jitable
def _lcs_of_row(rows, i, n, words):
    """c[i][n] from DP row V_i (row ``i`` of ``rows``, ``words`` a row) over ``n`` peer positions: the clear bits
    among bits 0 .. n - 1."""
    length = 0
    for w in range((n + _WORD - 1) // _WORD):
        bits = min(_WORD, n - w * _WORD)
        length += bits - _popcount(rows[i * words + w] & ((1 << bits) - 1))
    return length


@jitable
def _highest_bit(x):
    """The index of the highest set bit of ``x`` (0 < x < 2**62)."""
    k = 0
    for shift in (32, 16, 8, 4, 2, 1):
        if x >> shift:
            x >>= shift
            k += shift
    return k


@jitable
def _up_bits(rows, i, w, words):
    """Word ``w`` of D_i (``_lcs_bits_marked``): bit k set where c[i][j] - c[i-1][j] is 1, j = w * _WORD + k + 1;
    the parity of V_i's changes from V_{i-1} up to that column (rows of ``words`` words)."""
    below = 0
    for k in range(w):
        below ^= _popcount(rows[(i - 1) * words + k] ^ rows[i * words + k]) & 1
    flips = _prefix_parity(rows[(i - 1) * words + w] ^ rows[i * words + w])
    return flips ^ _FULL if below else flips


@jit
def _mark_lcs_bits(which, m0, m1, p0, p1, masks, t, mask):
    """``_lcs_bits_marked`` of the model tokens ``m0:m1`` against peer sentence t (``p0:p1``) of ``match_masks``'
    ``which`` and ``masks``, with scratch arrays of its own: what tests/test_rouge_fast_path.py checks against
    ``_mark_lcs``; ``union_lcs_hits`` calls ``_lcs_bits_marked``."""
    sentences, words = masks.shape[1], masks.shape[2]
    present = np.empty(2 * (m1 - m0), dtype=np.int64)
    rows = np.empty((m1 - m0 + 1) * max(1, (p1 - p0 + _WORD - 1) // _WORD), dtype=np.int64)
    end = _in_peer(which, m0, m1, 0, present, m1 - m0)
    return _lcs_bits_marked(m1 - m0, end, 0, which, p0, p1, masks.reshape(-1), sentences, t * words, words, mask,
                            present, rows)


@jitable_borrowing
def _in_peer(which, m0, m1, first, present, at):
    """Write from ``present[at]`` on the model positions ``m0:m1`` whose token the peer has (``which[i - first]``
    >= 0: ``_lcs_bits_marked``' candidates), in order, each written, kept or not; returns where they end."""
    end = at
    for i in range(m0, m1):
        present[end] = i
        end += which[i - first] >= 0
    return end


@jitable_borrowing
def _lcs_bits_marked(c0, c1, first, which, p0, p1, masks, sentences, at, words, mask, present, rows):
    """``_mark_lcs`` with weight 1 of the tokens of a model sentence against the peer sentence ``p0:p1``, the DP
    computed bit-parallel (Allison and Dix 1986; Hyyro 2004); the tokens are read through ``which`` and ``masks``
    alone. ``present[c0:c1]`` are the sentence's positions whose token the peer has (``_in_peer``), in order, with
    ``c0 >= c1 - c0`` (they are read again for the next peer sentence; the DP's rows go into ``present[:c0]``): the
    other tokens leave every row as it was (see below).

    ``which[i - first]`` is model token i's number (``_masks_into``), -1 when the peer lacks it; its mask
    words against this peer sentence start at ``masks[which * sentences * words + at]`` (``words`` a sentence).
    Row i of the DP is a bit vector V_i over the peer positions, bit j clear where c[i][j+1] = c[i][j] + 1;
    with M the peer positions equal to model token i, V_i = (V_{i-1} + (V_{i-1} & M)) | (V_{i-1} & ~M),
    in words of ``_WORD`` bits added with carries (``_advance``). The back-trace makes ROUGE-1.5.5's choices
    (diagonal on equal tokens, else up when c[i-1][j] >= c[i][j-1]); off the diagonal c[i][j] is the larger
    of the two, so the path goes up exactly where D_i[j] = c[i][j] - c[i-1][j] is 0. That difference is 0
    or 1 in every column, so the columns where V_i and V_{i-1} differ alternately raise and lower it: it is
    the parity of those columns up to j (``_up_bits``), made for the rows the back-trace reaches. A model
    token absent from the peer sentence leaves the row as it was (V_i = V_{i-1}, D_i = 0: the path only goes
    up through it), so the DP and the back-trace run over the rows of the present tokens alone. Along a row the
    back-trace goes left a word at a time: it stops at the highest column up to j where the row's token matches
    (its mask word) or D_i is 0, found among the word's bits (``_highest_bit``). No LCS: nothing to mark, no
    back-trace. Marks ``mask[i - first]``; returns the LCS length. ``present`` and ``rows`` (at least
    c1 - c0 + 1 rows of the sentence's words) are scratch arrays, allocated once per kernel call by
    ``lcs_pair_stats``: once per pair of sentences they cost 8% of ROUGE-L
    on news texts of 3 sentences. No array is made here, and none is counted (``jitable_borrowing``).
    """
    n = p1 - p0
    stride = sentences * words
    row_words = (n + _WORD - 1) // _WORD  # the DP's words: this peer sentence's own
    m = 0  # present[:m]: the model positions whose token occurs in the peer sentence (each written, kept or not:
    # a branch per token here cost 0.4 ms of ROUGE-L on 1,000 news pairs)
    if n > 0 and row_words == 1:  # the one mask word read as it is (a loop over one word cost 0.1 ms more)
        for c in range(c0, c1):
            present[m] = present[c]
            m += masks[which[present[c] - first] * stride + at] != 0
    elif n > 0:
        for c in range(c0, c1):
            present[m] = present[c]
            m += _occurs(masks, which[present[c] - first] * stride + at, row_words)
    length = 0
    if m > 0:
        for w in range(row_words):
            rows[w] = _FULL
        for r in range(1, m + 1):
            _advance(rows, r - 1, r, row_words, masks, which[present[r - 1] - first] * stride + at)
        length = _lcs_of_row(rows, m, n, row_words)
    r = m
    j = n if length else 0
    while r != 0 and j != 0:
        i = present[r - 1]
        token_at = which[i - first] * stride + at  # the token's mask words against this peer sentence
        w = (j - 1) // _WORD
        while True:  # left along row r, word by word, to the last column up to j with a diagonal or an up move
            match = masks[token_at + w]
            stop = (match | (_up_bits(rows, r, w, row_words) ^ _FULL)) & ((1 << (j - w * _WORD)) - 1)
            if stop != 0:
                k = _highest_bit(stop)
                diagonal = (match >> k) & 1  # equal tokens: the diagonal, taken before an up move (no branch)
                j = w * _WORD + k + 1 - diagonal
                mask[i - first] |= diagonal
                break
            if w == 0:
                j = 0
                break
            j = w * _WORD
            w -= 1
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
    words = masks.shape[2]
    flat = masks.reshape(-1)
    row = np.full(words, _FULL, dtype=np.int64)
    for i in range(len(model)):
        _advance(row, 0, 0, words, flat, which[i] * words)
    return float(_lcs_of_row(row, 0, n, words))


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
    """``union_lcs_hits`` of two texts, each its own array, with the two unigram tables given as sorted ids
    (``*_vocab``) and their counts, and scratch arrays of its own."""
    largest = -1
    for ids in (model, peer, model_vocab, peer_vocab):
        if len(ids):
            largest = max(largest, ids.max())
    slot = np.full(largest + 1, -1, dtype=np.int64)
    model_count = np.zeros(largest + 1, dtype=np.int64)
    peer_count = np.zeros(largest + 1, dtype=np.int64)
    model_count[model_vocab] = model_counts
    peer_count[peer_vocab] = peer_counts
    which, masks, mask, present, rows = lcs_scratch(len(model), 0, 0)  # masks and rows: union_lcs_hits' own
    return union_lcs_hits(model, model_offsets, (0, 0, len(model_offsets)), peer, peer_offsets,
                          (0, 0, len(peer_offsets)), weight, model_count, peer_count, slot, which, masks, mask,
                          present, rows)


@jitable
def lcs_scratch(longest_text, masks, rows):
    """``union_lcs_hits``' scratch arrays but ``slot``: (which, masks, mask, present, rows) for model texts of up
    to ``longest_text`` tokens (``present``: twice that, ``_lcs_bits_marked``' candidates and rows), with room for
    ``masks`` mask words and ``rows`` DP words."""
    return (np.empty(longest_text, dtype=np.int64), np.empty(masks, dtype=np.int64),
            np.zeros(longest_text, dtype=np.int8), np.empty(2 * longest_text, dtype=np.int64),
            np.empty(rows, dtype=np.int64))


@jitable
def lcs_room(peer_offsets, peer_text, model_offsets, model_text, vocabulary):
    """(mask words, DP words) that ``union_lcs_hits`` needs for a pair at most (texts as it takes them): the
    peer's distinct tokens (at most its length and ``vocabulary``) times its sentences times the words of
    its longest, and the DP rows of the longest model sentence."""
    p_start, p0, p1 = peer_text
    words = _words(peer_offsets, p0, p1)
    distinct = min(peer_offsets[p1 - 1] - peer_offsets[p0], vocabulary)
    return distinct * (p1 - p0 - 1) * words, (_longest(model_offsets, model_text[1], model_text[2]) + 1) * words


@jit
def union_lcs_hits(model, model_offsets, model_text, peer, peer_offsets, peer_text, weight, model_count,
                   peer_count, slot, which, masks, mask, present, rows):
    """Summary-level union-LCS hits and base of one model (reference) against one peer, as ROUGE-1.5.5.

    A text is ``(start, u0, u1)``: its sentences are bounded by ``start + offsets[u0:u1]`` in its token array
    (``model``/``peer``, which may be one array holding both). For every model sentence, the union LCS with
    all peer sentences is marked (Lin 2004, eq. 7); a marked token counts only while both its model and peer
    unigram counts (``*_count[id]``, taken from the possibly differently truncated unigram text) are
    positive, and each counted hit uses one of each (ROUGE-1.5.5's clipping: the counts are used up here).
    With ``weight == 1`` (ROUGE-L) the hit is the number of counted tokens and the base the number of model
    tokens, the LCS computed bit-parallel; otherwise (ROUGE-W) a run of k counted tokens adjacent in the model
    sentence adds k**weight, and the base is the sum of sentence length**weight (the Perl ``wlcs`` routine).
    ``slot`` is a scratch array over token ids (at least the largest id of the arguments + 1 long, all -1;
    left all -1), which numbers the peer's tokens (``match_masks``); the others are ``lcs_scratch``'s, at
    least the model text long; ROUGE-L makes masks and DP rows of its own for a pair that needs more room
    than ``masks`` and ``rows`` have (``lcs_room``).

    Returns
    -------
    (hit, base) : tuple of float
    """
    if weight == 1.0:
        hit, base, need_masks, need_rows = union_lcs_l_in_room(model, model_offsets, model_text, peer, peer_offsets,
                                                               peer_text, model_count, peer_count, slot, which,
                                                               masks, mask, present, rows)
        if need_masks or need_rows:
            hit, base, _, _ = union_lcs_l_in_room(model, model_offsets, model_text, peer, peer_offsets, peer_text,
                                                  model_count, peer_count, slot, which,
                                                  np.empty(need_masks, dtype=np.int64), mask, present,
                                                  np.empty(need_rows, dtype=np.int64))
        return hit, base
    m_start, m_u0, m_u1 = model_text
    m_lo = m_start + model_offsets[m_u0]
    m_hi = m_start + model_offsets[m_u1 - 1]
    for i in range(m_hi - m_lo):
        mask[i] = 0
    for s in range(m_u0, m_u1 - 1):
        for t in range(peer_text[1], peer_text[2] - 1):
            _mark_lcs(model[m_lo:m_hi], model_offsets[s] - model_offsets[m_u0],
                      model_offsets[s + 1] - model_offsets[m_u0], peer, peer_text[0] + peer_offsets[t],
                      peer_text[0] + peer_offsets[t + 1], weight, mask)  # a view: the DP makes arrays anyway
    return _clipped_hits(model, model_offsets, model_text, weight, mask, model_count, peer_count)


@jitable_borrowing
def union_lcs_l_in_room(model, model_offsets, model_text, peer, peer_offsets, peer_text, model_count, peer_count,
                        slot, which, masks, mask, present, rows):
    """``union_lcs_hits`` of weight 1 (ROUGE-L) in the room of its scratch arrays: (hit, base, 0, 0), or
    (0, 0, mask words, DP words) when it needs more than ``masks`` and ``rows`` have (nothing done then). It
    makes no array and counts no reference (``jitable_borrowing``): ``lcs_pair_stats`` calls it for every pair."""
    m_start, m_u0, m_u1 = model_text
    p_start, p_u0, p_u1 = peer_text
    m_lo = m_start + model_offsets[m_u0]
    for i in range(m_start + model_offsets[m_u1 - 1] - m_lo):
        mask[i] = 0
    p_lo = p_start + peer_offsets[p_u0]
    p_hi = p_start + peer_offsets[p_u1 - 1]
    n_distinct = _numbered(peer, p_lo, p_hi, slot)
    words = _words(peer_offsets, p_u0, p_u1)
    need_masks = n_distinct * (p_u1 - p_u0 - 1) * words
    need_rows = (_longest(model_offsets, m_u0, m_u1) + 1) * words
    fits = need_masks <= len(masks) and need_rows <= len(rows)
    if fits:
        _union_marks_bits(model, model_offsets, model_text, peer, peer_offsets, peer_text, n_distinct, words, slot,
                          which, masks, mask, present, rows)
    _unnumbered(peer, p_lo, p_hi, slot)
    if not fits:
        return 0.0, 0.0, need_masks, need_rows
    hit, base = _clipped_hits(model, model_offsets, model_text, 1.0, mask, model_count, peer_count)
    return hit, base, 0, 0


@jitable_borrowing
def _clipped_hits(model, model_offsets, model_text, weight, mask, model_count, peer_count):
    """``union_lcs_hits``' (hit, base) from the marks ``mask[i - m_lo]`` of the model text's tokens i, sentence
    by sentence, using the unigram counts up."""
    m_start, m_u0, m_u1 = model_text
    m_lo = m_start + model_offsets[m_u0]
    hit = 0.0
    base = 0.0
    for s in range(m_u0, m_u1 - 1):
        m0 = m_start + model_offsets[s]
        m1 = m_start + model_offsets[s + 1]
        if weight == 1.0:
            base += m1 - m0
        else:
            base += float(m1 - m0) ** weight
        run = 0
        for j in range(m0, m1):
            if mask[j - m_lo] == 1:
                token = model[j]
                if model_count[token] > 0 and peer_count[token] > 0:
                    if weight == 1.0:
                        hit += 1.0
                    else:
                        run += 1
                        if j + 1 < m1 and mask[j + 1 - m_lo] == 0:
                            hit += float(run) ** weight
                            run = 0
                        elif j + 1 == m1:
                            hit += float(run) ** weight
                            run = 0
                    model_count[token] -= 1
                    peer_count[token] -= 1
    return hit, base


@jitable_borrowing
def _union_marks_bits(model, model_offsets, model_text, peer, peer_offsets, peer_text, n_distinct, words, slot, which,
                      masks, mask, present, rows):
    """``union_lcs_hits``' marks of weight 1 (``mask[i - m_lo]`` for model token i), the peer's tokens numbered
    (``_numbered``: ``n_distinct``; ``words``: its longest sentence's), every model sentence against every peer
    sentence (``_lcs_bits_marked``)."""
    m_start, m_u0, m_u1 = model_text
    p_start, p_u0, p_u1 = peer_text
    m_lo = m_start + model_offsets[m_u0]
    _masks_into(model, m_lo, m_start + model_offsets[m_u1 - 1], peer, p_start, peer_offsets, p_u0, p_u1, n_distinct,
                words, slot, which, masks)
    sentences = p_u1 - p_u0 - 1
    for s in range(m_u0, m_u1 - 1):
        m0 = m_start + model_offsets[s]
        m1 = m_start + model_offsets[s + 1]
        end = _in_peer(which, m0, m1, m_lo, present, m1 - m0)  # found once for every peer sentence
        for t in range(sentences):
            _lcs_bits_marked(m1 - m0, end, m_lo, which, p_start + peer_offsets[p_u0 + t],
                             p_start + peer_offsets[p_u0 + t + 1], masks, sentences, t * words, words, mask, present,
                             rows)


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
