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
from rougelab.scoring import prf


class LCSScore(NamedTuple):
    precision: float
    recall: float
    fmeasure: float


def rouge_l(target: list[str], prediction: list[str]) -> LCSScore:
    """ROUGE-L of token lists ``prediction`` against ``target`` (rouge-score's ``rougeL``)."""
    if not target or not prediction:
        return LCSScore(0.0, 0.0, 0.0)
    recall, precision, f = prf(lcs_length(target, prediction), len(target), len(prediction))
    return LCSScore(precision, recall, f)
