"""Tokenizers for every script (issue 15.2): rougelab's against rouge-score-rs's (``unicode-v1``,
``character-v1``) token for token, and ROUGE with them."""
from __future__ import annotations

import unicodedata
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rougelab.metrics.base import InputError
from rougelab.rouge import rouge
from rougelab.text.tokenizers import DroppedLettersWarning, make_encoder, unicode_characters, unicode_words

rs_tokenizers = pytest.importorskip("rouge_score_rs.tokenizers")

# Letters of many scripts, combining marks, Indic virama, Thai vowels, CJK, Hangul jamo, emoji with
# skin tones, ZWJ sequences, flags, and the punctuation that joins words (apostrophes, colons, points).
SCRIPTS = {
    "latin": "abcdefghijklmnopqrstuvwxyzABCXYZ\u00e9\u00e8\u00ea\u00eb\u00e7\u00f1\u00f8\u00e5\u00fc\u00f6\u00df\u0130\u212a\ufb01",
    "greek": "\u03b1\u03b2\u03b3\u03b4\u03b5\u03b6\u03b7\u03b8\u03a3\u03c2\u03ac\u03ad\u0390",
    "cyrillic": "\u0430\u0431\u0432\u0433\u0434\u0435\u0436\u0437\u0438\u0439\u0416\u042f\u0451",
    "arabic": "\u0627\u0628\u062a\u062b\u062c\u062d\u062e\u062f\u0630\u0631\u064b\u064e\u0660\u0661\u0662",
    "hebrew": "\u05d0\u05d1\u05d2\u05d3\u05d4\u05d5\u05e9\u05c1\u05b8\u05f3\u05f4",
    "devanagari": "\u0915\u0916\u0917\u0937\u0924\u0930\u093e\u093f\u0940\u0941\u094d\u0902\u0966\u0967",
    "cjk": "\u7684\u4e00\u662f\u4e0d\u4e86\u4eba\u6211\u3042\u3044\u30ab\u30bf\u30fc\uac00\ud55c\u1100\u1161\u11a8",
    "thai": "\u0e01\u0e02\u0e04\u0e07\u0e08\u0e31\u0e32\u0e33\u0e34\u0e35\u0e48\u0e49\u0e50",
    "marks": "\u0301\u0308\u0327\u200c\u200d\u200e\u00ad",
    "emoji": "\U0001F600\U0001F44D\U0001F3FD\u2764\ufe0f\U0001F1EB\U0001F1F7\U0001F468\u200d\U0001F469",
    "punctuation": " \n\n\t.,;:'\u2019\"_-!?()\u00a0\u3000\u3002\r\u00a3\u2013\u20ac\u00b0\u00a9\u2026",
}
ALPHABET = "".join(SCRIPTS.values())
multilingual = st.text(alphabet=st.sampled_from(ALPHABET), max_size=60)
words = st.lists(st.sampled_from(list(SCRIPTS.values())).flatmap(
    lambda letters: st.text(alphabet=st.sampled_from(letters), min_size=1, max_size=8)), max_size=12)


@settings(max_examples=400, deadline=None)
@given(multilingual)
def test_unicode_words_equal_rouge_score_rs(text):
    assert unicode_words(text) == rs_tokenizers.UnicodeTokenizer().tokenize(text)


@settings(max_examples=400, deadline=None)
@given(multilingual)
def test_characters_equal_rouge_score_rs(text):
    assert unicode_characters(text) == rs_tokenizers.CharacterTokenizer().tokenize(text)


@settings(max_examples=200, deadline=None)
@given(words, st.sampled_from([" ", ", ", "\n", ". ", "'", ":"]))
def test_word_sequences_equal_rouge_score_rs(pieces, separator):
    text = separator.join(pieces)
    assert unicode_words(text) == rs_tokenizers.UnicodeTokenizer().tokenize(text)
    assert unicode_characters(text) == rs_tokenizers.CharacterTokenizer().tokenize(text)


def test_known_cases():
    text = "Hello, World! don't 3.50 e.g. \u4eca\u5929 Stra\u00dfe \ufb01ne \U0001F468\u200d\U0001F469 \u0928\u092e\u0938\u094d\u0924\u0947"
    assert unicode_words(text) == ["hello", "world", "don't", "3.50", "e.g", "\u4eca", "\u5929", "strasse", "fine",
                                   "\u0928\u092e\u0938\u094d\u0924\u0947"]
    assert unicode_characters("\u0928\u092e\u0938\u094d\u0924\u0947") == ["\u0928", "\u092e", "\u0938\u094d\u0924\u0947"]



