"""WIDAR_K^x = (1 - lambda) x IDSS + lambda x ROUGE-K_W^x (Jain et al. 2022, Eq. 9).

Scoring is split in two so that a sweep over lambda, theta1 and theta2 costs almost nothing:

* ``widar_components`` does all text work once: for every (summary, reference) the unweighted
  sentence-level matches per reference sentence (ROUGE-1, -2, -L); for every (reference, source)
  the LCS matrices that Algorithm 1 thresholds; for every summary the IDSS. Each item is cached
  on disk by content hash (``paths.cache_dir("widar")``).
* ``combine`` turns components into scores for one configuration (K, lambda, theta1, theta2,
  which weights) with array arithmetic.

Multi-reference: WIDAR is computed against each reference and the scores are averaged
(``multiref="mean"``, the authors' code); ``"max"`` keeps the best reference.
Data-driven lambda (footnote 7): ``lam="max"`` or ``"mean"`` sets lambda, per reference, to the
maximum or mean of its coverage weights.
"""
from __future__ import annotations

import inspect

from dataclasses import dataclass
from itertools import chain
from typing import Callable, NamedTuple, Sequence

import numpy as np
import pandas as pd

from rougelab.metrics.widar import weights as W
from rougelab.metrics.widar.cache import ItemCache, text_key
from rougelab.metrics.widar.idss import idss as idss_scores
from rougelab.metrics.widar.sentence_rouge import SentenceHits, lcs_hits, ngram_hits, weighted_prf
from rougelab.metrics.widar.tokenize import split_sentences, weighted_preprocessing
from rougelab.scoring import InputError, check_batch
from rougelab.text.preprocessing import Preprocessing
from rougelab.text.tokenizers import UNICODE_ROUGE, warn_dropped_letters
from rougelab.validation import check_float

ORDERS = ("1", "2", "l")


class ReferenceStats(NamedTuple):
    """What Algorithm 1 needs from one (reference, source) pair, for any threshold."""

    lcs_rd: np.ndarray           # (|R|, |D|) LCS(r_i, d_j), rouge-score tokens
    lcs_rr: np.ndarray           # (|R|, |R|) LCS(r_i, r_j)
    reference_lengths: np.ndarray
    source_lengths: np.ndarray


@dataclass
class WidarComponents:
    """Everything ``combine`` needs for a batch; ``hits[k][i][j]`` is summary i against its reference j."""

    hits: dict[str, list[list[SentenceHits]]]
    stats: list[list[ReferenceStats]]
    idss: np.ndarray
    options: dict

    def __len__(self) -> int:
        return len(self.idss)


def _check(summaries, references, sources) -> None:
    if sources is None:
        raise InputError("WIDAR reads the source document: pass sources=[...]")
    check_batch(summaries, references, sources, needs_source=True)
    for i, refs in enumerate(references):
        for j, ref in enumerate(refs):
            if not ref.strip():
                raise InputError(f"reference {j} of summary {i} is empty: drop it or give its text")


def _warn_dropped_letters(summaries, references, sources) -> None:
    warn_dropped_letters(chain(summaries, chain.from_iterable(references), sources),
                         "WIDAR (the authors' tokens: runs of a-z and 0-9)", UNICODE_ROUGE)


