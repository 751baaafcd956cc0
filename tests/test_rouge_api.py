"""The batch API ``rougelab.rouge.rouge``: Lin (2004)'s worked examples, multi-reference modes, edge cases."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pandas as pd
import pytest

from perl_oracle import perl_available, run_perl
from rougelab.metrics.base import InputError
from rougelab.rouge import rouge
from rougelab.text.tokenize import perl_bytes

S1 = "police killed the gunman"
S2, S3, S4, S5 = "police kill the gunman", "the gunman kill police", "the gunman police killed", \
    "gunman the killed police"


def _scores(summaries, measure, **kw):
    return rouge(summaries, [[S1]] * len(summaries), [measure], stem=False, **kw)


def test_lin_rouge_l_examples():
    """Lin 2004, 3.1: with S1 as reference, ROUGE-L (beta = 1) of S2 is 3/4 = 0.75, of S3 and S4 2/4 = 0.5."""
    assert _scores([S2, S3, S4], "rouge-l")["rougel_f"].tolist() == [0.75, 0.5, 0.5]


def test_lin_rouge_2_cannot_tell_s2_from_s3():
    """Lin 2004, 3.1: S2 and S3 share one bigram with S1 ("the gunman"), so ROUGE-2 ties them; S4 also
    shares "police killed", so "ROUGE-2 would prefer S4 to S3"."""
    assert _scores([S2, S3, S4], "rouge-2")["rouge2_r"].tolist() == [0.33333, 0.33333, 0.66667]


def test_lin_rouge_s_examples():
    """Lin 2004, section 5: ROUGE-S (unlimited gap, beta = 1): S2 0.5, S3 0.167, S4 0.333; S5 scores 0."""
    f = _scores([S2, S3, S4, S5], "rouge-s*")["rouges*_f"].tolist()
    assert [round(x, 3) for x in f] == [0.5, 0.167, 0.333, 0.0]
    # 5.1: ROUGE-SU gives S5 unigram credit. Perl's -U skips each text's last unigram: S1 keeps police,
    # killed, the; S5 keeps gunman, the, killed; 2 shared, over 6 skip-bigrams + 3 unigrams.
    assert _scores([S5], "rouge-su*")["rougesu*_r"].iloc[0] == round(2 / 9, 5)
    assert _scores([S5], "rouge-su*", perl_last_unigram_bug=False)["rougesu*_r"].iloc[0] == 0.4  # 4 / (6 + 4)


def test_lin_rouge_w_example_and_perl_rouge_w():
    """Lin 2004, section 4: f(k) = k^2 gives Y1 0.571 and Y2 0.286 (perl_wlcs=False). ROUGE-1.5.5 itself
    counts runs of adjacent reference tokens only and weights the recall base twice: R = sqrt(16/49^2)
    = 0.08163 and P = sqrt(16/49) = 0.57143 for both (also printed by the Perl script, see below)."""
    x, y1, y2 = "A B C D E F G", "A B C D H I K", "A H B K C I D"
    lin = rouge([y1, y2], [[x], [x]], ["rouge-w-2"], stem=False, perl_wlcs=False)
    assert [round(v, 3) for v in lin["rougew2_r"]] == [0.571, 0.286]
    perl = rouge([y1, y2], [[x], [x]], ["rouge-w-2"], stem=False)
    assert perl[["rougew2_r", "rougew2_p", "rougew2_f"]].values.tolist() == [[0.08163, 0.57143, 0.14285]] * 2


@pytest.mark.skipif(perl_available() is not None, reason=str(perl_available()))
def test_perl_prints_the_same_rouge_w_for_lin_example():
    out = run_perl([["A B C D H I K"], ["A H B K C I D"]], [[["A B C D E F G"]]] * 2, ["-n", "1", "-w", "2"])
    assert [o["ROUGE-W-2"] for o in out] == [(0.08163, 0.57143, 0.14285)] * 2


def test_columns_and_default_measures():
    out = rouge(["a b c"], [["a b d"]])
    assert list(out.columns) == [f"{m}_{x}" for m in ["rouge1", "rouge2", "rougel", "rougew1.2", "rougesu4"]
                                 for x in "rpf"]
    assert out.dtypes.eq(float).all() and len(out) == 1


def test_each_result_owns_its_columns():
    """Renaming one result's columns (its ``columns.name``, a pandas attribute set in place) leaves the next
    result with the same columns as it was: the results share no column index."""
    first = rouge(["a b c"], [["a b d"]], ["rouge-1", "rouge-l"])
    first.columns.name = "renamed"
    second = rouge(["a b d"], [["a b c"]], ["rouge-1", "rouge-l"])
    assert second.columns.name is None
    assert list(second.columns) == ["rouge1_r", "rouge1_p", "rouge1_f", "rougel_r", "rougel_p", "rougel_f"]
    assert rouge.table_scorer(["a b d"], [["a b c"]], ["rouge-1", "rouge-l"]).frame().columns.name is None


def test_multiref_pooled_best_and_jackknife_by_hand():
    """Summary "a b c"; references "a b c", "a b d", "x y z": ROUGE-1 recalls 1, 2/3, 0.
    -f A pools: hits 3 + 2 + 0 over 9 reference words, 9 summary words -> R = P = F = 0.55556.
    -f B keeps the first reference: 1.0. Jackknife (Lin 2004, 2.1): best of {2, 3} = 2/3, of {1, 3} and
    {1, 2} = 1, mean = (0.66667 + 1 + 1) / 3 = 0.88889."""
    refs = [["a b c", "a b d", "x y z"]]
    pooled = rouge(["a b c"], refs, ["rouge-1"], stem=False)
    assert pooled.iloc[0].tolist() == [0.55556, 0.55556, 0.55556]
    assert rouge(["a b c"], refs, ["rouge-1"], stem=False, multiref="B").iloc[0].tolist() == [1.0, 1.0, 1.0]
    jack = rouge(["a b c"], refs, ["rouge-1"], stem=False, multiref="jackknife").iloc[0].tolist()
    assert jack == pytest.approx([(0.66667 + 2) / 3] * 3, abs=1e-12)


def test_empty_texts_score_zero():
    out = rouge(["", "cat", "   \n\n", "the cat"], [["the cat"], [""], ["the cat"], ["the cat", ""]],
                ["rouge-1", "rouge-l", "rouge-w-1.2", "rouge-su4"])
    assert out.iloc[:3].eq(0).all().all()
    # An empty reference adds nothing to the pool: the last row equals scoring against "the cat" alone,
    # except precision, whose pooled denominator counts the summary once per reference.
    assert out.iloc[3]["rouge1_r"] == 1.0 and out.iloc[3]["rouge1_p"] == 0.5


def test_identical_texts_score_one():
    text = "The quick brown fox jumps over the lazy dog.\nIt was not amused."
    out = rouge([text], [[text]], ["rouge-1", "rouge-4", "rouge-l", "rouge-s*", "rouge-su4"])
    assert out.eq(1.0).all().all()
    # ROUGE-1.5.5's ROUGE-W is 1 only for precision of a one-sentence text: P compares the summed
    # per-sentence weights (9^1.2 + 4^1.2 here) with 13^1.2, and R's base is weighted twice.
    w = rouge([text, "one sentence only"], [[text], ["one sentence only"]], ["rouge-w-1.2"])
    assert w["rougew1.2_p"].tolist()[1] == 1.0 and w["rougew1.2_p"].tolist()[0] < 1.0
    assert w["rougew1.2_r"].tolist()[1] == round((3 ** 1.2 / (3 ** 1.2) ** 1.2) ** (1 / 1.2), 5)


def test_one_word_texts():
    out = rouge(["cat"], [["cat"]], ["rouge-1", "rouge-2", "rouge-l", "rouge-su4"], stem=False)
    assert out[["rouge1_f", "rougel_f"]].iloc[0].tolist() == [1.0, 1.0]
    assert out["rouge2_f"].iloc[0] == 0.0
    assert out["rougesu4_f"].iloc[0] == 0.0         # -U never counts the last (here: only) unigram
    fixed = rouge(["cat"], [["cat"]], ["rouge-su4"], stem=False, perl_last_unigram_bug=False)
    assert fixed["rougesu4_f"].iloc[0] == 1.0


def test_non_ascii_text_is_read_as_utf8_bytes():
    out = rouge(["Über café"], [["uber cafe"]], ["rouge-1"], stem=False)
    # Bytes of Ü and é become spaces: tokens "ber", "caf" against "uber", "cafe": no match.
    assert out["rouge1_r"].iloc[0] == 0.0
    assert rouge(["naïve"], [["naïve"]], ["rouge-1"])["rouge1_f"].iloc[0] == 1.0


def test_round_before_f_switch():
    # R = 1/3, P = 1/2: rounded F = 2 * 0.33333 * 0.5 / 0.83333 = 0.4 (0.39999...) vs exact 0.4.
    rounded = rouge(["a b"], [["a c d"]], ["rouge-1"], stem=False)
    exact = rouge(["a b"], [["a c d"]], ["rouge-1"], stem=False, perl_round_before_f=False)
    assert rounded.iloc[0].tolist() == [0.33333, 0.5, round(2 * 0.33333 * 0.5 / 0.83333, 5)]
    assert exact.iloc[0].tolist() == [1 / 3, 0.5, 0.4]


def test_truncation_options():
    out = rouge(["a b c d e f"], [["a b c"]], ["rouge-1"], stem=False, word_limit=3)
    assert out.iloc[0].tolist() == [1.0, 1.0, 1.0]
    out = rouge(["abc def"], [["abc"]], ["rouge-1"], stem=False, byte_limit=3)
    assert out.iloc[0].tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("call, message", [
    (lambda: rouge(["a"], [["a"], ["b"]]), "1 summaries but 2"),
    (lambda: rouge(["a"], [[]]), "no references"),
    (lambda: rouge(["a"], ["a"]), "is a string"),
    (lambda: rouge(["a"], [[None]]), "not str"),
    (lambda: rouge("a", [["a"]]), "not one string"),
    (lambda: rouge(["a"], [["a"]], ["rouge-x"]), "unknown ROUGE measure"),
    (lambda: rouge(["a"], [["a"]], ["rouge-0"]), "unknown ROUGE measure"),
    (lambda: rouge(["a"], [["a"]], []), "no ROUGE measure"),
    (lambda: rouge(["a"], [["a"]], multiref="C"), "multiref"),
    (lambda: rouge(["a"], [["a"]], word_limit=3, byte_limit=5), "not both"),
    (lambda: rouge(["a"], [["a"]], alpha=2), "alpha"),
])
def test_bad_input_raises_input_error(call, message):
    with pytest.raises(InputError, match=message):
        call()


def test_order_invariance_and_duplicates():
    summaries = ["the cat sat", "a dog ran home", "the cat sat"]
    refs = [["the cat sat down"], ["the dog went home", "a dog ran"], ["the cat sat down"]]
    out = rouge(summaries, refs)
    rev = rouge(summaries[::-1], refs[::-1])
    pd.testing.assert_frame_equal(out, rev.iloc[::-1].reset_index(drop=True))
    assert out.iloc[0].equals(out.iloc[2])


def test_pure_python_fallback_gives_the_same_table():
    """The whole API with numba disabled (ROUGELAB_NO_NUMBA=1, a fresh interpreter) equals the default run."""
    summaries = ["The cat sat on the mat.\nIt purred.", "Dogs bark loudly at night", ""]
    refs = [["A cat was sitting on the mat.", "The cat purred on a mat."], ["dogs barked", "night falls"], ["x"]]
    measures = ["rouge-1", "rouge-3", "rouge-l", "rouge-w-1.2", "rouge-s4", "rouge-su*"]
    code = ("import json, sys; from rougelab.rouge import rouge; a = json.load(sys.stdin); "
            "print(rouge(*a).to_json(orient='values', double_precision=15))")
    env = {**os.environ, "ROUGELAB_NO_NUMBA": "1"}
    proc = subprocess.run([sys.executable, "-c", code], input=json.dumps([summaries, refs, measures]),
                          capture_output=True, text=True, env=env, check=True)
    assert json.loads(proc.stdout) == json.loads(rouge(summaries, refs, measures).to_json(orient="values",
                                                                                           double_precision=15))


@pytest.mark.skipif(perl_available() is not None, reason=str(perl_available()))
def test_batch_api_equals_perl_on_multiline_unicode_texts():
    summaries = ["The Geese ran home.\nThey were running — fast!", "Naïve café owners", "x"]
    refs = [["A goose runs home.\nIt ran fast.", "Geese were at home"], ["The café owner was naïve."], ["y", "x"]]
    args = ["-n", "4", "-w", "1.2", "-2", "4", "-U", "-m"]
    measures = ["rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-l", "rouge-w-1.2", "rouge-s4", "rouge-su4"]
    ours = rouge(summaries, refs, measures)
    perl = run_perl([[perl_bytes(s) for s in t.split("\n")] for t in summaries],
                    [[[perl_bytes(s) for s in r.split("\n")] for r in rs] for rs in refs], args)
    for i, row in enumerate(perl):
        for key, values in row.items():
            prefix = key.lower().replace("-", "")
            assert tuple(ours.loc[i, [f"{prefix}_r", f"{prefix}_p", f"{prefix}_f"]]) == values, (i, key)


@pytest.mark.parametrize("first", ["import rougelab", "import rougelab.rouge.core", "from rougelab.rouge import rouge"])
def test_rougelab_rouge_is_the_subpackage_however_imported(first):
    code = (f"{first}\nimport types, rougelab\nassert isinstance(rougelab.rouge, types.ModuleType)\n"
            "assert rougelab.rouge.__name__ == 'rougelab.rouge' and not callable(rougelab.rouge)\n"
            "print(rougelab.rouge.rouge(['a b'], [['a b']], ['rouge-1']).iloc[0].tolist())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[1.0, 1.0, 1.0]"


def test_repeated_measures_are_scored_once():
    assert list(rouge(["a"], [["a"]], ["rouge-1", "ROUGE-1"]).columns) == ["rouge1_r", "rouge1_p", "rouge1_f"]


def test_sentence_splitter_changes_only_summary_level_lcs():
    """Newline splitting keeps "Cats sleep. Dogs bark." as one unit: LCS with "dogs bark cats sleep" = 2/4.
    NLTK's Punkt makes two sentences, whose union LCS covers all 4 reference words (Lin 2004, 3.2)."""
    one = rouge(["Cats sleep. Dogs bark."], [["dogs bark cats sleep"]], ["rouge-l", "rouge-1"], stem=False)
    two = rouge(["Cats sleep. Dogs bark."], [["dogs bark cats sleep"]], ["rouge-l", "rouge-1"], stem=False,
                splitter="nltk")
    assert one["rougel_r"].iloc[0] == 0.5 and two["rougel_r"].iloc[0] == 1.0
    assert one["rouge1_r"].iloc[0] == two["rouge1_r"].iloc[0] == 1.0


