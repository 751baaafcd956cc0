"""``Preprocessing``: one object for tokenizer, stemmer, exception lists, stopwords and sentence splitter.

The exception lists of ROUGE-1.5.5's stemmer hold whichever tokenizer it stems (they were dropped for every
tokenizer but ``"rouge155"``); ROUGE-1.5.5.pl, run with a DB built from exactly those lists, is the oracle.
"""
from __future__ import annotations

import pytest

from perl_oracle import perl_available, perl_exception, perl_home, run_perl
from rougelab.conventions import Convention, rouge_options
from rougelab.metrics.base import InputError
from rougelab.rouge import rouge
from rougelab.text.preprocessing import Preprocessing, default_stemmer
from rougelab.text.tokenize import perl_bytes

NEEDS_PERL = pytest.mark.skipif(perl_available() is not None, reason=str(perl_available()))


def test_exception_lists_hold_for_the_rouge_score_tokenizer():
    """adj.exc maps "better" to "good"; without the lists ROUGE's Porter stemmer leaves "better" as it is
    (Porter has no rule from "better" to "good"), so only "results" matches: R = 1/2."""
    kwargs = dict(tokenizer="rouge-score", stemmer="rouge155")
    empty = rouge(["better results"], [["good results"]], ["rouge-1"], stem_exceptions=(), **kwargs)
    assert empty["rouge1_r"][0] == 0.5
    full = rouge(["better results"], [["good results"]], ["rouge-1"], **kwargs)
    assert full["rouge1_r"][0] == 1.0


@NEEDS_PERL
def test_better_and_good_without_lists_as_perl_scores_them():
    perl_home(())
    assert perl_exception("better", ()) is None  # the empty DB has no entry for "better"
    perl = run_perl([["better results"]], [[["good results"]]], ["-n", "1", "-m", "-x"], exceptions=())
    ours = rouge(["better results"], [["good results"]], ["rouge-1"], tokenizer="rouge-score", stemmer="rouge155",
                 stem_exceptions=())
    assert perl[0]["ROUGE-1"] == tuple(ours.loc[0, ["rouge1_r", "rouge1_p", "rouge1_f"]]) == (0.5, 0.5, 0.5)


@NEEDS_PERL
@pytest.mark.parametrize("tokenizer", ["rouge-score", "unicode"])
@pytest.mark.parametrize("order", [(), ("noun", "verb", "adj", "adv")], ids=lambda o: "-".join(o) or "empty")
def test_every_tokenizer_stems_with_the_lists_perl_uses(tokenizer, order):
    # ASCII words between spaces are the same tokens for every tokenizer, so each must give Perl's numbers.
    summaries = ["the geese ran better than the children", "testes were the best"]
    references = [["a goose runs well and a child runs good", "the testis is good"],
                  ["geese are running and the children ran best"]]
    perl = run_perl([[perl_bytes(s)] for s in summaries], [[[perl_bytes(r)] for r in refs] for refs in references],
                    ["-n", "2", "-m", "-x"], exceptions=order)
    ours = rouge(summaries, references, ["rouge-1", "rouge-2"], tokenizer=tokenizer, stemmer="rouge155",
                 stem_exceptions=order)
    for i, row in enumerate(perl):
        for key in ("ROUGE-1", "ROUGE-2"):
            prefix = key.lower().replace("-", "")
            assert tuple(ours.loc[i, [f"{prefix}_{x}" for x in "rpf"]]) == row[key], (tokenizer, order, i, key)


def test_keywords_and_object_give_the_same_numbers():
    texts = (["The cats were running home.\nIt rained."], [["A cat ran home. It was raining."]])
    for shorthand, object_ in [
        (dict(), Preprocessing()),
        (dict(stem=False), Preprocessing(stemmer=None)),
        (dict(tokenizer="rouge-score", stem=True), Preprocessing("rouge-score", "porter")),
        (dict(tokenizer="unicode", stemmer="snowball"), Preprocessing("unicode", "snowball:english")),
        (dict(stopwords=True, splitter="none"), Preprocessing(stopwords=True, splitter="none")),
    ]:
        assert Preprocessing.from_options(**shorthand) == object_
        assert rouge(*texts, **shorthand).equals(rouge(*texts, preprocessing=object_))


def test_defaults_are_decided_in_one_place():
    assert Preprocessing().stemmer == default_stemmer("rouge155") == "rouge155"
    assert Preprocessing("rouge-score").stemmer is None and default_stemmer("unicode", True) == "porter"
    assert Preprocessing.from_options(tokenizer="character", stem=True).stemmer == "porter"