@pytest.mark.parametrize("tokenizer", ["unicode", "character"])
def test_encoder_keeps_control_characters_that_carry_marks(tokenizer):
    """A tab or a DEL carrying a combining vowel sign is one rouge-score-rs word (its bytes reach the compiled
    scan: a control byte starting a token once crashed it); a space carrying it is another word."""
    texts = ["ab\t\u093fcd x", "\x7f\u093f\u0301\u0301 \u093f\u0301\u0301 \u0301\n\t\u093f"]
    rs = rs_tokenizers.UnicodeTokenizer() if tokenizer == "unicode" else rs_tokenizers.CharacterTokenizer()
    encoder = make_encoder(tokenizer)
    ids, lengths, units = encoder.encode_many(texts)
    assert [encoder.vocabulary[i] for i in ids.tolist()] == [t for text in texts for t in rs.tokenize(text)]
    assert units.tolist() == [1, 2]

@settings(max_examples=60, deadline=None)
@given(st.lists(multilingual, min_size=1, max_size=6), st.sampled_from(["unicode", "character"]))
def test_encoder_ids_follow_the_tokens(texts, tokenizer):
    """The compiled scan numbers exactly the tokenizer's tokens, sentence units by lines."""
    encoder = make_encoder(tokenizer)
    ids, lengths, units = encoder.encode_many(texts)
    split = unicode_words if tokenizer == "unicode" else unicode_characters
    expected = [[split(line) for line in text.split("\n") if line] for text in texts]
    vocabulary = encoder.vocabulary
    got, k, u = [], 0, 0
    for n_units in units:
        lines = []
        for _ in range(n_units):
            lines.append([vocabulary[i] for i in ids[k:k + lengths[u]]])
            k += lengths[u]
            u += 1
        got.append([line for line in lines])
    assert [[t for line in text for t in line] for text in got] == [[t for line in text for t in line]
                                                                     for text in expected]


rouge_scorer_rs = pytest.importorskip("rouge_score_rs.rouge_scorer")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(words.map(" ".join), words.map("\n".join)), min_size=1, max_size=4),
       st.sampled_from(["unicode", "character"]))
def test_rouge_with_unicode_tokens_equals_rouge_score_rs(pairs, tokenizer):
    tok = rs_tokenizers.UnicodeTokenizer() if tokenizer == "unicode" else rs_tokenizers.CharacterTokenizer()
    scorer = rouge_scorer_rs.RougeScorer(["rouge1", "rouge2", "rougeLsum"], tokenizer=tok)
    summaries = [s for s, _ in pairs]
    references = [[r] for _, r in pairs]
    table = rouge(summaries, references, ["rouge-1", "rouge-2", "rouge-l"], tokenizer=tokenizer,
                  multiref="best-f", perl_round_before_f=False)
    for i, (s, r) in enumerate(pairs):
        score = scorer.score(r, s)
        for ours, theirs in (("rouge1", "rouge1"), ("rouge2", "rouge2"), ("rougel", "rougeLsum")):
            assert table.loc[i, f"{ours}_f"] == pytest.approx(score[theirs].fmeasure, abs=1e-12)
            assert table.loc[i, f"{ours}_r"] == pytest.approx(score[theirs].recall, abs=1e-12)


@pytest.mark.parametrize("measure", ["rouge-1", "rouge-3", "rouge-l", "rouge-w-1.2", "rouge-s4", "rouge-su4",
                                     "rouge-s*"])
def test_every_measure_reads_unicode_tokens_like_perl_reads_ascii(measure):
    """On lower-case ASCII words the Unicode tokens are ROUGE-1.5.5's, so every measure agrees with the
    Perl-exact default; Cyrillic words (which the default reads as nothing) score as ASCII words would."""
    summaries = ["the cat sat on the mat\nand the dog ran", "a b c d"]
    references = [["the cat lay on a mat\nthe dog ran away", "a cat"], ["a c b d e"]]
    perl = rouge(summaries, references, [measure], stem=False)
    ours = rouge(summaries, references, [measure], tokenizer="unicode")
    np.testing.assert_array_equal(ours.to_numpy(), perl.to_numpy())
    cyrillic = rouge(["\u043a\u043e\u0442 \u0441\u0438\u0434\u0435\u043b \u043d\u0430 \u043a\u043e\u0432\u0440\u0435"],
                     [["\u043a\u043e\u0442 \u0441\u0438\u0434\u0435\u043b \u043d\u0430 \u043a\u043e\u0432\u0440\u0435"]],
                     [measure], tokenizer="unicode")
    ascii_words = rouge(["kot sidel na kovre"], [["kot sidel na kovre"]], [measure], stem=False)
    assert cyrillic.iloc[0].tolist() == ascii_words.iloc[0].tolist()


