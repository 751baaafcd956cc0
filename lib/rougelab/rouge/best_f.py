"""rouge-score's multi-reference rule (``RougeScorer.score_multi``): per measure, the reference with the best F.

rouge-score 0.1.2 scores the summary against each reference alone and keeps, for every ROUGE type
separately, the (P, R, F) of the first reference with the highest F (``np.argmax``); nothing is rounded.
"""
from __future__ import annotations

import numpy as np

from rougelab._jit import jit


@jit
def best_f_rpf(stats, bounds, is_w, weights, alpha):
    """(summaries x measures x 3) R/P/F: summary i owns pairs ``bounds[i]:bounds[i+1]`` of ``stats``
    (``batch_pair_stats``: model count, hit, peer count per pair and measure); each pair's R = hit / model,
    P = hit / peer (0 for an empty side; ROUGE-W: f^-1 of both, Lin 2004 eqs. 13-14) and
    F = P R / ((1 - alpha) P + alpha R), computed as rouge-score's ``2 P R / (P + R)`` when alpha = 0.5 so
    that ties between references break as they do there; the first reference with the highest F wins."""
    n_measures = stats.shape[1]
    out = np.zeros((len(bounds) - 1, n_measures, 3))
    for i in range(len(bounds) - 1):
        for k in range(n_measures):
            best_f = -1.0
            for q in range(bounds[i], bounds[i + 1]):
                model = stats[q, k, 0]
                hit = stats[q, k, 1]
                peer = stats[q, k, 2]
                r = hit / model if model > 0 else 0.0
                p = hit / peer if peer > 0 else 0.0
                if is_w[k]:
                    r = r ** (1 / weights[k])
                    p = p ** (1 / weights[k])
                if alpha == 0.5:
                    f = 2 * p * r / (p + r) if p + r > 0 else 0.0
                else:
                    denominator = (1 - alpha) * p + alpha * r
                    f = p * r / denominator if denominator > 0 else 0.0
                if f > best_f:
                    best_f = f
                    out[i, k, 0] = r
                    out[i, k, 1] = p
                    out[i, k, 2] = f
    return out
