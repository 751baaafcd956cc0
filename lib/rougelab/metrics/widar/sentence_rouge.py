"""Sentence-level ROUGE-N and ROUGE-L and their weighted forms (Jain et al. 2022, Eqs. 2-7).

Each function returns the matches credited to every reference sentence *before* weighting, with
the two denominators; ``weighted_prf`` then applies any weights w_i (Eq. 1) in one dot product,
so a threshold sweep never recomputes a match.

Defaults follow the authors' released code (github.com/Raghav10j/WIDAR):

* ROUGE-N_SL: n-grams never cross a sentence boundary (no bridge n-grams). Each summary sentence
  meets the reference sentences in order; a match consumes the matched count from both sides,
  so an n-gram is credited once, to the first reference sentence that holds it. The
  denominators count *distinct* n-grams per sentence ("the cardinality of a set" in the paper's
  Eqs. 2-3; ``denominator="total"`` counts every occurrence, as classic ROUGE does).
* ROUGE-L_SL: union LCS of each reference sentence with the summary sentences, each token hit
  clipped by the tokens left on both sides (as ROUGE-1.5.5 does); denominators are token counts
  (``denominator="tokens"``). Eqs. 5-6 as printed divide by the numbers of sentences |R| and
  |S| instead (``denominator="sentences"``).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rougelab.rouge.grams import ngrams
from rougelab.rouge.lcs import union_lcs_positions
from rougelab.scoring import GramCounts, InputError, prf
from rougelab.text.token_ids import TokenIndex


class SentenceHits(NamedTuple):
    """Matches credited to each reference sentence, and the recall / precision denominators."""

    hits: np.ndarray
    reference_size: float
    summary_size: float


def _ngrams(tokens: list[str], n: int, index: TokenIndex) -> GramCounts:
    """The sentence's n-grams (``rougelab.rouge.grams.ngrams``, ids from the shared ``index``) with counts."""
    return GramCounts(map(tuple, ngrams(index.ids(tokens), n).tolist()))


def ngram_hits(summary_sentences: list[list[str]], reference_sentences: list[list[str]], n: int, *,
               denominator: str = "distinct") -> SentenceHits:
    """Sentence-level n-gram matches per reference sentence (numerator of Eqs. 2-3 before w_i)."""
    if n < 1:
        raise InputError(f"n-gram order must be >= 1, not {n}")
    index = TokenIndex()
    summary_grams = [_ngrams(s, n, index) for s in summary_sentences]
    reference_grams = [_ngrams(r, n, index) for r in reference_sentences]
    if denominator == "distinct":
        size = len
    elif denominator == "total":
        def size(grams):
            return sum(grams.values())
    else:
        raise InputError(f"denominator must be 'distinct' or 'total', not {denominator!r}")
    reference_size = float(sum(size(g) for g in reference_grams))
    summary_size = float(sum(size(g) for g in summary_grams))
    hits = np.zeros(len(reference_sentences))
    for summary in summary_grams:
        for i, reference in enumerate(reference_grams):
            smaller, other = (summary, reference) if len(summary) <= len(reference) else (reference, summary)
            for gram, count in smaller.items():
                matched = min(count, other.get(gram, 0))
                if matched:
                    hits[i] += matched
                    summary[gram] -= matched
                    reference[gram] -= matched
    return SentenceHits(hits, reference_size, summary_size)


def lcs_hits(summary_sentences: list[list[str]], reference_sentences: list[list[str]], *,
             denominator: str = "tokens") -> SentenceHits:
    """Union-LCS hits per reference sentence, clipped by token counts (numerator of Eqs. 5-6 before w_i)."""
    if denominator == "tokens":
        reference_size = float(sum(map(len, reference_sentences)))
        summary_size = float(sum(map(len, summary_sentences)))
    elif denominator == "sentences":
        reference_size, summary_size = float(len(reference_sentences)), float(len(summary_sentences))
    else:
        raise InputError(f"denominator must be 'tokens' or 'sentences', not {denominator!r}")
    hits = np.zeros(len(reference_sentences))
    candidates = [s for s in summary_sentences if s]
    if not candidates:
        return SentenceHits(hits, reference_size, summary_size)
    left_summary = GramCounts(t for s in candidates for t in s)
    left_reference = GramCounts(t for r in reference_sentences for t in r)
    for i, reference in enumerate(reference_sentences):
        if not reference:
            continue
        for position in union_lcs_positions(reference, candidates):
            token = reference[position]
            if left_summary[token] > 0 and left_reference[token] > 0:
                hits[i] += 1
                left_summary[token] -= 1
                left_reference[token] -= 1
    return SentenceHits(hits, reference_size, summary_size)


def weighted_prf(matches: SentenceHits, weights=None) -> tuple[float, float, float]:
    """(R, P, F) of Eqs. 2-4 / 5-7 with every summation term multiplied by w_i.

    ``weights=None`` gives the unweighted sentence-level score (ROUGE-N_SL / ROUGE-L_SL). A zero
    denominator (no reference or summary tokens) gives 0; F is 0 when R + P is 0.
    """
    hits = matches.hits
    if weights is None:
        matched = float(hits.sum())
    else:
        weights = np.asarray(weights, dtype=float)
        if weights.shape != hits.shape:
            raise InputError(f"{weights.shape[0] if weights.ndim else 0} weights for {hits.shape[0]} reference sentences")
        matched = float(hits @ weights)
    return prf(matched, matches.reference_size, matches.summary_size)