def widar_components(summaries: Sequence[str], references: Sequence[Sequence[str]], sources: Sequence[str], *,
                     orders: Sequence[str] = ORDERS, splitter: str = "period", stemmer: str | None = "snowball",
                     ngram_denominator: str = "distinct", lcs_denominator: str = "tokens",
                     similarity: str | Callable = "rouge-score-l", cache: bool = True) -> WidarComponents:
    """Compute (or read from the cache) every text-dependent part of WIDAR for a batch.

    Parameters
    ----------
    summaries, references, sources : the batch (one list of references per summary).
    orders : which ROUGE-K_W to prepare, from ``"1"``, ``"2"``, ``"l"``.
    splitter : a ``rougelab.text.split_sentences`` splitter: ``"period"`` (split on ". ", the authors' code,
        the default) or ``"newline"``, ``"nltk"``, ``"none"``.
    stemmer : weighted ROUGE's stemmer, any name ``rougelab.rouge.rouge`` takes: ``"snowball"`` (NLTK's
        English Snowball, the authors' code; ``"snowball:<language>"``), ``"porter"``, ``"rouge155"``, or
        None (no stemming); tokens are rouge-score's (``tokenize.weighted_preprocessing``). The ROUGE-L of
        Algorithm 1 and IDSS always read text as rouge-score with ``use_stemmer=True`` does.
    ngram_denominator, lcs_denominator : see ``sentence_rouge``.
    similarity : IDSS similarity, see ``idss``.
    cache : read and write the disk cache.
    """
    _check(summaries, references, sources)
    _warn_dropped_letters(summaries, references, sources)
    for k in orders:
        if k not in ORDERS:
            raise InputError(f"WIDAR order must be one of {ORDERS}, not {k!r}")
    weighted = weighted_preprocessing(stemmer, splitter)
    rouge_score = Preprocessing("rouge-score", "porter", splitter=weighted.splitter)
    options = {"splitter": splitter, "stemmer": stemmer, "preprocessing": weighted.signature,
               "ngram_denominator": ngram_denominator, "lcs_denominator": lcs_denominator,
               "similarity": similarity if isinstance(similarity, str) else getattr(similarity, "__name__", "callable")}
    tokens_memo: dict[tuple[str, bool, Preprocessing], list[list[str]]] = {}

    def sentence_tokens(text: str, *, source: bool = False, preprocessing: Preprocessing = weighted) -> list[list[str]]:
        key = (text, source, preprocessing)
        if key not in tokens_memo:
            tokens_memo[key] = preprocessing.tokens(split_sentences(text, drop_blank=source,
                                                                     preprocessing=preprocessing))
        return tokens_memo[key]

    hits: dict[str, list[list[SentenceHits]]] = {}
    for k in orders:
        store = ItemCache(f"hits{k}", {name: v for name, v in options.items()
                                       if name not in ("similarity", "splitter", "stemmer")}, enabled=cache)
        per_summary = []
        for summary, refs in zip(summaries, references):
            row = []
            for ref in refs:
                key = text_key(summary, ref)
                value = store.get(key)
                if value is None:
                    s, r = sentence_tokens(summary), sentence_tokens(ref)
                    if k == "l":
                        found = lcs_hits(s, r, denominator=lcs_denominator)
                    else:
                        found = ngram_hits(s, r, int(k), denominator=ngram_denominator)
                    value = [found.hits.tolist(), found.reference_size, found.summary_size]
                    store.put(key, value)
                row.append(SentenceHits(np.asarray(value[0], dtype=float), value[1], value[2]))
            per_summary.append(row)
        store.save()
        hits[k] = per_summary

    store = ItemCache("refstats", {"preprocessing": rouge_score.signature}, enabled=cache)
    shared: dict[str, ReferenceStats] = {}
    stats = []
    for refs, source in zip(references, sources):
        row = []
        for ref in refs:
            key = text_key(ref, source)
            if key not in shared:
                value = store.get(key)
                if value is None:
                    r = sentence_tokens(ref, preprocessing=rouge_score)
                    d = sentence_tokens(source, source=True, preprocessing=rouge_score)
                    value = [W.lcs_matrix(r, d).tolist(), W.lcs_matrix(r, r).tolist(),
                             [len(t) for t in r], [len(t) for t in d]]
                    store.put(key, value)
                n_r, n_d = len(value[2]), len(value[3])
                shared[key] = ReferenceStats(np.asarray(value[0], dtype=float).reshape(n_r, n_d),
                                             np.asarray(value[1], dtype=float).reshape(n_r, n_r),
                                             np.asarray(value[2], dtype=float), np.asarray(value[3], dtype=float))
            row.append(shared[key])
        stats.append(row)
    store.save()

    return WidarComponents(hits, stats, idss_scores(summaries, sources, similarity, cache=cache), options)


def reference_weights(stats: ReferenceStats, *, theta1: float = 0.1, theta2: float = 0.3, weights: str = "both",
                      coverage_target: str = "source", redundancy_target: str = "self",
                      redundancy_denominator: str = "others") -> tuple[np.ndarray, np.ndarray]:
    """(w_i of Eq. 1 or an ablation of it, w_cov) for one reference (Algorithm 1)."""
    coverage = W.coverage_weights(stats.lcs_rd, stats.reference_lengths, stats.source_lengths, theta1,
                                  coverage_target=coverage_target)
    redundancy = W.redundancy_weights(stats.lcs_rr, stats.reference_lengths, theta2,
                                      redundancy_target=redundancy_target,
                                      redundancy_denominator=redundancy_denominator)
    return W.combined_weights(coverage, redundancy, use=weights), coverage


