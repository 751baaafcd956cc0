"""Classic ROUGE over a whole batch: every distinct text read once, every pair scored by compiled kernels.

``EncodedBatch`` tokenises the distinct texts of a batch into shared integer ids (one scan of their bytes),
``pair_stats`` counts and scores every (summary, reference) pair on the threads, and ``pooled_rpf``
gives R, P and F of each summary. Each family of measures has its own kernel, keeping no table per text:
``batch_pair_stats`` (n-grams: unigrams counted by token id, longer n-grams in a small hash table),
``skip_pair_stats`` (skip-bigrams) and, through ``lcs_stats``, ``lcs_pair_stats`` (ROUGE-L/W: the union LCS)
or ``sentence_lcs_pair_stats`` (ROUGE-L of pairs of one sentence each: the LCS). A call compiles only the
kernels of the measures it asks for, once each: numba compiles a kernel again for every new type of
argument, a constant argument included (a literal 0 is a type of its own). Until compiling a kernel pays, a
small batch runs its Python source (``run_kernel``, with the estimates of each kernel's Python seconds below).
These are the counts and digits of ROUGE-1.5.5's single-peer path (``rougelab.rouge.core``), which they
match for texts scored without length limits (``-l``/``-b``): tests/test_rouge_fast_path.py. In the common setting
(``rougelab.rouge.small_batch``) a small batch or a piece of a batch on its own thread calls the scan and these
kernels inside one compiled function instead (``small_batch_rpf``).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import numpy as np

from rougelab import _jit
from rougelab._jit import (get_num_threads, jit, jitable_borrowing, map_threads, parts_of,  # noqa: F401 (api's)
                           run_kernel, start_threads)
from rougelab.rouge.core import Measure
from rougelab.rouge.grams import KIND_SKIP, code_hits, gram_codes, room_for, shared_ngram_hits, sorted_hits
from rougelab.rouge.lcs import (lcs_room, lcs_scratch, sentence_lcs_length, union_lcs_hits,
                                 union_lcs_l_in_room)
from rougelab.rouge.options import RougeOptions
from rougelab.scoring import prf
from rougelab.scoring import round_decimals as round5  # ROUGE-1.5.5's sprintf("%7.5f") read back
from rougelab.text.sentences import Splitter

# Skip-bigram codes of a model from which its pair's hits are counted by sorting (``sorted_hits``), not in
# a hash table (``code_hits``): the table then outgrows the codes (ROUGE-S* of a 3,000-word pair: 4.5
# million codes each) and the sort is no slower (about 1 million codes break even on one core).
SORT_FROM = 1 << 19

# Mask words ``lcs_pair_stats`` makes room for at most (2 MB): a pair whose peer needs more (many long sentences)
# has ``union_lcs_hits`` make its own, as it did for every pair.
LCS_MASKS_ROOM = 1 << 18

# ``round5`` compiled, for the kernels (``rougelab.scoring.round_decimals`` is plain arithmetic).
round5_exact = jit(round5)


class EncodedBatch:
    """Distinct texts of a batch, each split, lower-cased and tokenised once into shared integer ids
    (``Preprocessing.encode``: one pass over the bytes of all texts).

    Only for texts scored without length limits (``-l``/``-b``), where ROUGE-1.5.5's n-gram text is
    exactly its ROUGE-L sentences joined. ``ids[start[t]:end[t]]`` are text t's tokens; its ``sentences[t]``
    sentence bounds (relative) are ``unit_offsets[unit_start[t]:unit_start[t + 1]]``.
    """

    def __init__(self, texts: Sequence[str], splitter: Splitter, options: RougeOptions):
        self.ids, lengths, self.sentences, _ = options.preprocessing(splitter).encode(texts)
        self.start, self.end, self.unit_start, self.unit_offsets = run_kernel(text_bounds, _bounds_seconds, lengths,
                                                                              self.sentences)
        self.vocabulary = int(self.ids.max()) + 1 if len(self.ids) else 0  # one more than the largest id
        self.options = options


# Seconds a step of each kernel's pure-Python source takes, a little above the most measured on 1 to 100 pairs
# of texts of 1 to 3 sentences of 10 to 40 words (benchmarks/python_steps.py; benchmarks/RESULTS.md):
# ``run_kernel`` estimates a batch's Python run from them.
BOUNDS_STEP = 1e-6           # ``text_bounds``: per sentence unit and text
NGRAM_STEP = 1.5e-6          # ``batch_pair_stats``: per token of a pair and n-gram measure
SKIP_STEP = 1.2e-6           # ``skip_pair_stats``: per token of a pair and skip-bigram it may start
LCS_PAIR_BITS_STEP = 3.2e-6  # ``lcs_pair_stats`` of weight 1: per token of one side and sentence of the other
LCS_PAIR_CELL_STEP = 1e-6    # ``lcs_pair_stats`` of ROUGE-W: per cell of the two texts' DP
SENTENCE_LCS_STEP = 1.5e-6   # ``sentence_lcs_pair_stats``: per token of a pair
RPF_STEP = 5e-6              # ``pooled_rpf`` and ``best_f_rpf``: per pair and measure


def _bounds_seconds(lengths, per_text):
    return BOUNDS_STEP * (len(lengths) + len(per_text))


def _pair_tokens(peers, models, start, end):
    """Tokens of each (peer, model) pair: both texts."""
    lengths = end - start
    return lengths[peers] + lengths[models]


def _ngram_seconds(peers, models, sizes, vocabulary, ids, start, end):
    return NGRAM_STEP * len(sizes) * float(_pair_tokens(peers, models, start, end).sum())


def _skip_seconds(peers, models, sizes, unigrams, last_unigram_bug, ids, start, end):
    tokens = _pair_tokens(peers, models, start, end)
    return SKIP_STEP * sum(float((tokens * (tokens if s < 0 else np.minimum(tokens, s + 1))).sum()) for s in sizes)


def _lcs_seconds(peers, models, lcs_weights, lcs_is_w, vocabulary, ids, start, end, unit_offsets, unit_start):
    lengths = end - start
    sentences = np.diff(unit_start) - 1
    bits = LCS_PAIR_BITS_STEP * float((lengths[models] * sentences[peers] + lengths[peers] * sentences[models]).sum())
    cells = LCS_PAIR_CELL_STEP * float((lengths[models] * lengths[peers]).sum())
    return sum(bits if w == 1.0 else cells for w in lcs_weights)


def _sentence_lcs_seconds(peers, models, vocabulary, ids, start, end, unit_offsets, unit_start):
    return SENTENCE_LCS_STEP * float(_pair_tokens(peers, models, start, end).sum())


def rpf_seconds(stats, bounds, *options):
    return RPF_STEP * stats.shape[0] * stats.shape[1]


@jit
def text_bounds(lengths, per_text):
    """Where each text's tokens and sentences lie, from the tokens of each sentence unit (``lengths``)
    and the units of each text (``per_text``): (start, end, unit_start, unit_offsets) as ``EncodedBatch``
    keeps them; text t's offsets are 0 and then the end of each of its sentences, relative to ``start[t]``."""
    n_texts = len(per_text)
    start = np.empty(n_texts, dtype=np.int64)
    end = np.empty(n_texts, dtype=np.int64)
    unit_start = np.zeros(n_texts + 1, dtype=np.int64)
    unit_offsets = np.zeros(len(lengths) + n_texts, dtype=np.int64)
    token = 0
    unit = 0
    slot = 0
    for t in range(n_texts):
        start[t] = token
        slot += 1  # unit_offsets[slot] = 0: the text's first sentence starts at its start
        for _ in range(per_text[t]):
            token += lengths[unit]
            unit += 1
            unit_offsets[slot] = token - start[t]
            slot += 1
        end[t] = token
        unit_start[t + 1] = slot
    return start, end, unit_start, unit_offsets


