"""Soft-matching ROUGE: ROUGE-N and ROUGE-S/SU with a pluggable similarity between grams.

Classic ROUGE-N (Lin 2004, Eq. 1) counts, for each reference gram, how many times it also occurs in
the candidate (``Count_match``), clipped so that no gram is credited more often than it occurs on
either side. ROUGE-WE (Ng & Abrecht 2015, Eq. 1-2) and ROUGE-G (ShafieiBavani et al. 2018, Eq. 4-5)
replace the equality test ``f_R`` by a graded similarity. This module is that shared core:

1. **Tokens to ids.** A :class:`TokenIndex` (``rougelab.text.token_ids``) gives every distinct token
   string of a batch an integer id, so the vocabulary of a whole dataset is looked up (in word
   vectors, WordNet, ...) once.
2. **Grams of a text.** :class:`GramSpec` says which grams (``n``-grams, or skip-bigrams with or
   without unigrams); ``GramSpec.grams(ids)`` returns an ``(g, width)`` int array of token ids, one
   row per gram occurrence (a unigram inside ROUGE-SU is padded with :data:`PAD`), built by
   ``rougelab.rouge.grams``, the one gram rule classic ROUGE's kernels share.
   :func:`count_grams` folds them into :class:`Grams`: distinct rows in order of first occurrence,
   with their counts (ROUGE's hash of gram -> count, but deterministic).
3. **Similarity.** A *gram similarity* is any callable ``sim(ref_keys, cand_keys) -> S`` taking two
   ``(m, width)`` / ``(c, width)`` id arrays and returning an ``(m, c)`` float matrix, one call per
   summary/reference pair. :func:`exact_similarity` is ``f_R``; :class:`VectorSimilarity` composes
   per-token vectors (product / sum / mean, Ng & Abrecht Eq. 3-4) and compares them (dot / cosine).
4. **Hits.** A *matcher* ``match(S, ref, cand) -> float`` turns the matrix into the hit count of one
   reference. :func:`greedy_match` (the default) aligns gram occurrences one to one in order of
   decreasing similarity, so a candidate gram is never credited more times than it occurs (nor a
   reference gram); with :func:`exact_similarity` it gives ``sum_g min(count_ref, count_cand)``,
   classic ROUGE's clipped count. :func:`ng_abrecht_match` and :func:`s3_match` reproduce the two
   published ROUGE-WE programs (see their docstrings).
5. **P/R/F over references.** :func:`soft_rouge` pools hits and counts over the references like
   ROUGE-1.5.5 ``-f A``: R = sum hits / sum reference grams, P = sum hits / (#references x candidate
   grams), F = P R / ((1 - alpha) P + alpha R). An empty summary or reference scores 0.

Extending it (e.g. ROUGE-G): any ``sim(ref_keys, cand_keys)`` works -- look tokens up through
``TokenIndex.tokens`` once, keep a per-id table, and mix as you need, e.g. ROUGE-G's Eq. 5 as
``lambda r, c: beta * exact_similarity(r, c) + (1 - beta) * semantic(r, c)``; any
``match(S, ref, cand) -> float`` can replace the matcher. :func:`soft_rouge` runs BLAS single-threaded
(many small products; a shared thread pool is far slower on a busy machine).

Example (classic ROUGE-2 recall from the core)::

    index = TokenIndex()
    cand = index.ids("the cat sat".split())
    refs = [index.ids("the cat ran".split())]
    soft_rouge([cand], [refs], GramSpec(n=2), exact_similarity)   # r = p = f = 0.5
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple, Sequence

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from rougelab import scoring
from rougelab._jit import jit
from rougelab.rouge.grams import PAD, ngrams, skip_bigrams
from rougelab.scoring import Grams, count_grams
from rougelab.text.token_ids import TokenIndex as TokenIndex  # the map the docstring's recipe uses, re-exported
from rougelab.validation import check_float


@dataclass(frozen=True)
class GramSpec:
    """Which grams to count: ``n``-grams, or (``skip`` set) skip-bigrams, optionally with unigrams.

    ``GramSpec(n=2)`` is ROUGE-2; ``GramSpec(skip=4, unigrams=True)`` is ROUGE-SU4 (``-2 4 -U``).
    """

    n: int = 1
    skip: int | None = None
    unigrams: bool = False
    perl_last_unigram_bug: bool = True

    @property
    def name(self) -> str:
        if self.skip is None:
            return str(self.n)
        gap = "*" if self.skip < 0 else str(self.skip)
        return f"su{gap}" if self.unigrams else f"s{gap}"

    def grams(self, ids: np.ndarray) -> np.ndarray:
        if self.skip is None:
            return ngrams(ids, self.n)
        return skip_bigrams(ids, self.skip, unigrams=self.unigrams,
                            perl_last_unigram_bug=self.perl_last_unigram_bug)


GramSimilarity = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""``sim(ref_keys (m, w), cand_keys (c, w)) -> (m, c)`` float matrix of gram similarities."""