def test_signature_names_every_choice():
    assert Preprocessing().signature == "rouge155;stem=rouge155;exceptions=noun,adv,verb,adj;stopwords=none;split=newline"
    assert Preprocessing(stem_exceptions=()).signature != Preprocessing().signature
    assert Preprocessing("rouge-score", "porter", splitter="none").signature == \
        "rouge-score;stem=porter;stopwords=none;split=none"


@pytest.mark.parametrize("kwargs, match", [
    (dict(tokenizer="whitespace"), "tokenizer"),
    (dict(stemmer="lancaster"), "stemmer"),
    (dict(tokenizer="rouge155", stemmer="porter"), "rouge155"),
    (dict(tokenizer="rouge-score", stemmer="porter", stem_exceptions=()), "stem_exceptions"),
    (dict(stem_exceptions="noun"), "stem_exceptions"),
    (dict(splitter="sentences"), "splitter"),
    (dict(stopwords="yes"), "stopwords"),
])
def test_bad_choices_are_named(kwargs, match):
    with pytest.raises(InputError, match=match):
        Preprocessing.from_options(**kwargs)
    with pytest.raises(InputError, match=match):
        rouge(["a"], [["a"]], **kwargs)


def test_object_and_keywords_together_are_refused():
    with pytest.raises(InputError, match="not both"):
        rouge(["a"], [["a"]], preprocessing=Preprocessing(), stem=False)
    with pytest.raises(InputError, match="preprocessing"):
        rouge(["a"], [["a"]], preprocessing="rouge155")


def test_convention_reads_text_through_its_preprocessing():
    convention = Convention.rouge_score(stem=True, lsum=True)
    assert convention.preprocessing == Preprocessing("rouge-score", "porter", splitter="newline")
    assert rouge_options(convention)["preprocessing"] == convention.preprocessing


def test_tokens_and_encode_agree():
    pre = Preprocessing("rouge-score", "porter")
    texts = ["Running dogs.\nThey ran", "", "a b"]
    tokens = pre.tokens(texts)
    assert tokens == [["run", "dog", "they", "ran"], [], ["a", "b"]]
    encoded = pre.encode(texts)
    assert [encoded.vocabulary[i] for i in encoded.ids] == [t for text in tokens for t in text]
    assert encoded.units.tolist() == [2, 0, 1]


def test_forms_are_what_encode_counts():
    words = ["the", "children", "running", "a", "cats", "better"]  # "better": a SMART stopword, adj.exc -> good
    assert Preprocessing().forms(words) == ["the", "child", "run", "a", "cat", "good"]
    assert Preprocessing(stemmer=None, stopwords=True).forms(words) == [None, "children", "running", None, "cats",
                                                                        None]
    pre = Preprocessing(stopwords=True)
    encoded = pre.encode([" ".join(words)])
    assert [encoded.vocabulary[i] for i in encoded.ids] == [f for f in pre.forms(words) if f is not None]


def test_splitters_made_by_one_factory_get_signatures_of_their_own():
    """Splitters one function makes (a closure over its argument, or a default argument) share their source
    but split differently: the values they hold are part of their name, so metrics keyed by it (the score
    cache) do not serve one's numbers for the other; the source alone gave both one signature."""
    cell: dict = {"__name__": "__main__"}
    exec("def splitter_on(sep):\n    def split(text):\n        return text.split(sep)\n    return split\n"
         "def split_at(text, sep='. '):\n    return text.split(sep)", cell)
    lines, periods = cell["splitter_on"]("\n"), cell["splitter_on"](". ")
    assert lines("a. b\nc") != periods("a. b\nc")
    assert Preprocessing(splitter=lines).signature != Preprocessing(splitter=periods).signature
    assert Preprocessing(splitter=lines).signature == Preprocessing(splitter=cell["splitter_on"]("\n")).signature
    exec("def split_at(text, sep='\\n'):\n    return text.split(sep)", other := {"__name__": "__main__"})
    assert Preprocessing(splitter=cell["split_at"]).signature != Preprocessing(splitter=other["split_at"]).signature


def test_a_redefined_splitter_gets_a_new_signature():
    """A splitter function redefined under the same name (a notebook cell run again after an edit) splits
    differently and gets another signature; naming it by module and name alone gave both ``split=__main__.split``."""
    cell: dict = {"__name__": "__main__"}
    exec("def split(text):\n    return [text]", cell)
    first = Preprocessing(splitter=cell["split"])
    exec("def split(text):\n    return text.split('. ')", cell)
    second = Preprocessing(splitter=cell["split"])
    assert first.sentences("a. b") != second.sentences("a. b")
    assert first.signature != second.signature
    assert Preprocessing(splitter=cell["split"]).signature == second.signature  # the same code, the same name
