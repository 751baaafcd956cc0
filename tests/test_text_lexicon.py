"""The process's lexicons (``rougelab.text.lexicon``): a stemming or stopword encoder looks each surface token up in
a map kept across calls, and must give every call the tokens a fresh transform of its words gives.

The reference is the unstemmed tokens of each text (``Preprocessing.tokens`` without stemming or stopwords, which
no lexicon serves) turned by ``Preprocessing.forms`` (the encoder's ``transform`` and stopwords, word by word).
"""
from __future__ import annotations

import threading

import numpy as np
import pytest

import rougelab.text.lexicon as lexicon
from rougelab.text.preprocessing import Preprocessing


@pytest.fixture(params=["numba", "python"], autouse=True)
def fresh_lexicons(request, monkeypatch):
    """Lexicons empty at the start of each test; the compiled look-up, or its pure-Python source."""
    monkeypatch.setattr(lexicon, "_lexicons", {})
    if request.param == "python":
        for name in ("_known_numbers", "_learned"):
            monkeypatch.setattr(lexicon, name, getattr(lexicon, name).py_func)


def _unstemmed(preprocessing: Preprocessing) -> Preprocessing:
    return Preprocessing(preprocessing.tokenizer, None, splitter=preprocessing.splitter)


def _expected(preprocessing: Preprocessing, texts: list[str]) -> list[list[str]]:
    """Each text's tokens as a fresh transform of its surface words gives them."""
    words = _unstemmed(preprocessing).tokens(texts)
    return [[f for f in preprocessing.forms(w) if f is not None] for w in words]


def _check(preprocessing: Preprocessing, texts: list[str]) -> None:
    """``encode``'s ids of ``texts``: dense, numbered in order of first sight, each the token expected."""
    encoded = preprocessing.encode(texts)
    want = [t for tokens in _expected(preprocessing, texts) for t in tokens]
    assert [encoded.vocabulary[i] for i in encoded.ids.tolist()] == want
    assert encoded.vocabulary == list(dict.fromkeys(want))  # ids 0, 1, ... in order of first sight
    assert preprocessing.tokens(texts) == _expected(preprocessing, texts)


def test_long_tokens_with_the_same_key_keep_their_own_tokens():
    """A token of 8 bytes or more is keyed by its last 7: tokens sharing them (of the same length or not) are told
    apart by their bytes, in one call and across calls."""
    stop = Preprocessing(stemmer=None, stopwords=True)
    same_key = ["aaaaaaaxyzwvuts", "bbbbbbbxyzwvuts", "Aaaaaaaxyzwvuts", "axyzwvuts", "xyzwvuts", "qqxyzwvuts"]
    for k in range(len(same_key)):
        _check(stop, [" ".join(same_key[k:]), " ".join(same_key[:k + 1])])
    _check(stop, [" ".join(same_key), " ".join(reversed(same_key))])


def test_short_tokens_and_their_stems_across_calls():
    """Tokens of up to 7 bytes (the key is the token) and longer ones, stemmed, upper and lower case, met again in
    later calls in another order."""
    stem = Preprocessing()
    texts = ["The Cats were running", "RUNNING cats ran\nrunner runs", "internationalization internationalizations"]
    for k in range(len(texts)):
        _check(stem, texts[k:] + texts[:k])


def test_a_stopword_stays_dropped_when_met_again():
    """A token that becomes nothing (a stopword; a stem rouge-score drops) is dropped in every later call too, and
    a stopword's stem is not taken for it."""
    for preprocessing in (Preprocessing(stopwords=True), Preprocessing(stemmer=None, stopwords=True),
                          Preprocessing(tokenizer="rouge-score", stemmer="porter", stopwords=True)):
        _check(preprocessing, ["the cat is here", "is"])
        _check(preprocessing, ["here the cat", "the the is cat dog"])
        _check(preprocessing, ["the"])