Matcher = Callable[[np.ndarray, Grams, Grams], float]
"""``match(S, ref, cand) -> hit``: the (soft) hit count of one reference, from the (m, c) matrix S."""


def exact_similarity(ref_keys: np.ndarray, cand_keys: np.ndarray) -> np.ndarray:
    """``f_R`` (Ng & Abrecht 2015, Eq. 1): 1 where the two grams are the same token ids, else 0."""
    if len(ref_keys) == 0 or len(cand_keys) == 0:
        return np.zeros((len(ref_keys), len(cand_keys)))
    return (ref_keys[:, None, :] == cand_keys[None, :, :]).all(axis=-1).astype(np.float64)


COMPOSITIONS = ("product", "sum", "mean")
SIMILARITY_MEASURES = ("dot", "cosine")  # how ``VectorSimilarity`` compares two gram vectors (its ``measure``)


class VectorSimilarity:
    """Gram similarity from per-token vectors: compose, then compare (Ng & Abrecht 2015, Eq. 2-4).

    Parameters
    ----------
    vectors : (V, d) array
        Row ``i`` is the vector of token id ``i`` (a :class:`TokenIndex` id).
    known : (V,) bool array
        False for out-of-vocabulary tokens: a gram with any OOV token has similarity 0 to
        everything (Eq. 2), itself included.
    composition : "product" | "sum" | "mean"
        How a gram's token vectors become one vector: element-wise product (Eq. 3-4, Mitchell &
        Lapata 2008), sum (S3 / SummEval), or mean. :data:`PAD` positions are skipped.
    measure : "dot" | "cosine"
        ``v1 . v2`` (Eq. 2) or the cosine (the authors' released server; S3). A zero vector has
        cosine 0.
    exact_is_one : bool
        If True, identical grams score 1 whatever their vectors (S3 does this, OOV grams included).
    """

    def __init__(self, vectors: np.ndarray, known: np.ndarray, *, composition: str = "product",
                 measure: str = "dot", exact_is_one: bool = False) -> None:
        if composition not in COMPOSITIONS:
            raise ValueError(f"composition must be one of {COMPOSITIONS}, got {composition!r}")
        if measure not in SIMILARITY_MEASURES:
            raise ValueError(f"measure must be one of {SIMILARITY_MEASURES}, got {measure!r}")
        vectors = np.asarray(vectors, dtype=np.float64)
        known = np.asarray(known, dtype=bool)
        if vectors.ndim != 2 or len(vectors) != len(known):
            raise ValueError("vectors must be (V, d) and known (V,) for the same V")
        # Row V is the PAD row: the identity of the composition, always "known".
        pad_row = np.ones(vectors.shape[1]) if composition == "product" else np.zeros(vectors.shape[1])
        self._vectors = np.vstack([vectors, pad_row])
        self._known = np.append(known, True)
        self.composition = composition
        self.measure = measure
        self.exact_is_one = exact_is_one

    def compose(self, keys: np.ndarray) -> np.ndarray:
        """One vector per gram (rows of ``keys``); grams with an OOV token get the zero vector."""
        rows = np.where(keys == PAD, len(self._vectors) - 1, keys)
        v = self._vectors[rows]                                  # (g, w, d)
        if self.composition == "product":
            out = v.prod(axis=1)
        else:
            out = v.sum(axis=1)
            if self.composition == "mean":
                out /= (keys != PAD).sum(axis=1, keepdims=True)
        out[~self._known[rows].all(axis=1)] = 0.0
        return out

    def __call__(self, ref_keys: np.ndarray, cand_keys: np.ndarray) -> np.ndarray:
        if len(ref_keys) == 0 or len(cand_keys) == 0:
            return np.zeros((len(ref_keys), len(cand_keys)))
        a, b = self.compose(ref_keys), self.compose(cand_keys)
        if self.measure == "cosine":
            a = _unit_rows(a)
            b = _unit_rows(b)
        sim = a @ b.T
        if self.exact_is_one:
            sim[exact_similarity(ref_keys, cand_keys) == 1.0] = 1.0
        return sim


