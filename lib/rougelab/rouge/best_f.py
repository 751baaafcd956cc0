"""rouge-score's multi-reference rule (``RougeScorer.score_multi``): per measure, the reference with the best F.

rouge-score 0.1.2 scores the summary against each reference alone and keeps, for every ROUGE type
separately, the (P, R, F) of the first reference with the highest F (``np.argmax``); nothing is rounded.
"""
from __future__ import annotations

import numpy as np

from rougelab._jit import jit
from rougelab.scoring import prf


@jit
def best_f_rpf(stats, bounds, is_w, weights, alpha):
    """(summaries x measures x 3) R/P/F: summary i owns pairs ``bounds[i]:bounds[i+1]`` of ``stats``
    (``pair_stats``: model count, hit, peer count per pair and measure); each pair's R = hit / model,
    P = hit / peer (0 for an empty side; ROUGE-W: f^-1 of both, Lin 2004 eqs. 13-14) and
    F = P R / ((1 - alpha) P + alpha R) (``rougelab.scoring.prf``; at alpha = 0.5 rouge-score's
    ``2 P R / (P + R)`` to the last bit, so ties between references break as they do there); the first
    reference with the highest F wins."""
    n_measures = stats.shape[1]
    out = np.zeros((len(bounds) - 1, n_measures, 3))
    for i in range(len(bounds) - 1):
        for k in range(n_measures):
            best_f = -1.0
            for q in range(bounds[i], bounds[i + 1]):
                model = stats[q, k, 0]
                hit = stats[q, k, 1]
                peer = stats[q, k, 2]
                r, p, f = prf(hit, model, peer, alpha, None, weights[k] if is_w[k] else 1.0)
                if f > best_f:
                    best_f = f
                    out[i, k, 0] = r
                    out[i, k, 1] = p
                    out[i, k, 2] = f
    return out
