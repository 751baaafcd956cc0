"""Coverage and redundancy weights of reference sentences: Algorithm 1 and Eq. 1 of Jain et al. (2022).

Both weights threshold a ROUGE-L recall (rouge-score's ``rougeL``: LCS over the whole sentence).
They are computed from LCS-length matrices, so one matrix serves every threshold of a sweep.

Defaults follow the authors' released code (github.com/Raghav10j/WIDAR); the paper's text is available
by name:

* coverage: recall of r_i against d_j with **d_j as the target**, ``LCS(r_i, d_j) / |d_j|``
  (``coverage_target="source"``); ``"reference"`` divides by ``|r_i|`` instead.
* redundancy: recall with **r_i as the target**, ``LCS(r_i, r_j) / |r_i|``
  (``redundancy_target="self"``); ``"other"`` divides by ``|r_j|``. The count of similar other
  sentences is divided by ``|R| - 1`` (``redundancy_denominator="others"``, the code) or by ``|R|``
  (``"all"``, Algorithm 1's text). A one-sentence reference gets redundancy weight 1 either way.
"""
from __future__ import annotations

import numpy as np

from rougelab.metrics.base import InputError
from rougelab.rouge.lcs import lcs_length


def lcs_matrix(rows: list[list[str]], columns: list[list[str]]) -> np.ndarray:
    """``M[i, j] = LCS(rows[i], columns[j])`` in tokens (0 when either side is empty)."""
    out = np.zeros((len(rows), len(columns)))
    for i, a in enumerate(rows):
        if not a:
            continue
        for j, b in enumerate(columns):
            if b:
                out[i, j] = lcs_length(a, b)
    return out


def _recall(lcs: np.ndarray, target_lengths: np.ndarray) -> np.ndarray:
    """LCS / |target| with 0 for an empty target (rouge-score returns 0 there)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(target_lengths > 0, lcs / np.where(target_lengths > 0, target_lengths, 1), 0.0)


def coverage_weights(lcs_rd: np.ndarray, reference_lengths, source_lengths, theta1: float, *,
                     coverage_target: str = "source") -> np.ndarray:
    """w_cov_i = |{d_j : ROUGE-L^r(r_i, d_j) >= theta1}| / |D| (Algorithm 1, first loop).

    Parameters
    ----------
    lcs_rd : (|R|, |D|) LCS lengths between reference sentence i and source sentence j.
    reference_lengths, source_lengths : token counts of the sentences.
    theta1 : coverage threshold (0.1 in the paper).
    coverage_target : ``"source"`` (code: recall over d_j) or ``"reference"`` (over r_i).

    Returns
    -------
    (|R|,) array in [0, 1]. With no source sentence (empty source) every weight is 0.
    """
    lcs_rd = np.asarray(lcs_rd, dtype=float).reshape(len(reference_lengths), len(source_lengths))
    if lcs_rd.shape[1] == 0:
        return np.zeros(lcs_rd.shape[0])
    if coverage_target == "source":
        recall = _recall(lcs_rd, np.asarray(source_lengths, dtype=float)[None, :])
    elif coverage_target == "reference":
        recall = _recall(lcs_rd, np.asarray(reference_lengths, dtype=float)[:, None])
    else:
        raise InputError(f"coverage_target must be 'source' or 'reference', not {coverage_target!r}")
    return (recall >= theta1).mean(axis=1)


def redundancy_weights(lcs_rr: np.ndarray, reference_lengths, theta2: float, *,
                       redundancy_target: str = "self", redundancy_denominator: str = "others") -> np.ndarray:
    """w_red_i = 1 - |{r_j, j != i : ROUGE-L^r(r_i, r_j) >= theta2}| / (|R| - 1) (Algorithm 1, second loop).

    Parameters
    ----------
    lcs_rr : (|R|, |R|) LCS lengths between reference sentences.
    reference_lengths : token counts of the reference sentences.
    theta2 : redundancy threshold (0.3 in the paper).
    redundancy_target : ``"self"`` (code: recall over r_i) or ``"other"`` (over r_j).
    redundancy_denominator : ``"others"`` (code: |R| - 1) or ``"all"`` (Algorithm 1's text: |R|).

    Returns
    -------
    (|R|,) array in [0, 1]; ``[1.0]`` for a one-sentence reference.
    """
    lengths = np.asarray(reference_lengths, dtype=float)
    size = len(lengths)
    if size <= 1:
        return np.ones(size)
    lcs_rr = np.asarray(lcs_rr, dtype=float).reshape(size, size)
    if redundancy_target == "self":
        recall = _recall(lcs_rr, lengths[:, None])
    elif redundancy_target == "other":
        recall = _recall(lcs_rr, lengths[None, :])
    else:
        raise InputError(f"redundancy_target must be 'self' or 'other', not {redundancy_target!r}")
    similar = (recall >= theta2) & ~np.eye(size, dtype=bool)
    if redundancy_denominator == "others":
        denominator = size - 1
    elif redundancy_denominator == "all":
        denominator = size
    else:
        raise InputError(f"redundancy_denominator must be 'others' or 'all', not {redundancy_denominator!r}")
    return 1.0 - similar.sum(axis=1) / denominator


def combined_weights(coverage: np.ndarray, redundancy: np.ndarray, *, use: str = "both") -> np.ndarray:
    """w_i = (w_cov_i + w_red_i) / 2 x |R| (Eq. 1), not renormalised, as in the authors' code.

    ``use`` selects the ablations of Table 5: ``"both"`` (Eq. 1), ``"coverage"`` (the row
    "-W_red": w_cov_i x |R|), ``"redundancy"`` ("-W_cov": w_red_i x |R|) and ``"none"``
    (every w_i = 1: sentence-level ROUGE, ROUGE-L_SL).
    """
    size = len(coverage)
    if use == "both":
        return (np.asarray(coverage) + np.asarray(redundancy)) / 2 * size
    if use == "coverage":
        return np.asarray(coverage, dtype=float) * size
    if use == "redundancy":
        return np.asarray(redundancy, dtype=float) * size
    if use == "none":
        return np.ones(size)
    raise InputError(f"weights must be 'both', 'coverage', 'redundancy' or 'none', not {use!r}")