def _unit_rows(x: np.ndarray) -> np.ndarray:
    norm = np.linalg.norm(x, axis=1, keepdims=True)
    return np.divide(x, norm, out=np.zeros_like(x), where=norm > 0)


@jit
def _best_column(sim, i, cc):  # pragma: no cover - compiled
    best, best_s = -1, 0.0
    for j in range(sim.shape[1]):
        if cc[j] > 0 and (best < 0 or sim[i, j] > best_s):
            best, best_s = j, sim[i, j]
    return best, best_s


@jit
def _greedy_kernel(sim, ref_counts, cand_counts):  # pragma: no cover - compiled
    # Equivalent to visiting all pairs sorted by decreasing similarity (ties: row-major order) and
    # pairing what is still unpaired, but each step only needs every row's best open column
    # (recomputed for the rows whose best column was just used up). Measured faster than sorting.
    m, c = sim.shape
    rr = ref_counts.copy()
    cc = cand_counts.copy()
    best_j = np.empty(m, dtype=np.int64)
    best_s = np.empty(m)
    for i in range(m):
        best_j[i], best_s[i] = _best_column(sim, i, cc)
    hit = 0.0
    while True:
        top = -1
        for i in range(m):
            if rr[i] > 0 and best_j[i] >= 0 and (top < 0 or best_s[i] > best_s[top]):
                top = i
        if top < 0 or best_s[top] <= 0.0:
            break
        j = best_j[top]
        f = min(rr[top], cc[j])
        hit += f * best_s[top]
        rr[top] -= f
        cc[j] -= f
        if cc[j] == 0:
            for i in range(m):
                if rr[i] > 0 and best_j[i] == j:
                    best_j[i], best_s[i] = _best_column(sim, i, cc)
    return hit


def greedy_match(sim: np.ndarray, ref: Grams, cand: Grams) -> float:
    """Soft ``Count_match`` by greedy one-to-one alignment of gram occurrences.

    Pairs (reference gram, candidate gram) are visited in order of decreasing similarity (ties:
    reference first-occurrence order, then candidate order); each pairs up as many occurrences as
    both still have unpaired, adding ``similarity x occurrences``. Pairs with similarity <= 0 are
    never paired. So no candidate (or reference) gram is credited more times than it occurs, and with
    :func:`exact_similarity` the hit is classic ROUGE's ``sum_g min(count_ref(g), count_cand(g))``.
    """
    if sim.size == 0:
        return 0.0
    return float(_greedy_kernel(np.ascontiguousarray(sim, dtype=np.float64), ref.counts, cand.counts))


def ng_abrecht_match(sim: np.ndarray, ref: Grams, cand: Grams, *, exact_weight: float = 0.5) -> float:
    """The hit of Ng & Abrecht's released ROUGE-WE-1.0.0.pl (``ngramWord2VecScore``).

    For the k-th distinct reference gram t_k (k = 1, 2, ...), hit += ``exact_weight`` x
    min(count_ref(t_k), count_cand(t_k)) + (1 - ``exact_weight``) x the sum of ``sim(t_k, p)`` over the
    distinct candidate grams p, the latter only while count_ref(t_k) >= k: the script's clipping
    counter is shared across reference grams, so its effect depends on the order in which it visits
    them. The script visits them in Perl's (randomised) hash order; we use first-occurrence order,
    which makes the result deterministic. Candidate counts are ignored by the soft part, as there.
    """
    if len(ref.keys) == 0:
        return 0.0
    exact = exact_similarity(ref.keys, cand.keys)
    clipped = float((exact * np.minimum(ref.counts[:, None], cand.counts[None, :])).sum())
    visit = ref.counts >= np.arange(1, len(ref.keys) + 1)
    soft = float(sim.sum(axis=1)[visit].sum()) if sim.size else 0.0
    return exact_weight * clipped + (1.0 - exact_weight) * soft


@jit
def _s3_kernel(sim, ref_counts, cand_counts, threshold):  # pragma: no cover - compiled
    m, c = sim.shape
    left = ref_counts.copy()
    hit = 0.0
    for j in range(c):
        best = -1
        best_s = 0.0
        for i in range(m):
            if left[i] > 0 and (best < 0 or sim[i, j] > best_s):
                best = i
                best_s = sim[i, j]
        if best < 0 or best_s < threshold:
            continue
        f = min(left[best], cand_counts[j])
        hit += f
        left[best] -= f
    return hit