def test_ascii_tokenizers_warn_about_dropped_letters():
    arabic = "\u0627\u0644\u0642\u0637 \u062c\u0644\u0633"
    with pytest.warns(DroppedLettersWarning, match=r"3 text\(s\) lost letters.*tokenizer='unicode'"):
        table = rouge([arabic, "the cat \u732b sat"], [[arabic], ["the cat \u72d7 sat"]], ["rouge-1"])
    assert table["rouge1_f"].tolist() == [0.0, 1.0]  # the silent zero, and the silent 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = rouge([arabic, "the cat \u732b sat"], [[arabic], ["the cat \u72d7 sat"]], ["rouge-1"],
                      tokenizer="unicode")
        rouge(["plain \u00a3 5 \u2014 \u201cquoted\u201d"], [["plain"]], ["rouge-1"])  # no letter lost: no warning
    assert table["rouge1_f"].tolist() == [1.0, 0.75]


def test_snowball_stemming():
    nltk_snowball = pytest.importorskip("nltk.stem.snowball")
    stem = nltk_snowball.SnowballStemmer("german").stem
    assert stem("h\u00e4user") == stem("haus")  # the pair the test relies on
    table = rouge(["die H\u00e4user"], [["das Haus"]], ["rouge-1"], tokenizer="unicode", stemmer="snowball:german")
    assert table["rouge1_r"].iloc[0] == 0.5
    assert rouge(["die H\u00e4user"], [["das Haus"]], ["rouge-1"], tokenizer="unicode")["rouge1_r"].iloc[0] == 0.0
    with pytest.raises(ValueError, match="klingon"):
        rouge(["a"], [["a"]], ["rouge-1"], tokenizer="unicode", stemmer="snowball:klingon")


def test_bad_tokenizer_options_are_named():
    with pytest.raises(InputError, match="unknown tokenizer 'words'"):
        rouge(["a"], [["a"]], tokenizer="words")
    with pytest.raises(InputError, match="word_limit"):
        rouge(["a"], [["a"]], tokenizer="unicode", word_limit=10)
    assert unicodedata.unidata_version  # normalisation tables are Python's (see rougelab.text.tokenizers)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("aZ09_.:',;\"- \n\r\t\x0b\x00\u00a3\u2013"), max_size=30), min_size=1,
                max_size=5), st.sampled_from(["unicode", "character"]))
def test_ascii_shortcut_equals_rouge_score_rs(texts, tokenizer):
    """ASCII texts (and texts whose other characters only separate words, like "£") take the ASCII
    shortcut (a compiled pass for words, one regular expression for characters): the same tokens."""
    encoder = make_encoder(tokenizer)
    ids, _, _ = encoder.encode_many(texts)
    tok = rs_tokenizers.UnicodeTokenizer() if tokenizer == "unicode" else rs_tokenizers.CharacterTokenizer()
    assert [encoder.vocabulary[i] for i in ids] == [t for text in texts for t in tok.tokenize(text)]


@pytest.mark.parametrize("tokenizer", ["rouge155", "rouge-score", "unicode", "character"])
def test_tokenize_as_gives_each_tokenizers_tokens(tokenizer):
    from rougelab.text.tokenize import tokenize
    from rougelab.text.tokenizers import tokenize_as
    text = "The Cats' caf\u00e9 \u732b\u306d\u3053, don't!\nnew line 3.50"
    expected = {"rouge155": tokenize(text.replace("\n", " ")),
                "unicode": rs_tokenizers.UnicodeTokenizer().tokenize(text),
                "character": rs_tokenizers.CharacterTokenizer().tokenize(text),
                "rouge-score": rs_tokenizers.DefaultTokenizer().tokenize(text)}[tokenizer]
    assert tokenize_as(text, tokenizer) == expected


def test_dropped_letters_counted_for_every_code_point():
    """``count_dropped_letters`` against a check of each non-ASCII character on its own (Unicode's Alphabetic or
    Number property), for every code point of the planes that hold letters (0-2) in a text of ASCII words, and on
    texts that repeat."""
    import regex

    from rougelab.text.tokenizers import count_dropped_letters

    letter_or_digit = regex.compile(r"[\p{Alphabetic}\p{N}]")
    chars = [chr(c) for c in range(0x80, 0x30000) if not 0xD800 <= c <= 0xDFFF]
    texts = [f"a {c} b\u2014c" for c in chars]
    assert count_dropped_letters(texts) == sum(letter_or_digit.match(c) is not None for c in chars) > 100_000
    assert count_dropped_letters(["caf\u00e9", "caf\u00e9", "plain", "\u00a3 5 \u201cq\u201d"]) == 1
