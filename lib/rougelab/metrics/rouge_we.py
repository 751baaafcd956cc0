"""ROUGE-WE (Ng & Abrecht 2015): ROUGE-1/2/SU4 with word-embedding similarity instead of equality.

Three named variants. The bare registry names are the one the paper's tables were computed with:

``perl`` (default; ``rouge-we-1``, ``rouge-we-2``, ``rouge-we-su4``)
    What the authors' released ROUGE-WE-1.0.0.pl computes, and so what the paper's Tables 1-3
    report: hit = 0.5 x ROUGE's clipped exact count + 0.5 x the sum of similarities over the
    candidate's distinct grams, with the script's clipping counter (``soft_rouge.ng_abrecht_match``).
    That counter is shared across a reference's distinct grams: the k-th one visited gets its
    similarity half only if it occurs at least k times in that reference, so the score depends on
    the visiting order. The script visits them in Perl's hash order (random per run); we visit them in
    first-occurrence order, so ours is deterministic but moves with the reference's word order, and
    equals the script's only where the order cannot matter (tests/test_rouge_we_perl.py runs the
    script). Its word2vec server returns the *cosine* of the product-composed vectors (Eq. 3-4), so
    ``similarity="cosine"`` here. Not bounded by [0, 1]: every credited reference gram adds its cosines
    to *all* distinct candidate grams, and cosines can be negative, so R lies in [-D/2, (1 + D)/2] for
    D distinct candidate grams (``rouge-we-1`` R is above 1 when many candidate words are related to
    one reference word; an identical pair scores below 1). R and P are rounded to 5 decimals.
    Signature ``reading:as in the paper's tables (authors' released code)``.
``eq2`` (``rouge-we-1-eq2`` ...)
    Eq. 2 read literally: ``f_WE`` = dot product of the gram vectors, 0 if any word is out of
    vocabulary; an n-gram's vector is the element-wise product of its word vectors (Eq. 3-4).
    ROUGE's ``Count_match`` becomes a soft count: reference and candidate gram occurrences are
    aligned one to one, most similar first, each aligned pair adding its ``f_WE`` (pairs with
    ``f_WE <= 0`` are not aligned; ``soft_rouge.greedy_match``). The paper leaves this counting open;
    this is the reading that reduces to ROUGE when ``f_WE`` is replaced by ``f_R`` (Eq. 1). Its
    scores are not bounded by 1: an aligned pair adds its raw dot product, and GloVe's vectors are
    not unit length (measured: ROUGE-WE-1 recall 21.3 for a 5-word summary against a 6-word
    reference), so its scale follows the vectors' norms and it favours short summaries (notebook 02).
    Signature ``reading:Eq. 2 literal``.
``s3`` (``rouge-we-1-s3`` ...)
    SummEval's "ROUGE-WE", taken from S3 (Peyrard et al. 2017): gram vectors are *summed*, each
    candidate gram takes its most similar remaining reference gram and counts as a whole match if
    the cosine is >= 0.8 (identical grams have similarity 1, OOV or not; ``soft_rouge.s3_match``).

Every choice, with the alternatives and the option that selects them, is listed in
``rougelab.metrics.choices`` (family ``rouge-we``). Text is tokenised like ROUGE-1.5.5
(``rougelab.text.tokenize``) *without* stemming or stopword removal: vectors are looked up for
surface words (the authors ran their script without ``-m``). Only ``s3`` stays in [0, 1].
References are pooled like ROUGE-1.5.5 ``-f A``. Columns: ``rougewe1_r/_p/_f``, ``rougewe2_*``,
``rougewesu4_*`` (F is the registry's primary column; notebook 02 correlates F by default, its
``score`` parameter picks R or P).
"""
from __future__ import annotations

import functools
from itertools import chain
from typing import Sequence

import numpy as np
import pandas as pd

from rougelab.metrics.base import InputError, Metric
from rougelab.metrics.soft_rouge import (GramSpec, VectorSimilarity, greedy_match, ng_abrecht_match, s3_match,
                                         soft_rouge)
