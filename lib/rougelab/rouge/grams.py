"""Which grams a token sequence has (Lin 2004, sections 2 and 5), in the two forms the package counts.

The rule is ROUGE-1.5.5's ``createNGram`` / ``createSkipBigram``: the ``len - n + 1`` contiguous
n-grams (eq. 1); skip-bigrams pair token i with tokens i+1 .. i+``skip_reach`` (``-2 d``: at most d
tokens in between, negative: any), plus, for ROUGE-SU (``-U``/``-u``), every token as a unigram,
ROUGE-1.5.5 leaving the last one out (``singles_count``, the last-unigram rule). ``gram_count`` is how
many that makes.

* **Rows** (``ngrams``, ``skip_bigrams``): an ``(g, width)`` array of token ids, one row per gram in
  ROUGE's order (a ROUGE-SU unigram is padded with ``PAD``): the soft core (ROUGE-WE, ROUGE-G), WIDAR's
  sentence-level ROUGE and Anchored ROUGE's particles build on these.
* **Packed codes** (``gram_codes``, compiled): a gram becomes one ``int64``, its token ids packed
  ``63 // n`` bits apart (exact while every id fits in that many bits; otherwise n-grams are numbered
  through ``Vocabulary.grams``). A skip-bigram packs its two ids 32 bits apart; ROUGE-SU's unigrams carry
  ``NO_TOKEN`` in the low half, so they never collide with a pair. A table is the sorted distinct codes
  with their counts, as ROUGE-1.5.5's hashes hold them: the single-peer path (``rougelab.rouge.core``)
  counts these.
* **Hash counts** (``ngram_hits``, ``code_hits``, compiled): one pair's clipped hits counted in a small
  hash table, n-grams keyed by their id windows (exact for any vocabulary), skip-bigrams by their codes:
  the batch kernels (``rougelab.rouge.batch``) count these (n-grams through ``shared_ngram_hits``, which
  leaves out of the table every gram holding a token the other text lacks), keeping no table per text
  (unigrams they count by token id). Skip-bigrams too many for a small table (ROUGE-S* of long texts) are
  counted by ``sorted_hits`` instead, which sorts and merges the two texts' codes and needs no memory beyond
  them.
"""
from __future__ import annotations

import numpy as np

from rougelab._jit import jit, jitable, jitable_borrowing, run_kernel  # noqa: F401 - rouge.core imports run_kernel
from rougelab.text.byte_tokens import home_slot

NO_TOKEN = (1 << 32) - 1
KIND_NGRAM, KIND_SKIP = 0, 1
PAD = -1
"""Token id that pads a unigram to width 2 inside ROUGE-SU gram rows; never a real token."""


def pack_bits(n: int) -> int:
    """Bits per token id when packing an n-gram into 63 bits."""
    return 63 // n


@jitable  # plain Python too: ``limits`` calls it from Python for a number, no compile
def skip_reach(n, size):
    """In a text of ``n`` tokens, token i pairs with tokens i+1 .. i+reach into skip-bigrams: at most
    ``size`` tokens in between (``-2 size``), any number when ``size`` is negative."""
    return n - 1 if size < 0 else min(n - 1, size + 1)


@jitable
def singles_count(n, last_unigram_bug):
    """How many unigrams ROUGE-SU adds for a text of ``n`` tokens (the last one left out under the bug)."""
    return n - 1 if last_unigram_bug and n > 0 else n


@jit
def gram_count(n, kind, size, unigrams, last_unigram_bug):
    """How many codes ``gram_codes`` makes from ``n`` tokens (Perl's ``_cn_``)."""
    if kind == KIND_NGRAM:
        return max(0, n - size + 1)
    reach = skip_reach(n, size)
    total = 0
    for k in range(1, reach + 1):
        total += n - k
    if unigrams:
        total += singles_count(n, last_unigram_bug)
    return total


def ngrams(ids: np.ndarray, n: int) -> np.ndarray:
    """Contiguous ``n``-grams of a token-id sequence as an ``(len - n + 1, n)`` array (Lin 2004, eq. 1)."""
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    ids = np.asarray(ids, dtype=np.int64)
    if len(ids) < n:
        return np.empty((0, n), dtype=np.int64)
    return np.lib.stride_tricks.sliding_window_view(ids, n).copy()


def skip_bigrams(ids: np.ndarray, max_gap: int, *, unigrams: bool = False,
                 perl_last_unigram_bug: bool = True) -> np.ndarray:
    """Skip-bigrams (Lin 2004, section 5): ordered pairs at most ``max_gap`` words apart.

    ``max_gap`` < 0 means unlimited (ROUGE-1.5.5 ``-2 -1``). With ``unigrams`` (ROUGE-SU, ``-U``/``-u``)
    every token also counts as a unigram ``(w, PAD)``; ROUGE-1.5.5 never counts the last token's
    unigram (``perl_last_unigram_bug=True`` keeps that). Rows are in ROUGE-1.5.5's order (unigrams first).
    """
    ids = np.asarray(ids, dtype=np.int64)
    n = len(ids)
    i, j = np.triu_indices(n, k=1)
    keep = j - i <= skip_reach(n, max_gap)
    i, j = i[keep], j[keep]
    rows = np.stack([ids[i], ids[j]], axis=1) if len(i) else np.empty((0, 2), dtype=np.int64)
    if not unigrams:
        return rows
    singles = singles_count(n, perl_last_unigram_bug)
    uni = np.stack([ids[:singles], np.full(singles, PAD, dtype=np.int64)], axis=1)
    return np.concatenate([uni, rows]) if len(uni) else rows