def combine(components: WidarComponents, k: str = "l", *, lam: float | str = 0.5, theta1: float = 0.1,
            theta2: float = 0.3, weights: str = "both", multiref: str = "mean", coverage_target: str = "source",
            redundancy_target: str = "self", redundancy_denominator: str = "others") -> pd.DataFrame:
    """WIDAR_K^x for x in r, p, f (Eq. 9) from precomputed components.

    Parameters
    ----------
    k : ``"1"``, ``"2"`` or ``"l"``.
    lam : lambda in [0, 1], or ``"max"`` / ``"mean"`` of the reference's coverage weights.
        ``lam=1`` gives weighted ROUGE alone, ``lam=0`` IDSS alone.
    theta1, theta2 : Algorithm 1's thresholds.
    weights : ``"both"`` (Eq. 1), ``"coverage"``, ``"redundancy"`` or ``"none"`` (Table 5 ablations).
    multiref : ``"mean"`` (authors' code) or ``"max"`` over the references (each column separately).

    Returns
    -------
    DataFrame with columns ``r``, ``p``, ``f``, one row per summary.
    """
    if k not in components.hits:
        raise InputError(f"components were computed without ROUGE-{k.upper()}; pass orders including {k!r}")
    if isinstance(lam, str):
        if lam not in ("max", "mean"):
            raise InputError(f"lam must be a number in [0, 1], 'max' or 'mean', not {lam!r}")
    else:
        lam = check_float(lam, "lam", low=0, high=1, hint=", 'max' or 'mean'")
    theta1, theta2 = (check_float(theta, name, low=0, high=1, hint=" (a threshold on ROUGE-L recall)")
                      for name, theta in (("theta1", theta1), ("theta2", theta2)))
    if multiref not in ("mean", "max"):
        raise InputError(f"multiref must be 'mean' or 'max', not {multiref!r}")
    weight_options = dict(theta1=theta1, theta2=theta2, weights=weights, coverage_target=coverage_target,
                          redundancy_target=redundancy_target, redundancy_denominator=redundancy_denominator)
    memo: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    out = np.zeros((len(components), 3))
    for i, (row_hits, row_stats) in enumerate(zip(components.hits[k], components.stats)):
        per_reference = np.empty((len(row_hits), 3))
        for j, (found, stats) in enumerate(zip(row_hits, row_stats)):
            if id(stats) not in memo:  # one ReferenceStats object per distinct (reference, source)
                memo[id(stats)] = reference_weights(stats, **weight_options)
            w, coverage = memo[id(stats)]
            if isinstance(lam, str):
                lam_j = float(coverage.max() if lam == "max" else coverage.mean()) if coverage.size else 0.0
            else:
                lam_j = lam
            per_reference[j] = (1 - lam_j) * components.idss[i] + lam_j * np.asarray(weighted_prf(found, w))
        out[i] = per_reference.mean(axis=0) if multiref == "mean" else per_reference.max(axis=0)
    return pd.DataFrame(out, columns=["r", "p", "f"])


_COMPONENT_KEYS = ("splitter", "stemmer", "ngram_denominator", "lcs_denominator", "similarity", "cache")


def _split_options(options: dict) -> tuple[dict, dict]:
    combination_keys = set(inspect.signature(combine).parameters) - {"components", "k"}
    unknown = sorted(set(options) - set(_COMPONENT_KEYS) - combination_keys)
    if unknown:
        raise InputError(f"WIDAR has no option {', '.join(map(repr, unknown))}; its options: "
                         f"{', '.join(sorted({*_COMPONENT_KEYS, *combination_keys}))}")
    component = {k: v for k, v in options.items() if k in _COMPONENT_KEYS}
    return component, {k: v for k, v in options.items() if k not in _COMPONENT_KEYS}


def widar(summaries, references, sources, *, k: str = "l", **options) -> pd.DataFrame:
    """WIDAR_K^r, ^p, ^f (Eq. 9) of each summary: columns ``widar{k}_r``, ``widar{k}_p``, ``widar{k}_f``.

    Options are those of ``widar_components`` and ``combine``; defaults follow the authors' code
    (lambda 0.5, theta1 0.1, theta2 0.3, mean over references). An empty summary scores 0.
    """
    component, combination = _split_options(options)
    table = combine(widar_components(summaries, references, sources, orders=(k,), **component), k, **combination)
    return table.add_prefix(f"widar{k}_")


def weighted_rouge(summaries, references, sources, *, k: str = "l", weights: str = "both", **options) -> pd.DataFrame:
    """ROUGE-K_W (``weights="both"``), its ablations (``"coverage"``, ``"redundancy"``) or ROUGE-K_SL
    (``"none"``): Eq. 9 with lambda = 1. Columns ``rouge{k}w_*`` (``rouge{k}sl_*`` for ``"none"``)."""
    component, combination = _split_options(options)
    table = combine(widar_components(summaries, references, sources, orders=(k,), **component), k,
                    lam=1.0, weights=weights, **combination)
    return table.add_prefix(f"rouge{k}{'sl' if weights == 'none' else 'w'}_")


def idss_only(summaries, references, sources, *, similarity: str | Callable = "rouge-score-l",
              cache: bool = True) -> pd.DataFrame:
    """IDSS alone (Eq. 8; Table 5's last row): column ``idss``. The references are not read."""
    _check(summaries, references, sources)
    _warn_dropped_letters(summaries, [], sources)
    return pd.DataFrame({"idss": idss_scores(summaries, sources, similarity, cache=cache)})