@pytest.mark.parametrize("tokenizer", ["rouge155", "rouge-score"])
@pytest.mark.parametrize("splitter", ["nltk", "none"])
def test_measures_without_sentences_skip_the_splitter_with_the_same_numbers(summeval_table, tokenizer, splitter):
    """ROUGE-N and -S(U) scored alone are not split into sentences (api.SENTENCE_BLIND_SPLITTERS): the
    same numbers as in a call with ROUGE-L, which splits every text, on every SummEval summary and reference
    (each on one line, so that Punkt has sentences to find)."""
    summaries = [s.replace("\n", " ") for s in summeval_table["summary"]]
    references = [[r.replace("\n", " ") for r in refs] for refs in summeval_table["references"]]
    measures = ["rouge-1", "rouge-2", "rouge-su4", "rouge-s*"]
    alone = rouge(summaries, references, measures, tokenizer=tokenizer, splitter=splitter)
    split = rouge(summaries, references, [*measures, "rouge-l"], tokenizer=tokenizer, splitter=splitter)
    pd.testing.assert_frame_equal(alone, split[alone.columns], check_exact=True)
    other = {"nltk": "none", "none": "nltk"}[splitter]  # the splitter did split (or keep whole) the texts
    assert (split["rougel_r"] != rouge(summaries, references, ["rouge-l"], tokenizer=tokenizer,
                                       splitter=other)["rougel_r"]).mean() > 0.5