@jit
def gram_codes(tokens, kind, size, unigrams, last_unigram_bug, bits):
    """Codes of ``tokens``' n-grams (``kind`` 0, n = ``size``: len - n + 1 of them) or skip-bigrams
    (``kind`` 1, at most ``size`` words apart, negative: any; plus unigrams for ROUGE-SU; ROUGE-1.5.5
    skips the last token's unigram when ``last_unigram_bug``)."""
    n = len(tokens)
    out = np.empty(gram_count(n, kind, size, unigrams, last_unigram_bug), dtype=np.int64)
    if kind == KIND_NGRAM:
        for i in range(len(out)):
            code = 0
            for k in range(size):
                code = (code << bits) | tokens[i + k]
            out[i] = code
        return out
    reach = skip_reach(n, size)
    singles = singles_count(n, last_unigram_bug) if unigrams else 0
    j = 0
    for i in range(n - 1):
        for k in range(i + 1, min(n, i + reach + 1)):
            out[j] = (tokens[i] << 32) | tokens[k]
            j += 1
    for i in range(singles):
        out[j] = (tokens[i] << 32) | NO_TOKEN
        j += 1
    return out


@jit
def count_codes(codes):
    """Sorted distinct values of ``codes`` and how often each occurs."""
    ordered = np.sort(codes)
    distinct = np.empty(len(ordered), dtype=np.int64)
    counts = np.empty(len(ordered), dtype=np.int64)
    k = -1
    for i in range(len(ordered)):
        if k < 0 or ordered[i] != distinct[k]:
            k += 1
            distinct[k] = ordered[i]
            counts[k] = 1
        else:
            counts[k] += 1
    return distinct[:k + 1].copy(), counts[:k + 1].copy()


@jit
def gram_tables(tokens, kinds, sizes, unigrams, last_unigram_bug, bits):
    """Tables of several measures end to end: (codes, counts, bounds, totals); measure k's table is
    ``codes[bounds[k]:bounds[k+1]]`` and ``totals[k]`` its number of grams (Perl's ``_cn_``)."""
    m = len(kinds)
    parts_codes = []
    parts_counts = []
    bounds = np.zeros(m + 1, dtype=np.int64)
    totals = np.zeros(m, dtype=np.int64)
    for k in range(m):
        codes = gram_codes(tokens, kinds[k], sizes[k], unigrams[k], last_unigram_bug, bits[k])
        totals[k] = len(codes)
        distinct, counts = count_codes(codes)
        parts_codes.append(distinct)
        parts_counts.append(counts)
        bounds[k + 1] = bounds[k] + len(distinct)
    all_codes = np.empty(bounds[m], dtype=np.int64)
    all_counts = np.empty(bounds[m], dtype=np.int64)
    for k in range(m):
        all_codes[bounds[k]:bounds[k + 1]] = parts_codes[k]
        all_counts[bounds[k]:bounds[k + 1]] = parts_counts[k]
    return all_codes, all_counts, bounds, totals


@jit
def clipped_hits(model_codes, model_counts, peer_codes, peer_counts):
    """Sum over shared grams of min(model count, peer count) (Lin 2004, eq. 1's Count_match).

    Both code arrays are sorted and distinct.
    """
    i = 0
    j = 0
    hit = 0
    while i < len(model_codes) and j < len(peer_codes):
        if model_codes[i] < peer_codes[j]:
            i += 1
        elif model_codes[i] > peer_codes[j]:
            j += 1
        else:
            hit += min(model_counts[i], peer_counts[j])
            i += 1
            j += 1
    return hit


@jit
def multi_clipped_hits(model_codes, model_counts, model_bounds, peer_codes, peer_counts, peer_bounds):
    """``clipped_hits`` for several gram tables stored end to end (segment k spans ``bounds[k]:bounds[k+1]``)."""
    k = len(model_bounds) - 1
    hits = np.zeros(k, dtype=np.int64)
    for s in range(k):
        a0 = model_bounds[s]
        a1 = model_bounds[s + 1]
        b0 = peer_bounds[s]
        b1 = peer_bounds[s + 1]
        hits[s] = clipped_hits(model_codes[a0:a1], model_counts[a0:a1], peer_codes[b0:b1], peer_counts[b0:b1])
    return hits


_KEY_MASK = (1 << 62) - 1  # an n-gram's hash key: its ids folded into 62 bits


