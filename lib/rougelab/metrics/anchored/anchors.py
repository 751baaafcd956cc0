"""Anchor sets and the function T (Anchored ROUGE, section 2, Eq. 2), and the overlap of Eq. 1.

Choices where the paper is silent, each documented here and in notebook 05:

- strength q_si is the cosine similarity, clipped at 0 (a dissimilar source particle lends no
  weight; with it, T >= 0 and Eq. 1 stays within [0, 1]);
- ties in cosine go to the source particle that occurs first in the source (stable order);
- with fewer than k source particles of the form, the anchor set is all of them.
"""
from __future__ import annotations

from typing import Mapping, NamedTuple, Sequence

import numpy as np

from rougelab.metrics.anchored.particles import Particles
from rougelab.scoring import GramCounts, prf


class AnchorSets(NamedTuple):
    """``index[s]``: the rows of the source particles anchoring summary particle s (best first);
    ``strength[s]``: their strengths q_s1 >= q_s2 >= ... (clipped cosines)."""

    index: np.ndarray
    strength: np.ndarray


def anchor_sets(summary: Particles, source: Particles, k: int = 5) -> AnchorSets:
    """A_s = the top-k source particles by cosine with s, and their strengths q_si (section 2, steps 1-2)."""
    if k < 1:
        raise ValueError(f"the anchor set size k must be >= 1, got {k}")
    if len(summary) == 0 or len(source) == 0:
        return AnchorSets(np.zeros((len(summary), 0), dtype=int), np.zeros((len(summary), 0)))
    cosine = summary.vectors @ source.vectors.T
    k = min(k, len(source))
    index = top_k(cosine, k)
    strength = np.clip(np.take_along_axis(cosine, index, axis=1), 0.0, None)
    return AnchorSets(index, strength)


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Column indices of the k largest entries of each row, largest first, ties to the lower index.

    Same result as ``np.argsort(-scores, kind="stable")[:, :k]``, in O(columns) per row.
    """
    m, n = scores.shape
    if k >= n:
        return np.argsort(-scores, axis=1, kind="stable")
    kth = -np.partition(-scores, k - 1, axis=1)[:, k - 1:k]  # the k-th largest value of each row
    above = scores > kth
    tied = scores == kth
    room = k - above.sum(axis=1, keepdims=True)
    chosen = above | (tied & (np.cumsum(tied, axis=1) <= room))
    candidates = np.nonzero(chosen)[1].reshape(m, k)  # in column order within each row
    order = np.argsort(-np.take_along_axis(scores, candidates, axis=1), axis=1, kind="stable")
    return np.take_along_axis(candidates, order, axis=1)


def transfer(summary: Particles, anchors: AnchorSets, source: Particles) -> dict:
    """Eq. 2: T(d, summ) = sum over s in summ and i <= k of delta(d, d_si) * w_s * q_si.

    Returns the bag {source particle key: T} (``GramCounts``) holding the particles with T > 0.
    """
    totals = np.zeros(len(source))
    np.add.at(totals, anchors.index.ravel(), (summary.weights[:, None] * anchors.strength).ravel())
    return GramCounts({source.keys[d]: float(totals[d]) for d in np.flatnonzero(totals > 0)})


def eq1_terms(peer: Mapping, reference: Mapping) -> tuple[float, float]:
    """One reference's terms of Eq. 1: sum_{d in C_ref} min(T(d, peer), T(d, ref)) and sum_{d in C_ref} T(d, ref)."""
    return GramCounts(reference).clipped_overlap(peer), sum(reference.values())


def anchored_overlap(peer: Mapping, references: Sequence[Mapping]) -> dict[str, float]:
    """Eq. 1 (recall) with the matching precision and F, from T-bags of the peer and each reference.

    r = sum_ref sum_{d in C_ref} min(T(d, peer), T(d, ref)) / sum_ref sum_{d in C_ref} T(d, ref)  (Eq. 1)
    p = the same numerator / sum_ref sum_{d in C_peer} T(d, peer)
    f = 2pr / (p + r) (``rougelab.scoring.prf``). A zero denominator (empty summary or references) gives 0.
    """
    terms = [eq1_terms(peer, ref) for ref in references]
    matched = sum(m for m, _ in terms)
    ref_total = sum(t for _, t in terms)
    peer_total = len(references) * sum(peer.values())
    r, p, f = prf(matched, ref_total, peer_total)
    return {"r": r, "p": p, "f": f}
