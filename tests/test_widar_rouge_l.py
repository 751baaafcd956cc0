"""rouge-score's rougeL rebuilt from our tokenizer and rougelab.rouge.lcs, checked against rouge-score."""
import pytest
from hypothesis import given, settings, strategies as st
from rouge_score.rouge_scorer import RougeScorer

from rougelab.metrics.widar.rougescore_l import rouge_l
from rougelab.metrics.widar.tokenize import rouge_score_tokens

WORDS = st.lists(st.sampled_from(["the", "cat", "cats", "sat", "on", "mat", "running", "runs", "a", "dog", ",", "."]),
                 max_size=25).map(" ".join)
SCORER = RougeScorer(["rougeL"], use_stemmer=True)


@settings(max_examples=300, deadline=None)
@given(WORDS, WORDS)
def test_rouge_l_equals_rouge_score_rougeL(target, prediction):
    expected = SCORER.score(target, prediction)["rougeL"]
    got = rouge_l(rouge_score_tokens(target), rouge_score_tokens(prediction))
    assert got == pytest.approx((expected.precision, expected.recall, expected.fmeasure), abs=1e-12)


def test_rouge_l_by_hand():
    # LCS("the cat sat", "the cat sat on the mat") = 3: P = 3/3, R = 3/6, F = 2 * 1 * 0.5 / 1.5 = 2/3.
    assert rouge_l("the cat sat on the mat".split(), "the cat sat".split()) == pytest.approx((1.0, 0.5, 2 / 3))
    assert rouge_l([], ["a"]) == (0.0, 0.0, 0.0)
    assert rouge_l(["a"], ["b"]) == (0.0, 0.0, 0.0)