@jitable_borrowing
def _window_slot(ids, p, n, table, mask):
    """The slot of ``table`` holding the n-gram ``ids[p:p + n]``, or the empty slot where it belongs. Slot k
    is ``table[2k]`` (1 + the position of the n-gram's first occurrence in ``ids``; 0: empty) and
    ``table[2k + 1]`` (its count); n-grams are compared token by token, so any ids and any n are exact."""
    key = 0
    for k in range(n):
        key = ((key << 7) ^ (key >> 53) ^ ids[p + k]) & _KEY_MASK
    slot = home_slot(key, mask)
    while True:
        q = table[2 * slot] - 1
        if q < 0:
            return slot
        same = True
        for k in range(n):
            if ids[q + k] != ids[p + k]:
                same = False
                break
        if same:
            return slot
        slot = (slot + 1) & mask


@jitable
def _slots_for(grams):
    """Slots of the hash table of ``grams`` grams: a power of two, at least twice ``grams`` (and 8)."""
    slots = 8
    while slots < 2 * grams:
        slots *= 2
    return slots


@jit
def room_for(table, grams):
    """``table``, or a larger one, with room for the hash table of ``grams`` grams (``ngram_hits``,
    ``code_hits``): two int64 per slot (``_slots_for``), so between 4 and 8 per gram."""
    size = 2 * _slots_for(grams)
    return table if len(table) >= size else np.zeros(size, dtype=np.int64)


@jitable_borrowing
def _emptied(table, grams):
    """The mask of a hash table of ``_slots_for(grams)`` slots at the start of ``table`` (``room_for``), those
    slots zeroed in place (no view: a helper making none counts no reference)."""
    slots = _slots_for(grams)
    for k in range(2 * slots):
        table[k] = 0
    return slots - 1


@jit
def ngram_hits(ids, m0, m1, p0, p1, n, table):
    """Clipped hits (Lin 2004, eq. 1's Count_match) of the n-grams of ``ids[p0:p1]`` (the peer) against
    those of ``ids[m0:m1]`` (the model), counted in a hash table (``_window_slot``) in the scratch array
    ``table`` (``room_for`` the model's grams)."""
    no_counts = np.zeros(0, dtype=np.int64)
    return shared_ngram_hits(ids, m0, m1, p0, p1, n, table, no_counts, no_counts)


@jitable_borrowing
def _all_counted(counts, ids, p, n):
    """Whether every token of the gram ``ids[p:p + n]`` has a count above 0 in ``counts`` (by token id)."""
    for k in range(p, p + n):
        if counts[ids[k]] == 0:
            return False
    return True


@jitable_borrowing
def shared_ngram_hits(ids, m0, m1, p0, p1, n, table, model_count, peer_count):
    """``ngram_hits``, given (when not empty) the two texts' unigram counts by token id: a gram holding a
    token the other text lacks cannot hit, and stays out of the table (ROUGE-1 and -2 of 20,000 news pairs:
    20 ms of CPU, not 28). It makes no array and counts no reference (``jitable_borrowing``): the batch kernels
    call it for every pair and measure."""
    check = len(model_count) > 0
    mask = _emptied(table, max(m1 - m0 - n + 1, 0))
    for p in range(m0, m1 - n + 1):
        if check and not _all_counted(peer_count, ids, p, n):
            continue
        slot = _window_slot(ids, p, n, table, mask)
        if table[2 * slot] == 0:
            table[2 * slot] = p + 1
        table[2 * slot + 1] += 1
    hit = 0
    for p in range(p0, p1 - n + 1):
        if check and not _all_counted(model_count, ids, p, n):
            continue
        slot = _window_slot(ids, p, n, table, mask)
        if table[2 * slot + 1] > 0:
            hit += 1
            table[2 * slot + 1] -= 1
    return hit


@jitable
def code_hits(model_codes, peer_codes, table):
    """Clipped hits of ``peer_codes`` against ``model_codes`` (``gram_codes`` of one kind), counted in a hash
    table in the scratch array ``table`` (``room_for`` the model codes)."""
    mask = _emptied(table, len(model_codes))
    for code in model_codes:
        slot = home_slot(code, mask)
        while table[2 * slot] != 0 and table[2 * slot] != code + 1:
            slot = (slot + 1) & mask
        table[2 * slot] = code + 1
        table[2 * slot + 1] += 1
    hit = 0
    for code in peer_codes:
        slot = home_slot(code, mask)
        while table[2 * slot] != 0 and table[2 * slot] != code + 1:
            slot = (slot + 1) & mask
        if table[2 * slot + 1] > 0:
            hit += 1
            table[2 * slot + 1] -= 1
    return hit


@jit
def sorted_hits(model_codes, peer_codes):
    """``code_hits`` without a table: both arrays sorted in place and merged, each code shared by both
    counting min(times in the model, times in the peer). No memory beyond the two arrays, whose size
    ROUGE-S* makes quadratic (two 3,000-word texts: 4.5 million codes each)."""
    model_codes.sort()
    peer_codes.sort()
    i = 0
    j = 0
    hit = 0
    while i < len(model_codes) and j < len(peer_codes):
        if model_codes[i] < peer_codes[j]:
            i += 1
        elif model_codes[i] > peer_codes[j]:
            j += 1
        else:
            hit += 1
            i += 1
            j += 1
    return hit
