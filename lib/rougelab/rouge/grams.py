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
  with their counts, as ROUGE-1.5.5's hashes hold them. Classic ROUGE's kernels count these.
"""
from __future__ import annotations

import numpy as np

from rougelab._jit import jit, map_threads, parts_of

NO_TOKEN = (1 << 32) - 1
KIND_NGRAM, KIND_SKIP = 0, 1
PAD = -1
"""Token id that pads a unigram to width 2 inside ROUGE-SU gram rows; never a real token."""


def pack_bits(n: int) -> int:
    """Bits per token id when packing an n-gram into 63 bits."""
    return 63 // n


@jit
def skip_reach(n, size):
    """In a text of ``n`` tokens, token i pairs with tokens i+1 .. i+reach into skip-bigrams: at most
    ``size`` tokens in between (``-2 size``), any number when ``size`` is negative."""
    return n - 1 if size < 0 else min(n - 1, size + 1)


@jit
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


@jit
def count_of(codes, counts, key):
    """The count of ``key`` in a table (sorted distinct ``codes`` with ``counts``), 0 when absent."""
    lo = 0
    hi = len(codes)
    while lo < hi:
        mid = (lo + hi) // 2
        if codes[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return counts[lo] if lo < len(codes) and codes[lo] == key else 0


@jit
def singles_hits(model_codes, model_counts, peer_codes, peer_counts, model_last, peer_last):
    """ROUGE-SU's unigram hits from two unigram tables: ``clipped_hits``, with one occurrence of each
    text's last token left out when it is given (``*_last`` >= 0: ROUGE-1.5.5's last-unigram bug; -1: none)."""
    hit = clipped_hits(model_codes, model_counts, peer_codes, peer_counts)
    for k in range(2):
        token = model_last if k == 0 else peer_last
        if token < 0 or (k == 1 and token == model_last):
            continue
        in_model = count_of(model_codes, model_counts, token)
        in_peer = count_of(peer_codes, peer_counts, token)
        kept_model = in_model - (1 if token == model_last else 0)
        kept_peer = in_peer - (1 if token == peer_last else 0)
        hit -= min(in_model, in_peer) - min(kept_model, kept_peer)
    return hit


def ngram_numbers(ids: np.ndarray, n: int) -> np.ndarray:
    """An exact number for the n-gram starting at each position of ``ids`` (``len(ids) - n + 1`` of them).

    Equal numbers mean equal token n-grams. Built by repeatedly numbering (previous gram, next token)
    pairs with ``np.unique``, so it never overflows whatever the vocabulary size.
    """
    ids = np.asarray(ids, dtype=np.int64)
    if len(ids) and (ids.min() < 0 or ids.max() >= 1 << 31):  # make room for the pairing below
        ids = np.unique(ids, return_inverse=True)[1].astype(np.int64).reshape(-1)
    codes = ids
    for k in range(1, n):
        pairs = (codes[:len(ids) - k] << 32) | ids[k:]
        codes = np.unique(pairs, return_inverse=True)[1].astype(np.int64).reshape(-1)
    return codes


@jit
def _compact(distinct, counts, room, used):
    """Tables written at ``room[t]:used[t]``, text after text, moved end to end: (distinct, counts, bounds)."""
    n_texts = len(used)
    bounds = np.zeros(n_texts + 1, dtype=np.int64)
    for t in range(n_texts):
        bounds[t + 1] = bounds[t] + used[t] - room[t]
    out_codes = np.empty(bounds[n_texts], dtype=np.int64)
    out_counts = np.empty(bounds[n_texts], dtype=np.int64)
    for t in range(n_texts):
        out_codes[bounds[t]:bounds[t + 1]] = distinct[room[t]:used[t]]
        out_counts[bounds[t]:bounds[t + 1]] = counts[room[t]:used[t]]
    return out_codes, out_counts, bounds


@jit
def _ranked_table(codes, rank, n_distinct, n_digits, shift, mask, distinct, counts, k):
    """Write one text's distinct ``codes``, sorted, with their counts at ``distinct[k:]`` / ``counts[k:]``;
    return the end. Digit p of a code is the ``rank`` of its p-th packed id (``shift`` bits apart, least
    significant first; ``NO_TOKEN`` ranks ``n_distinct``, last): one stable counting sort per digit."""
    n = len(codes)
    digits = np.empty((n_digits, n), dtype=np.int64)
    slots = np.zeros((n_digits, n_distinct + 2), dtype=np.int64)
    for g in range(n):  # every digit and its histogram in one pass
        code = codes[g]
        for p in range(n_digits):
            part = (code >> (p * shift)) & mask
            digit = n_distinct if part == NO_TOKEN else rank[part]
            digits[p, g] = digit
            slots[p, digit + 1] += 1
    for p in range(n_digits):
        for v in range(n_distinct + 1):
            slots[p, v + 1] += slots[p, v]
    order = np.empty((2, n), dtype=np.int64)
    for p in range(n_digits):
        src = p % 2
        for g in range(n):
            x = g if p == 0 else order[src, g]
            digit = digits[p, x]
            order[1 - src, slots[p, digit]] = x
            slots[p, digit] += 1
    start = k
    for g in range(n):
        code = codes[order[n_digits % 2, g]]
        if k > start and distinct[k - 1] == code:
            counts[k - 1] += 1
        else:
            distinct[k] = code
            counts[k] = 1
            k += 1
    return k


@jit
def gram_totals(lengths, kind, size, unigrams, last_unigram_bug):
    """``gram_count`` for texts of each of the ``lengths``."""
    totals = np.empty(len(lengths), dtype=np.int64)
    for t in range(len(lengths)):
        totals[t] = gram_count(lengths[t], kind, size, unigrams, last_unigram_bug)
    return totals


@jit
def ranked_tables(ids, starts, ends, kind, size, unigrams, last_unigram_bug, bits, unigram_codes, unigram_first,
                  unigram_last, distinct, counts, room):
    """Count tables of one packed measure (``gram_codes``' ``kind``, ``size``, ...) for every text
    ``ids[starts[t]:ends[t]]``, each sorted on its own by small counting sorts.

    A token's rank among its text's sorted distinct ids (``unigram_codes[unigram_first[t]:unigram_last[t]]``,
    its ROUGE-1 table) orders like the id, so sorting a text's grams by their rank digits (least
    significant first; ``NO_TOKEN`` ranks last) sorts them by code, with as many buckets as the text
    has distinct tokens. Text t's table is written into ``distinct`` and ``counts`` from ``room[t]`` on
    (room for its ``gram_totals`` grams is enough), so parts of the texts can be counted at once.

    Returns ``last``: text t's sorted distinct codes are ``distinct[room[t]:last[t]]``, with their counts.
    """
    n_texts = len(starts)
    last = np.empty(n_texts, dtype=np.int64)
    n_digits = size if kind == KIND_NGRAM else 2
    shift = bits if kind == KIND_NGRAM else 32
    mask = (1 << min(shift, 62)) - 1
    vocabulary = ids.max() + 1 if len(ids) else 0
    rank = np.empty(vocabulary, dtype=np.int64)  # read only at the current text's ids, once written
    for t in range(n_texts):
        n_distinct = unigram_last[t] - unigram_first[t]
        for r in range(n_distinct):
            rank[unigram_codes[unigram_first[t] + r]] = r
        codes = gram_codes(ids[starts[t]:ends[t]], kind, size, unigrams, last_unigram_bug, bits)
        last[t] = _ranked_table(codes, rank, n_distinct, n_digits, shift, mask, distinct, counts, room[t])
    return last


def segment_tables(codes: np.ndarray, lo: np.ndarray, hi: np.ndarray, radix: int):
    """Count tables of many texts at once: text t's grams are ``codes[lo[t]:hi[t]]``, each in ``[0, radix)``
    (token ids, or numbered n-grams).

    One stable counting sort of all grams by code records which text each came from; dealing the
    texts out in that order gives each text its grams sorted, equal ones adjacent. A large batch is cut
    into parts (whole texts, about equal in grams), one per thread.

    Returns (distinct, counts, bounds): text t's sorted distinct codes are ``distinct[bounds[t]:bounds[t+1]]``
    with their counts (``count_codes`` of each segment, end to end).
    """
    parts = parts_of(np.maximum(hi - lo, 0))
    if len(parts) <= 1:
        return _segment_tables(codes, lo, hi, radix)
    tables = map_threads(lambda part: _segment_tables(codes, lo[part[0]:part[1]], hi[part[0]:part[1]], radix), parts)
    offsets = np.cumsum([0] + [len(distinct) for distinct, _, _ in tables])
    bounds = np.concatenate([[0]] + [b[1:] + o for (_, _, b), o in zip(tables, offsets)]).astype(np.int64)
    return np.concatenate([t[0] for t in tables]), np.concatenate([t[1] for t in tables]), bounds


@jit
def _segment_tables(codes, lo, hi, radix):
    """``segment_tables`` of the texts ``lo``/``hi`` in one counting sort."""
    n_texts = len(lo)
    room = np.zeros(n_texts + 1, dtype=np.int64)
    for t in range(n_texts):
        room[t + 1] = room[t] + max(hi[t] - lo[t], 0)
    slots = np.zeros(radix + 1, dtype=np.int64)
    for t in range(n_texts):
        for i in range(lo[t], hi[t]):
            slots[codes[i] + 1] += 1
    for v in range(radix):
        slots[v + 1] += slots[v]
    owner = np.empty(room[n_texts], dtype=np.int64)  # owner[slots[v]:slots[v + 1]]: the texts of code v
    fill = slots[:radix].copy()
    for t in range(n_texts):
        for i in range(lo[t], hi[t]):
            owner[fill[codes[i]]] = t
            fill[codes[i]] += 1
    used = room[:n_texts].copy()
    distinct = np.empty(room[n_texts], dtype=np.int64)
    counts = np.empty(room[n_texts], dtype=np.int64)
    for v in range(radix):
        for p in range(slots[v], slots[v + 1]):
            t = owner[p]
            if used[t] > room[t] and distinct[used[t] - 1] == v:
                counts[used[t] - 1] += 1
            else:
                distinct[used[t]] = v
                counts[used[t]] = 1
                used[t] += 1
    return _compact(distinct, counts, room, used)