def test_encoders_of_other_options_do_not_share_tokens():
    """Calls alternating between tokenizers, stemmers, exception lists and stopwords each get their own tokens:
    the same surface word becomes another token in each."""
    texts = ["Children were leaving the geese behind", "the children's geese are leaving, running generously"]
    options = [Preprocessing(), Preprocessing(stem_exceptions=()), Preprocessing(stopwords=True),
               Preprocessing(stemmer=None, stopwords=True), Preprocessing(tokenizer="rouge-score", stemmer="porter"),
               Preprocessing(tokenizer="rouge-score", stemmer="rouge155"),
               Preprocessing(tokenizer="rouge-score", stemmer="snowball"),
               Preprocessing(tokenizer="unicode", stemmer="porter"),
               Preprocessing(tokenizer="character", stemmer="porter")]
    for _ in range(2):
        for preprocessing in options:
            _check(preprocessing, texts)
    assert Preprocessing().tokens(texts[:1]) != Preprocessing(stem_exceptions=()).tokens(texts[:1])


def test_unicode_tokens_with_spaces_and_non_ascii_bytes():
    """Tokens of the other tokenizers hold any byte (a space carrying a combining mark is written as 0xFF)."""
    texts = ["Straße straße STRASSE", "caf\u00e9 cafe\u0301 \u4e2d\u6587 x\u0301y", "a \u0301 b"]
    for tokenizer in ("unicode", "character"):
        preprocessing = Preprocessing(tokenizer=tokenizer, stemmer="snowball:german", stopwords=True)
        for k in range(len(texts)):
            _check(preprocessing, texts[k:] + texts[:k])


def test_a_full_lexicon_starts_afresh_and_earlier_vocabularies_stay_right(monkeypatch):
    """Past ``LEXICON_ENTRIES`` a lexicon starts again from nothing; the vocabulary of a call before, read after,
    is still that call's."""
    monkeypatch.setattr(lexicon, "LEXICON_ENTRIES", 6)
    stem = Preprocessing()
    first = stem.encode(["cats running quickly"])
    for texts in (["dogs were barking loudly at geese"], ["cats running quickly"], ["cats running dogs barking"],
                  ["cats geese ducks", "running"], ["one two three four five six"], ["running cats", "geese dogs"]):
        _check(stem, texts)
    assert first.vocabulary == ["cat", "run", "quickli"]


def test_pieces_on_two_threads_at_once_get_their_own_tokens():
    """Encoders of the same options (pieces of one batch) encoding on two threads at once, words new to both."""
    words = [f"w{k}ing{k % 7}tion" for k in range(3000)]
    texts = [[" ".join(words[(t * 37 + i) % len(words)] for i in range(40)) for t in range(start, start + 50)]
             for start in (0, 50)]
    stem = Preprocessing(stopwords=True)
    results = [None, None]

    def encode(k):
        encoded = stem.encode(texts[k])
        results[k] = [encoded.vocabulary[i] for i in encoded.ids.tolist()]

    threads = [threading.Thread(target=encode, args=(k,)) for k in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for k in (0, 1):
        assert results[k] == [t for tokens in _expected(stem, texts[k]) for t in tokens]


def test_an_interrupted_look_up_leaves_a_lexicon_that_still_serves_right(monkeypatch):
    """A look-up stopped half-way starts the lexicon afresh: in the transform of a new word, or in the Python run
    of the learning after its arrays grew (they are replaced only at its end)."""
    stem = Preprocessing()
    stem.encode(["cats running"])
    with monkeypatch.context() as patch, pytest.raises(ZeroDivisionError):
        patch.setattr(type(stem.encoder()), "transform", lambda self, word: 1 / 0)
        stem.encode(["dogs barking cats"])
    _check(stem, ["dogs barking cats running"])

    calls = []

    def key_then_stop(*args):
        calls.append(1)
        if len(calls) > 9_500:  # the look-up's 5,000 keys, then 4,500 of the learning's, past both growths
            raise KeyboardInterrupt
        return key(*args)

    key = lexicon._token_key
    words = " ".join(f"w{k}x" for k in range(5_000))
    with monkeypatch.context() as patch, pytest.raises(KeyboardInterrupt):
        for name in ("_known_numbers", "_learned"):
            patch.setattr(lexicon, name, getattr(getattr(lexicon, name), "py_func", getattr(lexicon, name)))
        patch.setattr(lexicon, "_token_key", key_then_stop)
        stem.encode([words])
    _check(stem, [words, "cats running"])