@jitable_borrowing
def _counted(counts, ids, lo, hi):
    """Add one to ``counts[id]`` for each token of ``ids[lo:hi]`` (a text's unigram table, by id)."""
    for i in range(lo, hi):
        counts[ids[i]] += 1


@jitable_borrowing
def _cleared(counts, ids, lo, hi):
    """Undo ``_counted``: ``counts[id]`` back to 0 for each token of ``ids[lo:hi]``."""
    for i in range(lo, hi):
        counts[ids[i]] = 0


@jitable_borrowing
def _unigram_hits(counts, ids, p0, p1):
    """Clipped unigram hits (Lin 2004, eq. 1 with n = 1) of the peer ``ids[p0:p1]`` against the model whose
    unigrams ``counts`` holds by token id (``_counted``), using them up: no hash table."""
    hit = 0
    for i in range(p0, p1):
        if counts[ids[i]] > 0:
            hit += 1
            counts[ids[i]] -= 1
    return hit


@jit
def batch_pair_stats(peers, models, sizes, vocabulary, ids, start, end):
    """Per (peer, model) pair and n-gram measure (n = ``sizes[k]``), ``measure_stats``' (model, hit, peer,
    select) as an array (pairs x measures x 4), the hits counted by token id for n = 1 (``_unigram_hits``;
    ``vocabulary``: one more than the largest id), by ``shared_ngram_hits`` otherwise, given both texts'
    unigram counts: ``pair_stats``' kernel for the n-gram family (the module docstring lists the others)."""
    out = np.zeros((len(peers), len(sizes), 4))
    table = np.zeros(64, dtype=np.int64)  # the grams' hash table
    longer = (sizes > 1).any()
    counts = np.zeros(vocabulary, dtype=np.int64)  # the model's unigrams, by token id
    peer_counts = np.zeros(vocabulary if longer else 0, dtype=np.int64)  # the peer's
    for q in range(len(peers)):
        s = peers[q]
        m = models[q]
        _counted(counts, ids, start[m], end[m])
        if longer:
            _counted(peer_counts, ids, start[s], end[s])
        for k in range(len(sizes)):  # n >= 2 first: the unigram hits use the counts up
            if sizes[k] > 1:
                table = room_for(table, end[m] - start[m])
                out[q, k, 1] = shared_ngram_hits(ids, start[m], end[m], start[s], end[s], sizes[k], table, counts,
                                                 peer_counts)
        for k in range(len(sizes)):
            if sizes[k] == 1:
                out[q, k, 1] = _unigram_hits(counts, ids, start[s], end[s])
            total = max(end[m] - start[m] - sizes[k] + 1, 0)
            out[q, k, 0] = total
            out[q, k, 2] = max(end[s] - start[s] - sizes[k] + 1, 0)
            out[q, k, 3] = round5_exact(out[q, k, 1] / total) if total else 0.0
        _cleared(counts, ids, start[m], end[m])
        if longer:
            _cleared(peer_counts, ids, start[s], end[s])
    return out


