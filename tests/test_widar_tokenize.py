"""WIDAR's tokenisers and sentence splitting, checked against rouge-score and NLTK's stemmers."""
from hypothesis import given, settings, strategies as st
from rouge_score.tokenizers import DefaultTokenizer

from rougelab.metrics.widar.tokenize import rouge_score_tokens, split_sentences, widar_tokens

# Letters, digits, punctuation, upper case and a few non-ASCII characters.
TEXT = st.text(alphabet="abcdeinorstuyABZ019 .,;-'$\u00e9\u0130\u212a\n", max_size=80)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_rouge_score_tokens_equal_rouge_score_with_and_without_stemming(text):
    assert rouge_score_tokens(text) == DefaultTokenizer(use_stemmer=True).tokenize(text)
    assert rouge_score_tokens(text, stem=False) == DefaultTokenizer(use_stemmer=False).tokenize(text)


def test_widar_tokens_stem_with_snowball_only_beyond_three_characters():
    # Snowball (NLTK, English): running->run, dogs->dog, happily->happili, jumping->jump, ties->tie,
    # loudly->loud; "the"/"its" have <= 3 characters and stay. Porter (rouge-score) gives loudly->loudli.
    text = "Running dogs were happily jumping; the ties its LOUDLY"
    assert widar_tokens(text) == ["run", "dog", "were", "happili", "jump", "the", "tie", "its", "loud"]
    assert rouge_score_tokens(text)[-1] == "loudli"
    assert widar_tokens(text, stem=False)[:2] == ["running", "dogs"]


def test_sentences_are_pieces_between_period_space():
    # "A b . C d . ".split(". ") == ["A b ", "C d ", ""]: the empty last piece is dropped.
    assert split_sentences("A b . C d . ") == ["A b ", "C d "]
    # The source drops blank pieces and strips the rest, as the authors' code does.
    assert split_sentences("A b .  . C d", drop_blank=True) == ["A b", "C d"]
    assert split_sentences("A b .  . C d") == ["A b ", " ", "C d"]
    assert split_sentences("") == []
    assert split_sentences("no period at all") == ["no period at all"]
