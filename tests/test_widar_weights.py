"""Algorithm 1 (coverage and redundancy weights) and Eq. 1 of Jain et al. (2022), worked by hand."""
import numpy as np
import pytest

from rougelab.metrics.base import InputError
from rougelab.metrics.widar.score import reference_weights, widar_components
from rougelab.metrics.widar.weights import combined_weights, coverage_weights, lcs_matrix, redundancy_weights

# Two reference sentences of 3 and 6 tokens, four source sentences of 10, 5, 4 and 20 tokens.
LCS_RD = np.array([[1, 1, 0, 2],
                   [0, 3, 1, 1]])
REF_LEN = [3, 6]
SRC_LEN = [10, 5, 4, 20]


def test_coverage_counts_source_sentences_whose_recall_reaches_theta1():
    # Recall over the source sentence (authors' code): [[.1, .2, 0, .1], [0, .6, .25, .05]];
    # >= 0.1 -> [[1, 1, 0, 1], [0, 1, 1, 0]] -> w_cov = [3/4, 2/4].
    assert coverage_weights(LCS_RD, REF_LEN, SRC_LEN, 0.1) == pytest.approx([0.75, 0.5])
    # Recall over the reference sentence: [[1/3, 1/3, 0, 2/3], [0, 1/2, 1/6, 1/6]] -> [3/4, 3/4].
    assert coverage_weights(LCS_RD, REF_LEN, SRC_LEN, 0.1, coverage_target="reference") == pytest.approx([0.75, 0.75])
    # theta1 = 0 counts every source sentence (0 >= 0), as the code's ">=" does.
    assert coverage_weights(LCS_RD, REF_LEN, SRC_LEN, 0.0) == pytest.approx([1.0, 1.0])
    assert coverage_weights(LCS_RD, REF_LEN, SRC_LEN, 0.7) == pytest.approx([0.0, 0.0])


def test_coverage_with_an_empty_source_is_zero():
    assert coverage_weights(np.zeros((2, 0)), REF_LEN, [], 0.1).tolist() == [0.0, 0.0]


def test_redundancy_counts_other_similar_reference_sentences():
    # Lengths 4, 2, 5; LCS(1,2) = 2, LCS(1,3) = 1, LCS(2,3) = 0. Recall over r_i (the code):
    # row 1: 2/4 = .5 (>= .3), 1/4 -> 1 similar; row 2: 2/2 = 1 -> 1; row 3: 1/5, 0 -> 0.
    # w_red = 1 - count / (|R| - 1) = [1/2, 1/2, 1]; Algorithm 1's text divides by |R|: [2/3, 2/3, 1].
    lcs = np.array([[4, 2, 1], [2, 2, 0], [1, 0, 5]])
    assert redundancy_weights(lcs, [4, 2, 5], 0.3) == pytest.approx([0.5, 0.5, 1.0])
    assert redundancy_weights(lcs, [4, 2, 5], 0.3, redundancy_denominator="all") == pytest.approx([2 / 3, 2 / 3, 1.0])


def test_redundancy_target_side_matters():
    # Lengths 2 and 10, LCS 2: over r_i, r_1 is fully inside r_2 (1.0) but r_2 only 0.2 inside r_1.
    lcs = np.array([[2, 2], [2, 10]])
    assert redundancy_weights(lcs, [2, 10], 0.3).tolist() == [0.0, 1.0]
    assert redundancy_weights(lcs, [2, 10], 0.3, redundancy_target="other").tolist() == [1.0, 0.0]


def test_one_sentence_reference_has_redundancy_weight_one():
    assert redundancy_weights(np.array([[7]]), [7], 0.3).tolist() == [1.0]
    assert redundancy_weights(np.array([[7]]), [7], 0.3, redundancy_denominator="all").tolist() == [1.0]


def test_eq1_and_its_ablations():
    cov, red = np.array([0.75, 0.5]), np.array([0.5, 1.0])
    # Eq. 1: (cov + red) / 2 x |R| = [(0.75 + 0.5) / 2 x 2, (0.5 + 1) / 2 x 2] = [1.25, 1.5].
    assert combined_weights(cov, red) == pytest.approx([1.25, 1.5])
    assert combined_weights(cov, red, use="coverage") == pytest.approx([1.5, 1.0])    # "-W_red"
    assert combined_weights(cov, red, use="redundancy") == pytest.approx([1.0, 2.0])  # "-W_cov"
    assert combined_weights(cov, red, use="none").tolist() == [1.0, 1.0]
    with pytest.raises(InputError, match="weights must be"):
        combined_weights(cov, red, use="sum")


def test_bad_option_names_are_refused():
    with pytest.raises(InputError, match="coverage_target"):
        coverage_weights(LCS_RD, REF_LEN, SRC_LEN, 0.1, coverage_target="summary")
    with pytest.raises(InputError, match="redundancy_denominator"):
        redundancy_weights(np.eye(2), [1, 1], 0.3, redundancy_denominator="half")


def test_lcs_matrix():
    rows = [["the", "cat", "sat"], []]
    cols = [["the", "cat", "sat", "on", "the", "mat"], ["dog", "bark"]]
    assert lcs_matrix(rows, cols).tolist() == [[3, 0], [0, 0]]


def test_algorithm1_on_text():
    # Source pieces (". " split): "the cat sat on the mat" (6 tokens), "dogs bark" (2), "a bird" (2).
    # Reference pieces: r1 = "the cat sat" (3), r2 = "the cat sat down" (4).
    # Coverage: r1 and r2 each share "the cat sat" with d1 only: recall 3/6 = .5 >= .1 -> 1/3 each.
    # Redundancy: LCS(r1, r2) = 3; over r1 3/3, over r2 3/4, both >= .3 -> 1 - 1/1 = 0 each.
    # Eq. 1: (1/3 + 0) / 2 x 2 = 1/3 each.
    comp = widar_components(["anything"], [["the cat sat. the cat sat down"]],
                            ["the cat sat on the mat. dogs bark. a bird"], cache=False)
    w, cov = reference_weights(comp.stats[0][0])
    assert cov == pytest.approx([1 / 3, 1 / 3])
    assert w == pytest.approx([1 / 3, 1 / 3])
    w, _ = reference_weights(comp.stats[0][0], weights="redundancy")
    assert w.tolist() == [0.0, 0.0]
