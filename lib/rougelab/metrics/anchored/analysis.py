"""Read-along helpers for Anchored ROUGE: anchor sets shown as a table (Figure 2) and
reference subsets for the robustness test (Table 2)."""
from __future__ import annotations

import itertools
from typing import Sequence

import numpy as np
import pandas as pd

from rougelab.metrics.anchored.anchors import anchor_sets, eq1_terms
from rougelab.metrics.anchored.particles import particles
from rougelab.metrics.anchored.protocol import BagMetric


def anchor_table(summary: str, source: str, *, encoder, form: str = "2", k: int = 3, stem: bool = True,
                 stopwords: bool = False, contains: str | None = None) -> pd.DataFrame:
    """The anchor set of every summary particle (Figure 2): one row per (particle, rank).

    Columns: particle, rank (1 = strongest), anchor, strength (q_si). Particles are shown as their
    ROUGE forms (stemmed when ``stem``), joined by spaces; ``contains`` keeps the particles whose
    text contains that string.
    """
    summary_emb, source_emb = encoder.encode([summary, source])
    peer = particles(summary_emb, form, stem=stem, stopwords=stopwords)
    doc = particles(source_emb, form, stem=stem, stopwords=stopwords)
    anchors = anchor_sets(peer, doc, k)
    rows = []
    for s, key in enumerate(peer.keys):
        text = " ".join(key)
        if contains is not None and contains not in text:
            continue
        for rank, (d, q) in enumerate(zip(anchors.index[s], anchors.strength[s]), start=1):
            rows.append({"particle": text, "rank": rank, "anchor": " ".join(doc.keys[d]), "strength": float(q)})
    return pd.DataFrame(rows, columns=["particle", "rank", "anchor", "strength"])


def reference_subsets(n_references: int, n: int, max_subsets: int | None = None, seed: int = 0) -> list[tuple[int, ...]]:
    """The n-subsets of ``range(n_references)`` (Table 2 averages over all C(N, n) of them).

    With ``max_subsets`` smaller than C(N, n), a seeded random sample of that many distinct subsets,
    in lexicographic order.
    """
    if not 1 <= n <= n_references:
        raise ValueError(f"n must be between 1 and {n_references}, got {n}")
    every = list(itertools.combinations(range(n_references), n))
    if max_subsets is None or len(every) <= max_subsets:
        return every
    chosen = np.random.default_rng(seed).choice(len(every), size=max_subsets, replace=False)
    return [every[i] for i in sorted(chosen)]


def subset_recall(subsets: Sequence[tuple[int, ...]]) -> BagMetric:
    """A bag metric for ``score_anchored``: Eq. 1 recall against each subset of the references.

    Column suffix ``s{j}`` holds the recall against ``subsets[j]`` (reference positions).
    """
    largest = max(max(s) for s in subsets)

    def metric(peer, references):
        if largest >= len(references):
            raise ValueError(f"a subset names reference {largest}, but this summary has {len(references)} references")
        terms = [eq1_terms(peer, ref) for ref in references]  # Eq. 1 sums over references: add the terms
        out = {}
        for j, subset in enumerate(subsets):
            matched = sum(terms[i][0] for i in subset)
            total = sum(terms[i][1] for i in subset)
            out[f"s{j}"] = matched / total if total > 0 else 0.0
        return out
    return metric
