"""The ``bleu`` and ``chrf`` registry entries against sacreBLEU's own sentence-level functions."""
import pytest
import sacrebleu

from rougelab.metrics.base import InputError
from rougelab.metrics.registry import get_metric
from rougelab.metrics.sacrebleu_metrics import bleu, chrf

SUMMARIES = ["the cat sat on the mat .", "a dog barked at the moon", "", "The Cat sat"]
REFERENCES = [["the cat sat on a mat .", "there is a cat on the mat"], ["the dog barks"], ["anything"],
              ["the cat sat on the mat", "a cat sat"]]


def test_bleu_equals_sacrebleu_sentence_bleu_with_all_references():
    got = get_metric("bleu").score(SUMMARIES, REFERENCES)["bleu"].tolist()
    # sacrebleu.sentence_bleu is the functional entry point (default smoothing 'exp', 13a, effective order).
    expected = [sacrebleu.sentence_bleu(s, refs).score for s, refs in zip(SUMMARIES, REFERENCES)]
    assert got == pytest.approx(expected)
    assert got[2] == 0.0


def test_chrf_equals_sacrebleu_sentence_chrf_with_all_references():
    got = get_metric("chrf").score(SUMMARIES, REFERENCES)["chrf"].tolist()
    expected = [sacrebleu.sentence_chrf(s, refs).score for s, refs in zip(SUMMARIES, REFERENCES)]
    assert got == pytest.approx(expected)
    assert got[2] == 0.0


def test_identical_text_scores_100_and_reference_order_does_not_matter():
    assert bleu(["the cat sat on the mat"], [["the cat sat on the mat"]])["bleu"][0] == pytest.approx(100.0)
    assert chrf(["the cat sat on the mat"], [["the cat sat on the mat"]])["chrf"][0] == pytest.approx(100.0)
    for scorer, column in ((bleu, "bleu"), (chrf, "chrf")):
        forward = scorer(SUMMARIES[:1], [REFERENCES[0]])[column][0]
        backward = scorer(SUMMARIES[:1], [REFERENCES[0][::-1]])[column][0]
        assert forward == pytest.approx(backward)


def test_chrf_keeps_the_best_reference():
    best = chrf(["the cat sat"], [["the cat sat on"]])["chrf"][0]
    assert chrf(["the cat sat"], [["a dog", "the cat sat on"]])["chrf"][0] == pytest.approx(best)


def test_signature_pins_options_and_sacrebleu_version():
    signature = get_metric("bleu").signature
    assert f"sacrebleu_version:{sacrebleu.__version__}" in signature
    assert "smooth_method:exp" in signature and "tokenize:13a" in signature
    assert "char_order:6" in get_metric("chrf").signature


def test_options_change_the_score():
    assert bleu(["The Cat sat"], [["the cat sat"]], lowercase=True)["bleu"][0] == pytest.approx(100.0)
    assert bleu(["The Cat sat"], [["the cat sat"]])["bleu"][0] < 100.0


def test_bad_input():
    with pytest.raises(InputError, match="sacreBLEU 0.0"):
        bleu(["a"], [["a"]], sacrebleu_version="0.0")
    with pytest.raises(InputError, match="must all be strings"):
        chrf(["a"], [[None]])
    with pytest.raises(InputError, match="2 summaries but 1 reference lists"):
        get_metric("bleu").score(["a", "b"], [["a"]])
