"""Classic ROUGE over a whole batch: every distinct text read once, every pair scored in one compiled pass.

``EncodedBatch`` tokenises the distinct texts of a batch into shared integer ids (one compiled scan of their
bytes), ``EncodedBatch.tables`` counts every text's grams once, ``pair_stats`` scores every (summary,
reference) pair (``batch_pair_stats``) on the threads, and ``pooled_rpf`` gives R, P and F of each summary.
These are the counts and digits of ROUGE-1.5.5's single-peer path (``rougelab.rouge.core``), which they
match for texts scored without length limits (``-l``/``-b``): tests/test_rouge_fast_path.py.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from rougelab._jit import jit, map_threads, parts_of
from rougelab.rouge.core import Measure
from rougelab.rouge.grams import (KIND_NGRAM, KIND_SKIP, clipped_hits, gram_totals, ngram_numbers, pack_bits,
                                  ranked_tables, segment_tables, singles_count, singles_hits)
from rougelab.rouge.lcs import sentence_lcs_length, union_lcs_hits
from rougelab.rouge.options import RougeOptions
from rougelab.scoring import prf
from rougelab.scoring import round_decimals as round5  # ROUGE-1.5.5's sprintf("%7.5f") read back
from rougelab.text.sentences import Splitter

# ``round5`` compiled, for the kernels (``rougelab.scoring.round_decimals`` is plain arithmetic).
round5_exact = jit(round5)


class EncodedBatch:
    """Distinct texts of a batch, each split, lower-cased and tokenised once into shared integer ids
    (``Preprocessing.encode``: one compiled pass over the bytes of all texts).

    Only for texts scored without length limits (``-l``/``-b``), where ROUGE-1.5.5's n-gram text is
    exactly its ROUGE-L sentences joined. ``ids[start[t]:end[t]]`` are text t's tokens; its sentence
    bounds (relative) are ``unit_offsets[unit_start[t]:unit_start[t + 1]]``.
    """

    def __init__(self, texts: Sequence[str], splitter: Splitter, options: RougeOptions):
        self.ids, lengths, per_text, _ = options.preprocessing(splitter).encode(texts)
        # Text t owns sentences unit_start[t] - t .. unit_start[t + 1] - t - 1; each text's offsets start at 0.
        self.unit_start = np.concatenate([[0], np.cumsum(per_text + 1)]).astype(np.int64)
        first = self.unit_start[:-1] - np.arange(len(texts))
        sentence_text = np.repeat(np.arange(len(texts)), per_text)
        cumulative = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        bounds = cumulative[np.concatenate([first, [len(lengths)]]).astype(np.int64)]
        self.start, self.end = bounds[:-1], bounds[1:]
        offsets = np.zeros(len(lengths) + len(texts), dtype=np.int64)
        position = np.arange(len(lengths)) + sentence_text + 1  # sentence i's end slot
        offsets[position] = cumulative[1:] - self.start[sentence_text]
        self.unit_offsets = offsets
        self.options = options

    def tables(self, measures: Sequence[Measure]) -> tuple[np.ndarray, ...]:
        """Count tables of every text for the "N"/"S" ``measures``: (codes, counts, first, last, totals, table).

        Measure k is counted in table ``table[k]``: text t's is ``codes[first[table[k], t]:last[table[k], t]]``
        (sorted distinct codes) with ``counts``, and ``totals[table[k], t]`` is its number of grams. ROUGE-SU
        shares ROUGE-S's table (``batch_pair_stats`` adds the unigrams); the last table is the unigram
        (clipping) table.

        The unigram tables come from one counting sort of all texts' ids (``segment_tables``); packed
        n-gram and skip-bigram tables are sorted text by text through those unigrams' ranks
        (``ranked_tables``); n-grams too many for packing are numbered first (``ngram_numbers``).
        All tables share one buffer, text t of a table from its room on (room for every gram)."""
        vocabulary = int(self.ids.max()) + 1 if len(self.ids) else 0
        lengths = self.end - self.start
        unigram_codes, unigram_counts, unigram_bounds = segment_tables(self.ids, self.start, self.end, vocabulary)
        unigrams = Measure("N", 1)
        wanted = list(dict.fromkeys([*(Measure(m.kind, m.size) for m in measures), unigrams]))
        wanted.append(wanted.pop(wanted.index(unigrams)))  # the clipping table last
        kinds = [(KIND_NGRAM, pack_bits(m.size)) if m.kind == "N" else (KIND_SKIP, 32) for m in wanted]
        totals = np.array([gram_totals(lengths, kind, m.size, False, False) for m, (kind, _) in zip(wanted, kinds)],
                          dtype=np.int64)
        room = np.cumsum(np.concatenate([[0], totals.reshape(-1)]))[:-1].reshape(totals.shape)
        # Filled here, by one thread, so that the kernels' threads never fault in fresh pages side by side
        # (with transparent huge pages that made the tables twice as slow on our 2-core machine).
        codes, counts = np.empty(int(totals.sum()), dtype=np.int64), np.empty(int(totals.sum()), dtype=np.int64)
        codes.fill(0)
        counts.fill(0)
        first, last = room.copy(), room.copy()
        parts = parts_of(lengths)  # texts about equal in tokens, one part per thread
        for k, (m, (kind, bits)) in enumerate(zip(wanted, kinds)):
            if m.kind == "S" or (m.size > 1 and vocabulary <= 1 << bits):  # packed ids
                pieces = map_threads(lambda part: ranked_tables(
                    self.ids, self.start[part[0]:part[1]], self.end[part[0]:part[1]], kind, m.size, False, False,
                    bits, unigram_codes, unigram_bounds[part[0]:part[1]], unigram_bounds[part[0] + 1:part[1] + 1],
                    codes, counts, room[k, part[0]:part[1]]), parts)
                last[k] = pieces[0] if len(pieces) == 1 else np.concatenate(pieces)
            else:  # unigrams, or n-grams numbered because their ids do not fit in 63 // n bits
                table = (unigram_codes, unigram_counts, unigram_bounds) if m.size == 1 else \
                    self._numbered_tables(m.size)
                distinct, how_many, bounds = table
                done = room[k, 0] if len(room[k]) else 0
                codes[done:done + len(distinct)] = distinct
                counts[done:done + len(distinct)] = how_many
                first[k], last[k] = done + bounds[:-1], done + bounds[1:]
        table = np.array([wanted.index(Measure(m.kind, m.size)) for m in measures], dtype=np.int64)
        return codes, counts, first, last, totals, table

    def _numbered_tables(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``segment_tables`` of every text's n-grams, numbered by ``ngram_numbers``."""
        grams = ngram_numbers(self.ids, n)
        hi = np.maximum(self.end - n + 1, self.start)
        return segment_tables(grams, self.start, hi, int(grams.max()) + 1 if len(grams) else 0)