@jit
def skip_pair_stats(peers, models, sizes, unigrams, last_unigram_bug, ids, start, end):
    """As ``batch_pair_stats``, for skip-bigram measures (``sizes``, ``unigrams`` as ``gram_codes`` takes them):
    hits counted by ``code_hits``, or by ``sorted_hits`` from ``SORT_FROM`` model codes on."""
    out = np.zeros((len(peers), len(sizes), 4))
    table = np.zeros(64, dtype=np.int64)
    for q in range(len(peers)):
        s = peers[q]
        m = models[q]
        for k in range(len(sizes)):
            model_codes = gram_codes(ids[start[m]:end[m]], KIND_SKIP, sizes[k], unigrams[k], last_unigram_bug, 32)
            peer_codes = gram_codes(ids[start[s]:end[s]], KIND_SKIP, sizes[k], unigrams[k], last_unigram_bug, 32)
            if len(model_codes) < SORT_FROM:
                table = room_for(table, len(model_codes))
                hit = code_hits(model_codes, peer_codes, table)
            else:
                hit = sorted_hits(model_codes, peer_codes)
            total = len(model_codes)
            out[q, k, 0] = total
            out[q, k, 1] = hit
            out[q, k, 2] = len(peer_codes)
            out[q, k, 3] = round5_exact(hit / total) if total else 0.0
    return out