from rougelab.text.token_ids import TokenIndex
from rougelab.semantic.word_vectors import WordVectors, load_word_vectors
from rougelab.text.preprocessing import Preprocessing
from rougelab.text.tokenizers import UNICODE_ROUGE, warn_dropped_letters
from rougelab.rouge.api import PACKAGES
from rougelab.validation import check_float

# Each ROUGE-WE measure (the names of ``measures=``) -> the grams it counts.
MEASURES = {
    "rouge-we-1": GramSpec(n=1),
    "rouge-we-2": GramSpec(n=2),
    "rouge-we-su4": GramSpec(skip=4, unigrams=True),
    "rouge-we-3": GramSpec(n=3),          # SummEval's rouge_we default n; not registered
}
REGISTERED = ("rouge-we-1", "rouge-we-2", "rouge-we-su4")
PREPROCESSING = Preprocessing(stemmer=None, splitter="none")  # ROUGE-1.5.5's tokens, unstemmed, whole texts

VARIANTS = {
    #          composition  similarity
    "perl": ("product", "cosine"),
    "eq2": ("product", "dot"),
    "s3": ("sum", "cosine"),
}
READING = {   # the signature's ``reading``: which text the variant follows
    "perl": "as in the paper's tables (authors' released code)",
    "eq2": "Eq. 2 literal",
    "s3": "SummEval's (S3)",
}
NAME_SUFFIX = {"perl": "", "eq2": "-eq2", "s3": "-s3"}   # registry name = measure + suffix


def _column_prefix(measure: str) -> str:
    return "rougewe" + MEASURES[measure].name


def rouge_we(summaries: Sequence[str], references: Sequence[Sequence[str]], *,
             measures: Sequence[str] = ("rouge-we-1", "rouge-we-2", "rouge-we-su4"),
             variant: str = "perl", composition: str | None = None, similarity: str | None = None,
             vectors=None, threshold: float = 0.8, alpha: float = 0.5) -> pd.DataFrame:
    """ROUGE-WE of a batch: one row per summary, ``rougewe{1,2,su4}_{r,p,f}`` columns.

    Parameters
    ----------
    summaries, references
        Summary texts and, per summary, a list of reference texts (pooled, ``-f A``).
    measures
        Any of ``rouge-we-1``, ``rouge-we-2``, ``rouge-we-su4`` (and ``rouge-we-3``, SummEval's default n).
    variant : "perl" | "eq2" | "s3"
        See the module docstring (``perl``: the authors' released scoring, as in the paper's tables).
    composition : "product" | "sum" | "mean", optional
        Gram vector composition; default per variant (product, product, sum).
    similarity : "dot" | "cosine", optional
        Default per variant (cosine, dot, cosine).
    vectors
        ``None`` (GloVe 6B 50-d), a path to word2vec/GloVe/gensim vectors, a gensim ``KeyedVectors``
        or a ``WordVectors``.
    threshold
        The ``s3`` variant's cosine threshold (0.8 in S3).
    alpha
        F = P R / ((1 - alpha) P + alpha R).
    """
    _check(measures, variant)
    check_float(threshold, "threshold", low=-1, high=1, hint=" (a cosine)")
    warn_dropped_letters(chain(summaries, chain.from_iterable(references)),
                         "ROUGE-WE (ROUGE-1.5.5's tokens, English word vectors)", UNICODE_ROUGE)
    default_composition, default_similarity = VARIANTS[variant]
    wv = load_word_vectors(vectors)

    index = TokenIndex()
    cand_ids = [index.ids(tokens) for tokens in PREPROCESSING.tokens(summaries)]
    ref_ids = [[index.ids(tokens) for tokens in PREPROCESSING.tokens(refs)] for refs in references]
    table, known = wv.lookup(index.tokens)          # the whole batch's vocabulary, looked up once
    sim = VectorSimilarity(table, known, composition=composition or default_composition,
                           measure=similarity or default_similarity, exact_is_one=variant == "s3")
    matcher = {"eq2": greedy_match,
               "perl": ng_abrecht_match,
               "s3": functools.partial(s3_match, threshold=threshold)}[variant]
    rounding = 5 if variant == "perl" else None
    parts = [soft_rouge(cand_ids, ref_ids, MEASURES[m], sim, matcher=matcher, alpha=alpha,
                        round_digits=rounding, prefix=_column_prefix(m)) for m in measures]
    return pd.concat(parts, axis=1)


