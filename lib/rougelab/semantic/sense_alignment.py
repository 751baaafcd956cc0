"""Which sense of each word ROUGE-G compares (ShafieiBavani et al. 2018, section 3.4)."""
from __future__ import annotations

import numpy as np


def align_senses(best: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Alignment-based sense selection (section 3.4; Pilehvar et al. 2013).

    A word, paired with a text of the other side, takes its sense most similar to any sense of any
    word of that text; a word none of whose senses meets that text (similarity 0) keeps its first,
    most frequent, sense. Ties go to the earlier sense in WordNet's order. The choice depends on the
    word and the other text only, so one call serves every pair of texts of a document.

    Parameters
    ----------
    best : (s, t) array
        ``best[i, j]``: the largest Sim_sem between sense ``i`` (senses grouped by word) and any sense
        of text ``j`` of the other side; 0 if that text has no sense.
    starts : int array
        Word ``k`` owns the senses (rows of ``best``) ``starts[k]:starts[k + 1]``, none for a word
        WordNet lacks; ``starts[-1] == s``.

    Returns
    -------
    (words, t) int array: the chosen row of word ``k`` against text ``j``; ``-1`` for a word without senses.
    """
    best = np.asarray(best, dtype=np.float64)
    starts = np.asarray(starts, dtype=np.int64)
    if best.ndim != 2 or len(starts) == 0 or starts[-1] != len(best):
        raise ValueError(f"best must be (s, t) with s = starts[-1]; got shape {best.shape} and starts ending at "
                         f"{starts[-1] if len(starts) else None}")
    counts = np.diff(starts)
    chosen = np.full((len(counts), best.shape[1]), -1, dtype=np.int64)
    has = counts > 0
    if not has.any() or best.shape[1] == 0:
        chosen[has] = starts[:-1][has, None]
        return chosen
    first = starts[:-1][has]
    top = np.repeat(np.maximum.reduceat(best, first, axis=0), counts[has], axis=0)
    row = np.where(best == top, np.arange(len(best))[:, None], len(best))
    chosen[has] = np.minimum.reduceat(row, first, axis=0)
    return chosen