@jit
def lcs_pair_stats(peers, models, lcs_weights, lcs_is_w, vocabulary, ids, start, end, unit_offsets, unit_start):
    """As ``batch_pair_stats``, for ROUGE-L/W (``lcs_weights``; ``lcs_is_w``: ROUGE-W): the union LCS clipped by
    the two texts' unigram counts (``union_lcs_hits``; ``vocabulary``: one more than the largest id). Its
    scratch arrays are made once, with room for every pair (``lcs_room``; the masks up to ``LCS_MASKS_ROOM``),
    and the texts handed over as offsets into ``ids`` to ``union_lcs_l_in_room``: the loop over pairs makes
    no array and counts no reference (about 45 locked adds a pair before, 30% of this kernel's time)."""
    out = np.zeros((len(peers), len(lcs_weights), 4))
    slot = np.full(vocabulary, -1, dtype=np.int64)  # union_lcs_hits' scratch arrays
    longest = 0
    masks_room = 0
    rows_room = 0
    for q in range(len(peers)):
        s = peers[q]
        m = models[q]
        longest = max(longest, end[m] - start[m])
        masks, rows = lcs_room(unit_offsets, (start[s], unit_start[s], unit_start[s + 1]), unit_offsets,
                               (start[m], unit_start[m], unit_start[m + 1]), vocabulary)
        masks_room = max(masks_room, min(masks, LCS_MASKS_ROOM))
        rows_room = max(rows_room, rows)
    which, masks, mask, present, rows = lcs_scratch(longest, masks_room, rows_room)
    model_count = np.zeros(vocabulary, dtype=np.int64)  # the pair's unigram counts, by token id
    peer_count = np.zeros(vocabulary, dtype=np.int64)
    for q in range(len(peers)):
        s = peers[q]
        m = models[q]
        peer_length = float(end[s] - start[s])
        for k in range(len(lcs_weights)):
            w = lcs_weights[k]
            _counted(model_count, ids, start[m], end[m])
            _counted(peer_count, ids, start[s], end[s])
            model_text = (start[m], unit_start[m], unit_start[m + 1])
            peer_text = (start[s], unit_start[s], unit_start[s + 1])
            need_masks = need_rows = 1
            if w == 1.0:
                hit, base, need_masks, need_rows = union_lcs_l_in_room(ids, unit_offsets, model_text, ids,
                                                                       unit_offsets, peer_text, model_count,
                                                                       peer_count, slot, which, masks, mask, present,
                                                                       rows)
            if need_masks or need_rows:  # ROUGE-W, or masks beyond LCS_MASKS_ROOM
                hit, base = union_lcs_hits(ids, unit_offsets, model_text, ids, unit_offsets, peer_text, w,
                                           model_count, peer_count, slot, which, masks, mask, present, rows)
            _cleared(model_count, ids, start[m], end[m])
            _cleared(peer_count, ids, start[s], end[s])
            if lcs_is_w[k]:
                out[q, k, 0] = base ** w
                out[q, k, 1] = hit
                out[q, k, 2] = peer_length ** w
                out[q, k, 3] = (hit / base) ** (1 / w) if base > 0 else 0.0
            else:
                out[q, k, 0] = base
                out[q, k, 1] = hit
                out[q, k, 2] = peer_length
                out[q, k, 3] = hit / base if base > 0 else 0.0
    return out


@jit
def sentence_lcs_pair_stats(peers, models, vocabulary, ids, start, end, unit_offsets, unit_start):
    """``lcs_pair_stats`` of weight 1 for pairs of one sentence each, where the union LCS is the LCS, never
    clipped (``sentence_lcs_length``): (pairs x 4)."""
    out = np.zeros((len(peers), 4))
    slot = np.full(vocabulary, -1, dtype=np.int64)  # sentence_lcs_length's scratch array
    for q in range(len(peers)):
        s = peers[q]
        m = models[q]
        hit = sentence_lcs_length(ids[start[m]:end[m]], ids[start[s]:end[s]],
                                  unit_offsets[unit_start[s]:unit_start[s + 1]], slot)
        base = float(end[m] - start[m])
        out[q, 0] = base
        out[q, 1] = hit
        out[q, 2] = float(end[s] - start[s])
        out[q, 3] = hit / base if base > 0 else 0.0
    return out


def one_sentence_pairs(batch: EncodedBatch, peers: np.ndarray, models: np.ndarray, lcs_weights: np.ndarray) -> bool:
    """Whether ``sentence_lcs_pair_stats`` covers these pairs: every weight is 1 and every pair has one sentence
    on each side. Asked of a whole batch, so that a batch mixing both kinds of pairs sends them all through
    the union LCS (the same numbers) and loads one kernel, as a batch without one-sentence pairs does, not
    two (loading a kernel can cost more than the call), whichever part of it a thread scores."""
    one = batch.sentences == 1  # texts of one sentence
    return bool(one[peers].all() and one[models].all() and (lcs_weights == 1.0).all())  # the likely False first


def lcs_stats(batch: EncodedBatch, peers: np.ndarray, models: np.ndarray, lcs_weights: np.ndarray,
              lcs_is_w: np.ndarray, one_sentence: bool) -> np.ndarray:
    """``lcs_pair_stats`` of the pairs, or ``sentence_lcs_pair_stats`` when ``one_sentence``
    (``one_sentence_pairs`` of their batch): ROUGE-L on one-sentence texts never compiles the union LCS."""
    if one_sentence:
        stats = run_kernel(sentence_lcs_pair_stats, _sentence_lcs_seconds, peers, models, batch.vocabulary,
                           batch.ids, batch.start, batch.end, batch.unit_offsets, batch.unit_start)[:, None, :]
        return stats if len(lcs_weights) == 1 else np.repeat(stats, len(lcs_weights), axis=1)
    return run_kernel(lcs_pair_stats, _lcs_seconds, peers, models, lcs_weights, lcs_is_w, batch.vocabulary,
                      batch.ids, batch.start, batch.end, batch.unit_offsets, batch.unit_start)


