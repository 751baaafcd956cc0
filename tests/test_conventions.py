"""``rougelab.conventions`` against the tools whose conventions it models: ROUGE-1.5.5 (through
``rougelab.rouge.rouge``, itself Perl-tested), rouge-score 0.1.2 (its ``RougeScorer`` and ``score_multi``),
rouge-score-rs's ``UnicodeTokenizer``; and hand-worked rankings."""
from __future__ import annotations

import pandas as pd
import pytest
from rouge_score import rouge_scorer
from scipy.stats import kendalltau

from rougelab.conventions import Convention, flipped_pairs, score, switch_table, system_scores
from rougelab.metrics.base import InputError
from rougelab.notebook import first_documents
from rougelab.rouge import rouge


@pytest.fixture(scope="module")
def summeval(summeval_table):
    return first_documents(summeval_table, 2)


def test_rouge155_convention_is_rouge155(summeval):
    summaries, references = summeval["summary"].tolist(), [list(r) for r in summeval["references"]]
    ours = score(Convention.rouge155(), summaries, references, ["rouge-1", "rouge-2", "rouge-l", "rouge-su4"])
    assert ours.equals(rouge(summaries, references, ["rouge-1", "rouge-2", "rouge-l", "rouge-su4"]))


@pytest.mark.parametrize("stem", [False, True])
def test_rouge_score_convention_equals_rouge_score(summeval, stem):
    summaries, references = summeval["summary"].tolist(), [list(r) for r in summeval["references"]]
    # rougeLsum on texts with several lines: the references joined sentence per line
    lined = [[r.replace(" . ", " .\n") for r in refs] for refs in references]
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=stem)
    theirs = [scorer.score_multi(refs, s) for refs, s in zip(lined, summaries)]
    whole = score(Convention.rouge_score(stem), summaries, lined)
    lsum = score(Convention.rouge_score(stem, lsum=True), summaries, lined, ["rouge-l"])
    for ours, key, name in [(whole, "rouge1", "rouge1"), (whole, "rouge2", "rouge2"), (whole, "rougel", "rougeL"),
                            (lsum, "rougel", "rougeLsum")]:
        for part, field in zip("rpf", ("recall", "precision", "fmeasure")):
            expected = [getattr(t[name], field) for t in theirs]
            assert ours[f"{key}_{part}"].tolist() == pytest.approx(expected, abs=1e-12), (name, part)


def test_unicode_tokenizer_sees_what_rouge155_drops():
    # ROUGE-1.5.5 drops the CJK characters: identical scores 1.0; rouge-score-rs's UnicodeTokenizer keeps
    # them: 3 of 4 unigrams match
    args = (["the cat 猫 sat"], [["the cat 狗 sat"]], ["rouge-1"])
    with pytest.warns(UserWarning, match="tokenizer='unicode' keeps them"):
        assert score(Convention.rouge155(), *args).iloc[0].tolist() == [1.0, 1.0, 1.0]
    assert score(Convention(tokenizer="unicode"), *args).iloc[0].tolist() == [0.75, 0.75, 0.75]
    assert score(Convention(tokenizer="unicode"), ["مرحبا بالعالم"], [["مرحبا بالعالم"]], ["rouge-1"]).iloc[0, 2] == 1.0


def test_best_f_picks_the_reference_with_the_highest_f():
    # Summary "a b c"; references "a b c d e f" (R 0.5, P 1, F 0.66667) and "a x" (R 0.5, P 0.33333,
    # F 0.4): best recall is a tie (first), best F is the first too; swap to check it is F that decides.
    refs = [["a x", "a b c d e f"]]
    out = score(Convention(stemmer="none", multiref="best-f", round5=False), ["a b c"], refs, ["rouge-1"])
    assert out.iloc[0].tolist() == pytest.approx([0.5, 1.0, 2 / 3], abs=1e-12)


def test_flipped_pairs_and_kendall_by_hand():
    before = pd.Series({"s1": 0.30, "s2": 0.20, "s3": 0.10})
    after = pd.Series({"s1": 0.30, "s2": 0.05, "s3": 0.10})
    assert flipped_pairs(before, after) == [("s2", "s3")]
    # 3 pairs, 1 discordant: tau = (2 - 1) / 3
    assert kendalltau(before, after).statistic == pytest.approx(1 / 3)


def test_switch_table_reports_a_flip():
    # two systems, one document; switching stemming on lets "cats" meet "cat" for system b only
    table = pd.DataFrame({"system_id": ["a", "b"], "summary": ["the dog", "the cats"],
                          "references": [["the dog and the cat"], ["the dog and the cat"]]})
    base = Convention(stemmer="none")
    out = switch_table(table, base, {"stem": dict(stemmer="rouge155")}, measures=["rouge-1"], n_resamples=10)
    row = out.iloc[0]
    # none: a hits 2 of 5 (R .4, P 1), b hits 1 (R .2, P .5); stemmed: b hits 2 too -> tie, a flip
    assert row["flips"] == 1 and row["flipped"] == "a/b"
    assert row["summary_change"] == pytest.approx((0.57143 - 0.28571) / 2, abs=1e-9)


def test_system_scores_average_per_system():
    table = pd.DataFrame({"system_id": ["a", "a", "b"]})
    scores = pd.DataFrame({"rouge1_r": [0.1, 0.3, 0.5], "rouge1_p": [0.0, 0.0, 0.0], "rouge1_f": [0.2, 0.4, 0.9]})
    out = system_scores(table, scores, "mean")
    assert out["rouge1"].tolist() == pytest.approx([0.3, 0.9])


def test_bad_convention_is_named():
    with pytest.raises(InputError, match="tokenizer='spacy'"):
        Convention(tokenizer="spacy")
