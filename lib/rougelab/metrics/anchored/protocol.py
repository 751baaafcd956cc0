"""The source-anchoring protocol (Anchored ROUGE, section 1 and Figure 1): any gram-level metric, anchored.

A gram-level metric compares Counter-like bags of summary grams. The protocol replaces each
summary's bag by its T-bag over source particles (Eq. 2: every summary particle spreads its count
w_s over its k anchors with strengths q_si) and hands those bags to the same comparison. Anchored
ROUGE is this protocol with ``anchors.anchored_overlap`` (Eq. 1); any other function
``bag_metric(peer_bag, reference_bags) -> {suffix: value}`` gives another "active" metric.

Choices where the paper is silent (see ``particles`` and ``anchors`` for the rest):

- the peer, each reference and each source document are encoded separately, each in its own context;
- a multi-document source (a list of texts for one summary) pools the particles of its documents;
- sources and references are anchored once per (source, text) pair and reused across summaries.
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from rougelab.metrics.anchored.anchors import AnchorSets, anchor_sets, transfer
from rougelab.metrics.anchored.particles import FORMS, Particles, particles
from rougelab.metrics.base import InputError
from rougelab.text.tokenizers import UNICODE_ROUGE, warn_dropped_letters
from rougelab.validation import check_int

BagMetric = Callable[[Mapping, Sequence[Mapping]], Mapping[str, float]]


def _source_texts(source, i: int) -> list[str]:
    texts = [source] if isinstance(source, str) else list(source)
    if not texts or not all(isinstance(t, str) for t in texts):
        raise InputError(f"sources[{i}] must be a text or a non-empty list of texts (multi-document source)")
    if not any(t.strip() for t in texts):
        raise InputError(f"sources[{i}] is empty: anchored metrics need the source document to anchor on")
    return texts


def score_anchored(bag_metric: BagMetric, summaries: Sequence[str], references: Sequence[Sequence[str]],
                   sources: Sequence, *, encoder, prefix: str, form: str = "1", k: int | Sequence[int] = 5,
                   stem: bool = True, stopwords: bool = False, skip_distance: int = 4,
                   summary_unit: str = "type", source_unit: str = "type") -> pd.DataFrame:
    """Score each summary with ``bag_metric`` applied to source-anchored T-bags.

    Parameters
    ----------
    bag_metric : ``f(peer_bag, [reference_bag, ...]) -> {suffix: value}``; bags map source particle
        keys to T (Eq. 2), keys absent mean 0.
    summaries, references, sources : the batch; ``sources[i]`` is a text or a list of texts.
    encoder : an object with ``encode(texts) -> list[TokenEmbeddings]`` (``ContextualEncoder``).
    prefix : column prefix; columns are ``f"{prefix}_{suffix}"``.
    form, stem, stopwords, skip_distance : particle form and ROUGE token options.
    k : anchor set size; a list of sizes scores them all in one pass (anchors are found once, for
        the largest), with columns ``f"{prefix}_k{k}_{suffix}"``.
    summary_unit, source_unit : ``"type"`` or ``"occurrence"`` for summary and source particles.

    Returns
    -------
    DataFrame with one row per summary.
    """
    if form not in FORMS:
        raise ValueError(f"unknown particle form {form!r}; choose one of {FORMS}")
    ks = [check_int(size, "k", minimum=1, hint=" (the anchor set size)") for size in ([k] if np.ndim(k) == 0 else k)]
    if not ks:
        raise InputError("k=[]: give at least one anchor set size")
    options = dict(stem=stem, stopwords=stopwords, skip_distance=skip_distance)
    source_lists = [_source_texts(s, i) for i, s in enumerate(sources)]
    texts = list(dict.fromkeys([*summaries, *(r for refs in references for r in refs),
                                *(t for docs in source_lists for t in docs)]))
    warn_dropped_letters(texts, "Anchored ROUGE's tokenisation (ROUGE-1.5.5's)", UNICODE_ROUGE)
    embedded = dict(zip(texts, encoder.encode(texts)))

    source_cache: dict[tuple, Particles] = {}
    bag_cache: dict[tuple, dict] = {}

    def bags(text: str, docs: tuple[str, ...]) -> list[dict]:
        """T-bags of ``text`` anchored on ``docs``, one per k in ``ks``."""
        key = (text, docs)
        if key not in bag_cache:
            if docs not in source_cache:
                source_cache[docs] = particles([embedded[d] for d in docs], form, unit=source_unit, **options)
            source = source_cache[docs]
            summary = particles(embedded[text], form, unit=summary_unit, **options)
            widest = anchor_sets(summary, source, max(ks))
            bag_cache[key] = [transfer(summary, AnchorSets(widest.index[:, :size], widest.strength[:, :size]),
                                       source) for size in ks]
        return bag_cache[key]

    rows = []
    # The cosine products are small: multi-threaded BLAS only contends for the cores (measured 30x slower).
    with threadpool_limits(limits=1, user_api="blas"):
        for summary, refs, docs in zip(summaries, references, source_lists):
            docs = tuple(docs)
            peer, ref_bags = bags(summary, docs), [bags(r, docs) for r in refs]
            row = {}
            for position, size in enumerate(ks):
                result = bag_metric(peer[position], [b[position] for b in ref_bags])
                label = prefix if isinstance(k, (int, np.integer)) else f"{prefix}_k{size}"
                row.update({f"{label}_{suffix}": float(value) for suffix, value in result.items()})
            rows.append(row)
    return pd.DataFrame(rows, index=np.arange(len(rows)))