@jit
def batch_pair_stats(peers, models, codes, counts, first, last, totals, table, singles, last_unigram_bug,
                     lcs_weights, lcs_is_w, ids, start, end, unit_offsets, unit_start):
    """Per (peer, model) pair and measure, ``measure_stats``' (model, hit, peer, select) as an array
    (pairs x measures x 4): gram measures first (``EncodedBatch.tables``; ``singles[k]``: ROUGE-SU,
    whose unigrams come from the last, unigram table), then ROUGE-L/W (``lcs_weights``; the unigram table
    clips). ``pair_stats`` runs it on parts of the pairs, one per thread."""
    n_grams = len(table)
    clip = first.shape[0] - 1
    out = np.zeros((len(peers), n_grams + len(lcs_weights), 4))
    vocabulary = ids.max() + 1 if len(ids) else 0
    slot = np.full(vocabulary, -1, dtype=np.int64)  # union_lcs_hits' scratch array
    for q in range(len(peers)):
        s = peers[q]
        m = models[q]
        for k in range(n_grams):
            i = table[k]
            hit = clipped_hits(codes[first[i, m]:last[i, m]], counts[first[i, m]:last[i, m]],
                               codes[first[i, s]:last[i, s]], counts[first[i, s]:last[i, s]])
            total = totals[i, m]
            peer_total = totals[i, s]
            if singles[k]:
                model_last = ids[end[m] - 1] if last_unigram_bug and end[m] > start[m] else -1
                peer_last = ids[end[s] - 1] if last_unigram_bug and end[s] > start[s] else -1
                hit += singles_hits(codes[first[clip, m]:last[clip, m]], counts[first[clip, m]:last[clip, m]],
                                    codes[first[clip, s]:last[clip, s]], counts[first[clip, s]:last[clip, s]],
                                    model_last, peer_last)
                total += singles_count(end[m] - start[m], last_unigram_bug)
                peer_total += singles_count(end[s] - start[s], last_unigram_bug)
            out[q, k, 0] = total
            out[q, k, 1] = hit
            out[q, k, 2] = peer_total
            out[q, k, 3] = round5_exact(hit / total) if total else 0.0
        peer_length = float(end[s] - start[s])
        one_sentence_each = unit_start[m + 1] - unit_start[m] == 2 and unit_start[s + 1] - unit_start[s] == 2
        for j in range(len(lcs_weights)):
            w = lcs_weights[j]
            if w == 1.0 and one_sentence_each:  # the union LCS is the LCS, never clipped
                hit = sentence_lcs_length(ids[start[m]:end[m]], ids[start[s]:end[s]],
                                          unit_offsets[unit_start[s]:unit_start[s + 1]], slot)
                base = float(end[m] - start[m])
            else:
                hit, base = union_lcs_hits(ids[start[m]:end[m]], unit_offsets[unit_start[m]:unit_start[m + 1]],
                                           ids[start[s]:end[s]], unit_offsets[unit_start[s]:unit_start[s + 1]], w,
                                           codes[first[clip, m]:last[clip, m]], counts[first[clip, m]:last[clip, m]],
                                           codes[first[clip, s]:last[clip, s]], counts[first[clip, s]:last[clip, s]],
                                           slot)
            k = n_grams + j
            if lcs_is_w[j]:
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