def s3_match(sim: np.ndarray, ref: Grams, cand: Grams, *, threshold: float = 0.8) -> float:
    """The hit of S3's ROUGE-WE (Peyrard et al. 2017; SummEval's ``rouge_we``: ``_soft_overlap``).

    Candidate grams are visited in first-occurrence order; each takes the most similar reference gram
    still unconsumed (ties: the earliest) and, if the similarity is >= ``threshold``, scores
    min(its count, the reference gram's remaining count) -- whole counts, not similarities -- and
    consumes that many of the reference gram.
    """
    if sim.size == 0:
        return 0.0
    return float(_s3_kernel(np.ascontiguousarray(sim, dtype=np.float64), ref.counts, cand.counts,
                            float(threshold)))


class SoftCounts(NamedTuple):
    """Pooled counts of one summary: ``hit`` (soft), ``ref_total`` (sum of reference grams) and
    ``cand_total`` (#references x candidate grams), as ROUGE-1.5.5 ``-f A`` pools them."""

    hit: float
    ref_total: int
    cand_total: int


def pooled_counts(cand_ids: np.ndarray, ref_ids: Sequence[np.ndarray], spec: GramSpec,
                  similarity: GramSimilarity, matcher: Matcher = greedy_match,
                  memo: dict | None = None) -> SoftCounts:
    """Hits and gram totals of one summary against its references, pooled (``-f A``).

    ``memo`` (a dict shared across calls with the same ``spec``) saves recounting repeated texts."""
    grams = _gram_counter(spec, {} if memo is None else memo)
    cand = grams(cand_ids)
    hit = 0.0
    ref_total = 0
    for ids in ref_ids:
        ref = grams(ids)
        ref_total += ref.total
        if ref.total and cand.total:
            hit += matcher(similarity(ref.keys, cand.keys), ref, cand)
    return SoftCounts(hit, ref_total, len(ref_ids) * cand.total)


def _gram_counter(spec: GramSpec, memo: dict) -> Callable[[np.ndarray], Grams]:
    def grams(ids: np.ndarray) -> Grams:
        key = np.asarray(ids, dtype=np.int64).tobytes()
        found = memo.get(key)
        if found is None:
            found = memo[key] = count_grams(spec.grams(ids))
        return found
    return grams


def soft_rouge(summaries: Sequence[np.ndarray], references: Sequence[Sequence[np.ndarray]],
               spec: GramSpec, similarity: GramSimilarity, *, matcher: Matcher = greedy_match,
               alpha: float = 0.5, round_digits: int | None = None, prefix: str | None = None) -> pd.DataFrame:
    """Soft ROUGE of a batch of token-id sequences: one row per summary, columns ``{prefix}_r/_p/_f``.

    Parameters
    ----------
    summaries : list of int arrays
        Token ids of each summary (from one shared :class:`TokenIndex`).
    references : list of lists of int arrays
        Token ids of each summary's references; hits and counts are pooled over them (``-f A``).
    spec : GramSpec
        The grams (ROUGE-N or ROUGE-S/SU).
    similarity : GramSimilarity
        ``sim(ref_keys, cand_keys) -> (m, c)`` matrix; :func:`exact_similarity` gives classic ROUGE.
    matcher : Matcher
        Hits from the matrix: :func:`greedy_match` (default), :func:`ng_abrecht_match`, :func:`s3_match`.
    alpha, round_digits
        See :func:`prf`.
    prefix : str, optional
        Column prefix; default ``rouge{spec.name}``.

    Returns
    -------
    DataFrame with float columns ``{prefix}_r``, ``{prefix}_p``, ``{prefix}_f``.
    """
    if len(summaries) != len(references):
        raise ValueError(f"{len(summaries)} summaries but {len(references)} reference lists")
    alpha = check_float(alpha, "alpha", low=0, high=1)
    prefix = prefix or f"rouge{spec.name}"
    memo: dict = {}
    # Many small matrix products: one BLAS thread each is ~50x faster than a contended thread pool.
    with threadpool_limits(limits=1, user_api="blas"):
        rows = [scoring.prf(*pooled_counts(c, refs, spec, similarity, matcher, memo), alpha=alpha,
                            round_digits=round_digits) for c, refs in zip(summaries, references)]
    return pd.DataFrame(rows, columns=[f"{prefix}_r", f"{prefix}_p", f"{prefix}_f"], dtype=float)
