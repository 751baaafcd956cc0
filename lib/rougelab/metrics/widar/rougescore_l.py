"""rouge-score's ``rougeL``: one LCS over the whole token sequences (no sentence split).

WIDAR's authors call ``rouge_scorer.RougeScorer(['rougeL'], use_stemmer=True).score(target,
prediction)`` for the ROUGE-L recall of Algorithm 1 and for IDSS (Eq. 8). This is that score,
built from ``rouge_score_tokens`` and ``rougelab.rouge.lcs.lcs_length``:
P = LCS / |prediction|, R = LCS / |target|, F = 2PR / (P + R); all three are 0 when either
side has no tokens or nothing matches.
"""
from __future__ import annotations

from typing import NamedTuple

from rougelab.rouge.lcs import lcs_length


class LCSScore(NamedTuple):
    precision: float
    recall: float
    fmeasure: float


def rouge_l(target: list[str], prediction: list[str]) -> LCSScore:
    """ROUGE-L of token lists ``prediction`` against ``target`` (rouge-score's ``rougeL``)."""
    if not target or not prediction:
        return LCSScore(0.0, 0.0, 0.0)
    hits = lcs_length(target, prediction)
    if hits == 0:
        return LCSScore(0.0, 0.0, 0.0)
    precision = hits / len(prediction)
    recall = hits / len(target)
    return LCSScore(precision, recall, 2 * precision * recall / (precision + recall))