def pair_stats(batch: EncodedBatch, peers: np.ndarray, models: np.ndarray, tables: tuple, singles: np.ndarray,
               lcs_weights: np.ndarray, lcs_is_w: np.ndarray) -> np.ndarray:
    """``batch_pair_stats`` of the (peer, model) text pairs of ``batch``, with its ``tables``, the pairs cut
    into parts about equal in tokens, one per thread (``map_threads``)."""
    codes, counts, first, last, totals, table = tables
    lengths = batch.end - batch.start
    parts = parts_of(lengths[peers] + lengths[models])
    out = map_threads(lambda part: batch_pair_stats(
        peers[part[0]:part[1]], models[part[0]:part[1]], codes, counts, first, last, totals, table, singles,
        batch.options.perl_last_unigram_bug, lcs_weights, lcs_is_w, batch.ids, batch.start, batch.end,
        batch.unit_offsets, batch.unit_start), parts)
    return out[0] if len(out) == 1 else np.concatenate(out)


@jit
def pooled_rpf(stats, bounds, is_w, weights, alpha, best_model, round_before_f):
    """``recall_precision_f(pool_references(...))`` for every summary: summary i owns pairs
    ``bounds[i]:bounds[i+1]`` of ``stats`` (``batch_pair_stats``); ``best_model`` is ``-f B``, else ``-f A``.
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
            if round_before_f:  # two calls: each rounding policy compiles on its own
                r, p, f = prf(hit, model, peer, alpha, 5, weight)
            else:
                r, p, f = prf(hit, model, peer, alpha, None, weight)
            out[i, k, 0] = r
            out[i, k, 1] = p
            out[i, k, 2] = f
    return out