def pair_stats(batch: EncodedBatch, peers: np.ndarray, models: np.ndarray, measures: Sequence[Measure],
               lcs_weights: np.ndarray, lcs_is_w: np.ndarray) -> np.ndarray:
    """``measure_stats``' (model, hit, peer, select) of the (peer, model) text pairs of ``batch`` (pairs x
    measures x 4): the "N" ``measures``, then the "S" ones (each in their order: ``measures`` lists the first
    before the second), then the ROUGE-L/W ``lcs_weights``. Each family has its kernels (``batch_pair_stats``,
    ``skip_pair_stats``, ``lcs_stats``), called only when asked for, on the pairs cut into parts about equal
    in tokens, one per thread (``map_threads``; one part when the batch is too small for threads)."""
    ngram_sizes, skip_sizes, unigrams = gram_families(tuple(measures))
    ids, start, end = batch.ids, batch.start, batch.end
    one_sentence = len(lcs_weights) > 0 and one_sentence_pairs(batch, peers, models, lcs_weights)

    def part_stats(part):
        p, m = peers[part[0]:part[1]], models[part[0]:part[1]]
        blocks = []
        if len(ngram_sizes):
            blocks.append(run_kernel(batch_pair_stats, _ngram_seconds, p, m, ngram_sizes, batch.vocabulary, ids,
                                     start, end))
        if len(skip_sizes):
            blocks.append(run_kernel(skip_pair_stats, _skip_seconds, p, m, skip_sizes, unigrams,
                                     batch.options.perl_last_unigram_bug, ids, start, end))
        if len(lcs_weights):
            blocks.append(lcs_stats(batch, p, m, lcs_weights, lcs_is_w, one_sentence))
        return blocks[0] if len(blocks) == 1 else np.concatenate(blocks, axis=1)

    # one part on one thread (a piece of ``api._score_batch`` on its thread), or when a pair holds at most twice
    # the batch's tokens and they are too few for threads
    if _jit.get_num_threads() == 1 or 2 * len(ids) * len(peers) < _jit.PARALLEL_FROM:
        return part_stats((0, len(peers)))
    out = map_threads(part_stats, parts_of(_pair_tokens(peers, models, start, end)))
    return out[0] if len(out) == 1 else np.concatenate(out)


@lru_cache(maxsize=256)
def gram_families(measures: tuple[Measure, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What ``pair_stats`` hands the n-gram and skip-bigram kernels for ``measures`` (n-grams first): the
    n-gram sizes, the skip distances and which skip measures add unigrams (ROUGE-SU), built once per list
    (the arrays are only read)."""
    if any(a.kind != "N" and b.kind == "N" for a, b in zip(measures, measures[1:])):
        raise ValueError("pair_stats takes the n-gram measures before the skip-bigram ones")
    skips = [m for m in measures if m.kind != "N"]
    return (np.array([m.size for m in measures if m.kind == "N"], dtype=np.int64),
            np.array([m.size for m in skips], dtype=np.int64), np.array([m.unigrams for m in skips], dtype=np.bool_))


@jit
def pooled_rpf(stats, bounds, is_w, weights, alpha, best_model, round_digits):
    """``recall_precision_f(pool_references(...))`` for every summary: summary i owns pairs
    ``bounds[i]:bounds[i+1]`` of ``stats`` (``pair_stats``); ``best_model`` is ``-f B``, else ``-f A``;
    ``round_digits`` is ``prf``'s (5 or None: each compiles on its own, when first asked for).
    Returns (summaries x measures x 3)."""
    n_measures = stats.shape[1]
    out = np.zeros((len(bounds) - 1, n_measures, 3))
    for i in range(len(bounds) - 1):
        for k in range(n_measures):
            model = 0.0
            hit = 0.0
            peer = 0.0
            if best_model:
                best = -1
                best_score = -1.0
                for q in range(bounds[i], bounds[i + 1]):
                    if stats[q, k, 3] > best_score:
                        best = q
                        best_score = stats[q, k, 3]
                if best >= 0:
                    model = stats[best, k, 0]
                    hit = stats[best, k, 1]
                    peer = stats[best, k, 2]
            else:
                for q in range(bounds[i], bounds[i + 1]):
                    model += stats[q, k, 0]
                    hit += stats[q, k, 1]
                    peer += stats[q, k, 2]
            weight = weights[k] if is_w[k] else 1.0
            r, p, f = prf(hit, model, peer, alpha, round_digits, weight)
            out[i, k, 0] = r
            out[i, k, 1] = p
            out[i, k, 2] = f
    return out
