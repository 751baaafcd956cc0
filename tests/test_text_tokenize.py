"""ROUGE-1.5.5's tokenisation (readText + createNGram in ROUGE-1.5.5.pl) and sentence splitting.

Expected tokens are read off the Perl source: tr/A-Z/a-z/; s/-/ - /g; s/[^A-Za-z0-9\\-]/ /g; keep
tokens matching /^[a-z0-9$]/ (so "-" goes); -s drops smart_common_words.txt entries.
"""
from __future__ import annotations

import pytest

from perl_oracle import perl_available, run_perl
from rougelab.resources import smart_stopwords
from rougelab.text import split_sentences, tokenize
from rougelab.text.tokenize import perl_bytes, perl_split


def test_punctuation_hyphens_and_dollar():
    assert tokenize("Well-known U.S. firms' $5 (3.5%) -- ok!") == ["well", "known", "u", "s", "firms", "5", "3",
                                                                    "5", "ok"]


def test_only_ascii_letters_are_lowered_and_non_ascii_bytes_split_words():
    # é is two UTF-8 bytes, both outside [A-Za-z0-9-]: they become spaces, as in the byte-reading Perl script.
    assert tokenize("CAFÉ naïve Über 東京") == ["caf", "na", "ve", "ber"]


def test_stopwords_removed_only_on_request():
    assert tokenize("The cat is on the mat") == ["the", "cat", "is", "on", "the", "mat"]
    assert tokenize("The cat is on the mat", stopwords=True) == ["cat", "mat"]
    assert {"the", "is", "on", "a", "z"} <= smart_stopwords() and len(smart_stopwords()) == 596  # 598 lines, 2 repeated


def test_stemming_applies_to_tokens_longer_than_three():
    # "ran" (3 chars) is left alone although WordNet maps it to "run"; "geese" -> "goose" (noun.exc).
    assert tokenize("The geese ran running", stem=True) == ["the", "goose", "ran", "run"]


def test_empty_and_whitespace_text():
    assert tokenize("") == [] and tokenize(" \t ") == [] and tokenize("-- !!") == []


def test_non_string_is_refused():
    with pytest.raises(TypeError):
        tokenize(None)


def test_perl_split_keeps_perl_whitespace_rules():
    assert perl_split(" a  b ") == ["", "a", "b"]       # split(/\s+/): leading empty field, no trailing one
    assert perl_split("   ") == [] and perl_split("") == []
    assert perl_split("a\x1cb\xa0c") == ["a\x1cb\xa0c"]  # not whitespace for Perl (str.split() would split)
    assert perl_bytes("é") == "\xc3\xa9"


@pytest.mark.skipif(perl_available() is not None, reason=str(perl_available()))
def test_word_limit_counts_words_like_perl():
    """-l counts split(/\\s+/) fields of the raw line: a leading space and \\x1c/\\xa0 matter (checked with Perl)."""
    from rougelab.rouge.core import score_peer
    from rougelab.rouge.options import RougeOptions

    peers = [[" a b c d", "e f"], ["a\x1cb c\xa0d e", "f g"], ["well-known, x", "y z"]]
    models = [[["a b c d e f g"]], [["a b c d e f g"]], [["well known x y z"]]]
    peers = [[perl_bytes(s) for s in p] for p in peers]
    options = RougeOptions(max_n=2, word_limit=3, skip_distance=-1, skip_unigrams=True)
    expected = run_perl(peers, models, ["-n", "2", "-l", "3", "-2", "-1", "-U"])
    for peer, refs, want in zip(peers, models, expected):
        assert score_peer(peer, refs, options) == want


def test_split_sentences_newline_drops_only_empty_lines():
    assert split_sentences("a b\n\n c\nd\n") == ["a b", " c", "d"]
    assert split_sentences("") == []


def test_split_sentences_nltk_and_callable():
    assert split_sentences("It rained. We stayed in.\nThen we left.", "nltk") == ["It rained.", "We stayed in.",
                                                                                  "Then we left."]
    assert split_sentences("a;b", lambda t: t.split(";")) == ["a", "b"]
    with pytest.raises(ValueError, match="unknown sentence splitter"):
        split_sentences("a", "spacy")


def test_split_sentences_period_is_widars_split_and_widar_reads_through_it():
    # The authors' eval.py: text.split(". "), empty pieces skipped; newlines stay inside a piece.
    text = "A b. C d.\nE f. . G. "
    assert split_sentences(text, "period") == [p for p in text.split(". ") if p]
    from rougelab.metrics.widar.tokenize import weighted_preprocessing
    assert weighted_preprocessing().splitter == "period"
    assert weighted_preprocessing().signature.endswith(";split=period")