def _check(measures: Sequence[str], variant: str) -> None:
    if variant not in VARIANTS:
        hint = " (the literal Eq. 2 reading once called 'paper' is 'eq2')" if variant == "paper" else ""
        raise InputError(f"unknown ROUGE-WE variant {variant!r}; choose one of {', '.join(VARIANTS)}{hint}")
    unknown = [m for m in measures if m not in MEASURES]
    if unknown:
        raise InputError(f"unknown ROUGE-WE measure(s) {unknown}; choose from {', '.join(MEASURES)}")


def rouge_we_metric(measure: str = "rouge-we-2", *, variant: str = "perl", composition: str | None = None,
                    similarity: str | None = None, vectors=None, name: str | None = None) -> Metric:
    """A configured ROUGE-WE ``Metric`` whose signature pins variant (and which text it reads),
    composition, similarity and the vectors' content hash (so cached scores never mix embeddings).
    Metrics over the same loaded vectors (the default, a file loaded once, one ``WordVectors`` passed to
    each) and equal settings join one ``rouge_we`` call (``metrics.together``); a gensim ``KeyedVectors`` is
    converted anew for each metric, so pass its ``load_word_vectors`` result to share one call."""
    _check([measure], variant)
    wv: WordVectors = load_word_vectors(vectors)
    composition = composition or VARIANTS[variant][0]
    similarity = similarity or VARIANTS[variant][1]
    options = {"measures": [measure], "variant": variant, "composition": composition, "similarity": similarity}
    pins = {"reading": READING[variant], "vectors": wv.signature, "preprocessing": PREPROCESSING.signature,
            "multiref": "A"}
    return Metric(name or measure + NAME_SUFFIX[variant], functools.partial(rouge_we, vectors=wv),
                  primary=_column_prefix(measure) + "_f", options=options, pins=pins, packages=PACKAGES,
                  columns=tuple(f"{_column_prefix(measure)}_{x}" for x in "rpf"), joins="measures")


def oov_rates(texts: Sequence[str], vectors=None, ns: Sequence[int] = (1, 2)) -> dict[int, float]:
    """Share of the ``n``-gram occurrences in ``texts`` with at least one out-of-vocabulary word.

    Those grams get ``f_WE = 0`` (Ng & Abrecht 2015, Eq. 2), whatever they match; tokens as in
    ``rouge_we``. NaN for an ``n`` with no grams at all.
    """
    wv = load_word_vectors(vectors)
    index = TokenIndex()
    ids = [index.ids(tokens) for tokens in PREPROCESSING.tokens(texts)]
    oov = ~wv.lookup(index.tokens)[1]
    rates = {}
    for n in ns:
        flags = [oov[g].any(axis=1) for g in (GramSpec(n=n).grams(i) for i in ids) if len(g)]
        rates[n] = float(np.concatenate(flags).mean()) if flags else float("nan")
    return rates


# Registry names (``rougelab.metrics.registry``): each registered measure, bare or with a variant's suffix.
_VARIANT_OF = {measure + suffix: (measure, variant) for measure in REGISTERED for variant, suffix in NAME_SUFFIX.items()}
NAMES = tuple(_VARIANT_OF)


def make(name: str) -> Metric | None:
    """The registry's ``Metric`` called ``name``, or None if it is not a ROUGE-WE name."""
    if name not in _VARIANT_OF:
        return None
    measure, variant = _VARIANT_OF[name]
    return rouge_we_metric(measure, variant=variant)
