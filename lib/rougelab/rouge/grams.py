"""Integer codes for n-grams and skip-bigrams (Lin 2004, sections 2 and 5), and their count tables.

A gram becomes one ``int64``: its token ids packed ``63 // n`` bits apart (exact while every id fits
in that many bits; otherwise n-grams are numbered through ``Vocabulary.grams``). A skip-bigram packs
its two ids 32 bits apart; ROUGE-SU's unigrams carry ``NO_TOKEN`` in the low half, so they never
collide with a pair. A table is the sorted distinct codes with their counts, as ROUGE-1.5.5's
``createNGram`` / ``createSkipBigram`` hashes hold them.
"""
from __future__ import annotations

import numpy as np

from rougelab.rouge._jit import jit

NO_TOKEN = (1 << 32) - 1
KIND_NGRAM, KIND_SKIP = 0, 1


def pack_bits(n: int) -> int:
    """Bits per token id when packing an n-gram into 63 bits."""
    return 63 // n


@jit
def gram_codes(tokens, kind, size, unigrams, last_unigram_bug, bits):
    """Codes of ``tokens``' n-grams (``kind`` 0, n = ``size``: len - n + 1 of them) or skip-bigrams
    (``kind`` 1, at most ``size`` words apart, negative: any; plus unigrams for ROUGE-SU; ROUGE-1.5.5
    skips the last token's unigram when ``last_unigram_bug``)."""
    n = len(tokens)
    if kind == KIND_NGRAM:
        count = max(0, n - size + 1)
        out = np.empty(count, dtype=np.int64)
        for i in range(count):
            code = 0
            for k in range(size):
                code = (code << bits) | tokens[i + k]
            out[i] = code
        return out
    reach = n - 1 if size < 0 else min(n - 1, size + 1)
    total = 0
    for k in range(1, reach + 1):
        total += n - k
    singles = 0
    if unigrams and n > 0:
        singles = n - 1 if last_unigram_bug else n
    out = np.empty(total + singles, dtype=np.int64)
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
def batch_skip_codes(ids, starts, ends, size, unigrams, last_unigram_bug):
    """``gram_codes`` skip-bigrams (and ROUGE-SU unigrams) of every text ``ids[starts[t]:ends[t]]``,
    concatenated, with the text index of each code."""
    total = 0
    for t in range(len(starts)):
        n = ends[t] - starts[t]
        reach = n - 1 if size < 0 else min(n - 1, size + 1)
        for k in range(1, reach + 1):
            total += n - k
        if unigrams and n > 0:
            total += n - 1 if last_unigram_bug else n
    codes = np.empty(total, dtype=np.int64)
    texts = np.empty(total, dtype=np.int64)
    j = 0
    for t in range(len(starts)):
        part = gram_codes(ids[starts[t]:ends[t]], KIND_SKIP, size, unigrams, last_unigram_bug, 32)
        codes[j:j + len(part)] = part
        texts[j:j + len(part)] = t
        j += len(part)
    return codes, texts


@jit
def segment_tables(codes, lo, hi):
    """Count tables of many texts at once: text t's grams are ``codes[lo[t]:hi[t]]``.

    Returns (distinct, counts, bounds): text t's sorted distinct codes are ``distinct[bounds[t]:bounds[t+1]]``
    with their counts (``count_codes`` of each segment, end to end).
    """
    n_texts = len(lo)
    sizes = np.zeros(n_texts + 1, dtype=np.int64)
    for t in range(n_texts):
        sizes[t + 1] = max(hi[t] - lo[t], 0)
    room = np.cumsum(sizes)
    distinct = np.empty(room[n_texts], dtype=np.int64)
    counts = np.empty(room[n_texts], dtype=np.int64)
    used = np.zeros(n_texts, dtype=np.int64)
    for t in range(n_texts):
        if hi[t] > lo[t]:
            ordered = distinct[room[t]:room[t + 1]]
            ordered[:] = codes[lo[t]:hi[t]]
            ordered.sort()
            k = 0
            counts[room[t]] = 1
            for i in range(1, len(ordered)):
                if ordered[i] != ordered[k]:
                    k += 1
                    ordered[k] = ordered[i]
                    counts[room[t] + k] = 1
                else:
                    counts[room[t] + k] += 1
            used[t] = k + 1
    bounds = np.zeros(n_texts + 1, dtype=np.int64)
    for t in range(n_texts):
        bounds[t + 1] = bounds[t] + used[t]
    out_codes = np.empty(bounds[n_texts], dtype=np.int64)
    out_counts = np.empty(bounds[n_texts], dtype=np.int64)
    for t in range(n_texts):
        out_codes[bounds[t]:bounds[t + 1]] = distinct[room[t]:room[t] + used[t]]
        out_counts[bounds[t]:bounds[t + 1]] = counts[room[t]:room[t] + used[t]]
    return out_codes, out_counts, bounds
