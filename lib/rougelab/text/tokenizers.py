"""The tokenizers ROUGE can read text with, each a front end to the same compiled scan and gram tables.

``tokenizer=`` in ``rougelab.rouge.rouge`` picks one by name:

* ``"rouge155"`` (default): ROUGE-1.5.5's (``rougelab.text.tokenize``): ASCII lower-casing, tokens are
  runs of ``[a-z0-9]`` of the UTF-8 bytes. Letters outside ASCII are separators, so Chinese, Arabic or
  Cyrillic text has no tokens at all (``rouge`` warns when that happens).
* ``"rouge-score"``: Google's ``rouge-score`` 0.1.2 (``rouge_score.tokenize``): Python's ``str.lower``,
  then runs of ``[a-z0-9]``. It differs from ``"rouge155"`` only where ``str.lower`` of a non-ASCII
  character is ASCII (U+0130 -> ``i``, the Kelvin sign U+212A -> ``k``); its stemmer differs (below).
* ``"unicode"``: rouge-score-rs's ``UnicodeTokenizer`` (profile ``unicode-v1``): the text is normalised
  NFKC, fully case-folded, NFKC again, and split at Unicode word boundaries (UAX #29); every word
  holding an alphabetic character or a number is a token (``don't``, ``3.50``), each CJK ideograph is
  a word of its own. Scripts written without spaces (Thai, Lao, Khmer, Burmese) are not split into words.
* ``"character"``: rouge-score-rs's ``CharacterTokenizer`` (``character-v1``): the same normalisation,
  then every grapheme cluster (UAX #29) holding an alphabetic character or a number is a token.

UAX #29 word and grapheme boundaries are the standard's rules written as regular expressions over the
``regex`` package's Unicode property tables (below); normalisation and case folding come from Python's
``unicodedata`` (Unicode 14.0 on Python 3.11), so characters assigned after Unicode 14 may normalise
differently from rouge-score-rs (Unicode 17). Tests: tests/test_text_tokenizers.py, a differential
against rouge-score-rs.

Stemmers (``stemmer=``), applied to tokens longer than 3 characters, each distinct token once:
``"rouge155"`` (ROUGE-1.5.5's ``-m``: WordNet-2.0 exceptions, then its modified Porter), ``"porter"``
(NLTK's ``PorterStemmer()`` in its default ``NLTK_EXTENSIONS`` mode, as rouge-score's ``use_stemmer=True``
calls it) and ``"snowball:<language>"`` (NLTK's Snowball stemmer, e.g. ``"snowball:german"``).
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Callable

import numpy as np
import regex

from rougelab.resources import EXCEPTION_LISTS
from rougelab.text.stemmer import MIN_STEM_LENGTH, stem_token
from rougelab.text.tokenize import TokenEncoder

TOKENIZERS = ("rouge155", "rouge-score", "unicode", "character")
DEFAULT_STEMMER = {"rouge155": "rouge155", "rouge-score": "porter", "unicode": "porter", "character": "porter"}

# UAX #29 (Unicode Text Segmentation) written as regular expressions over the ``regex`` package's Unicode
# tables. regex's own ``(?w)\b`` and ``\X`` differ from UAX #29 and from rouge-score-rs in places (Extend
# or Format characters around a mid-word apostrophe or colon; conjuncts GB9c joins without a consonant),
# so the rules are spelled out here; ``findall`` tiles the text into segments, and a segment holding an
# alphabetic character or a number (Rust's ``char::is_alphanumeric``) is a token.
#
# Words: WB4 (Extend, Format and ZWJ ride on the character before them), WB5-WB13b (letters, numbers,
# Katakana and connectors join; a MidLetter/MidNum/quote joins two letters or two numbers), WB3c (ZWJ x
# pictograph), WB3d (spaces), WB15-16 (flag pairs), break everywhere else. One deliberate copy of
# rouge-score-rs (its unicode-segmentation crate): a letter, a mid-word character and a ZWJ before a
# pictograph stay one word (``x'<ZWJ><pictograph>``), where UAX #29 breaks after the letter.
_E = r"[\p{WB=Extend}\p{WB=Format}\p{WB=ZWJ}]*"
_AH = r"[\p{WB=ALetter}\p{WB=Hebrew_Letter}]"
_HL, _NU, _KA, _EX = r"\p{WB=Hebrew_Letter}", r"\p{WB=Numeric}", r"\p{WB=Katakana}", r"\p{WB=ExtendNumLet}"
_MID_LETTER = r"[\p{WB=MidLetter}\p{WB=MidNumLet}\p{WB=Single_Quote}]"
_MID_NUM = r"[\p{WB=MidNum}\p{WB=MidNumLet}\p{WB=Single_Quote}]"
_PICT = r"(?<=\u200d)\p{Extended_Pictographic}" + _E
_NEXT = (rf"(?:(?<={_AH}{_E})(?:{_MID_LETTER}{_E}(?:{_AH}{_E}|{_PICT})|[{_AH}{_NU}{_EX}]{_E})"
         rf"|(?<={_HL}{_E})(?:\p{{WB=Double_Quote}}{_E}{_HL}{_E}|\p{{WB=Single_Quote}}{_E})"
         rf"|(?<={_NU}{_E})(?:{_MID_NUM}{_E}(?:{_NU}{_E}|{_PICT})|[{_AH}{_NU}{_EX}]{_E})"
         rf"|(?<={_KA}{_E})[{_KA}{_EX}]{_E}"
         rf"|(?<={_EX}{_E})[{_AH}{_NU}{_KA}{_EX}]{_E})")
_RI = r"\p{WB=Regional_Indicator}"
_WORD_SEGMENT = regex.compile(
    rf"(?sV1)\r\n|[\r\n\p{{WB=Newline}}]|\p{{WB=WSegSpace}}+{_E}(?:{_PICT})*"
    rf"|[{_AH}{_NU}{_KA}{_EX}]{_E}(?:{_NEXT})*(?:{_PICT})*|{_RI}{_E}{_RI}{_E}(?:{_PICT})*|.{_E}(?:{_PICT})*")
# Grapheme clusters (extended): GB3-GB5 (CR LF, controls), GB6-GB8 (Hangul syllables), GB9-GB9b (Extend,
# ZWJ, SpacingMark after; Prepend before), GB9c (Indic conjuncts), GB11 (emoji ZWJ sequences), GB12-13 (flags).
_GB_EXTEND = r"[\p{GCB=Extend}\p{GCB=ZWJ}]"
_INCB = r"[\p{InCB=Extend}\p{InCB=Linker}]"
_CONJUNCT = rf"(?<=\p{{InCB=Consonant}}{_INCB}*\p{{InCB=Linker}}{_INCB}*)\p{{InCB=Consonant}}"
_HANGUL = r"(?:\p{GCB=L}*(?:\p{GCB=V}+|\p{GCB=LV}\p{GCB=V}*|\p{GCB=LVT})\p{GCB=T}*|\p{GCB=L}+|\p{GCB=T}+)"
_GB_CORE = (rf"(?:{_HANGUL}|\p{{GCB=Regional_Indicator}}\p{{GCB=Regional_Indicator}}"
            rf"|\p{{Extended_Pictographic}}(?:{_GB_EXTEND}*\u200d\p{{Extended_Pictographic}})*|[^\p{{GCB=Control}}\r\n])")
_GRAPHEME = regex.compile(rf"(?sV1)\r\n|[\p{{GCB=Control}}\r\n]"
                          rf"|\p{{GCB=Prepend}}*{_GB_CORE}(?:{_GB_EXTEND}|\p{{GCB=SpacingMark}}|{_CONJUNCT})*"
                          rf"|\p{{GCB=Prepend}}+")
_ALNUM = regex.compile(r"[\p{Alphabetic}\p{N}]")
_VALID = regex.compile(r"[a-z0-9]+")  # rouge-score's final check on every token


def unicode_normalize(text: str) -> str:
    """``unicode-v1``'s normalisation: NFKC, full case folding, NFKC."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def _tokens(pattern, text: str) -> list[str]:
    """The segments of ``pattern`` in normalised ``text`` that hold a letter or number, and a newline
    where a line (a sentence unit of ``split_sentences``' "newline" rule) ends."""
    segments = pattern.findall(unicode_normalize(text))
    kept = {s for s in set(segments) if _ALNUM.search(s)}
    return [s if s in kept else "\n" for s in segments if s in kept or "\n" in s]


def unicode_words(text: str) -> list[str]:
    """The tokens of rouge-score-rs's ``UnicodeTokenizer`` (profile ``unicode-v1``)."""
    return [w for w in _tokens(_WORD_SEGMENT, text) if w != "\n"]


def unicode_characters(text: str) -> list[str]:
    """The tokens of rouge-score-rs's ``CharacterTokenizer`` (profile ``character-v1``)."""
    return [g for g in _tokens(_GRAPHEME, text) if g != "\n"]


@lru_cache(maxsize=None)
def get_stemmer(name: str) -> Callable[[str], str]:
    """The stemming function for ``stemmer=name`` (tokens of at most 3 characters are kept as they are)."""
    if name == "rouge155":
        return stem_token
    if name == "porter":
        from nltk.stem.porter import PorterStemmer

        stem = PorterStemmer().stem
    elif isinstance(name, str) and name.startswith("snowball:"):
        from nltk.stem.snowball import SnowballStemmer

        language = name.split(":", 1)[1]
        if language not in SnowballStemmer.languages:
            raise ValueError(f"unknown Snowball language {language!r} in stemmer={name!r}: use one of "
                             f"{', '.join(SnowballStemmer.languages)}")
        stem = SnowballStemmer(language).stem
    else:
        raise ValueError(f"unknown stemmer {name!r}: use 'rouge155', 'porter' or 'snowball:<language>' "
                         "(e.g. 'snowball:german')")
    cached = lru_cache(maxsize=200_000)(stem)
    return lambda token: cached(token) if len(token) >= MIN_STEM_LENGTH else token


class RougeScoreEncoder(TokenEncoder):
    """rouge-score's tokenizer: ``str.lower`` (only texts with non-ASCII characters need it: ASCII
    lower-casing is the byte table's), runs of ``[a-z0-9]``; a stem that is no longer ``[a-z0-9]+``
    (or empty) is dropped, as rouge-score's final check drops it."""

    def __init__(self, *, stem: bool = False, stopwords: bool = False, stemmer: str = "porter") -> None:
        super().__init__(stem=stem, stopwords=stopwords)
        self._stem = get_stemmer(stemmer)

    def surface_bytes(self, texts):
        return super().surface_bytes([t if t.isascii() else t.lower() for t in texts])

    def stem_word(self, word):
        stemmed = self._stem(word)
        return stemmed if _VALID.fullmatch(stemmed) else None


class UnicodeEncoder(TokenEncoder):
    """``unicode-v1`` words (``characters=False``) or ``character-v1`` grapheme clusters as tokens.

    Each text's tokens are written out for the compiled scan, one sentence unit per line, separated by
    spaces; a space inside a token (a space carrying a combining mark) is written as byte 0xFF, which
    UTF-8 never uses."""

    def __init__(self, *, stem: bool = False, stopwords: bool = False, stemmer: str = "porter",
                 characters: bool = False) -> None:
        super().__init__(stem=stem, stopwords=stopwords)
        self._stem = get_stemmer(stemmer)
        self.pattern = _GRAPHEME if characters else _WORD_SEGMENT

    def surface_bytes(self, texts):
        encoded = [b"\xfe".join(t.encode("utf-8", "surrogatepass") for t in _tokens(self.pattern, text))
                   for text in texts]
        ends = np.cumsum(np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)) + 1) - 1
        return b"\n".join(encoded).replace(b" ", b"\xff").replace(b"\xfe", b" "), ends

    def _words(self):
        data, first, size = self._surface
        return [data[a:a + n].replace(b"\xff", b" ").decode("utf-8", "surrogatepass") for a, n in zip(first, size)]

    def stem_word(self, word):
        return self._stem(word)


def make_encoder(tokenizer: str = "rouge155", *, stem: bool = False, stopwords: bool = False,
                 stemmer: str | None = None, exceptions: tuple[str, ...] = EXCEPTION_LISTS) -> TokenEncoder:
    """The ``encode_many`` front end for ``tokenizer`` (see the module docstring); ``exceptions``: the
    WordNet exception lists of ROUGE-1.5.5's stemmer (``rougelab.text.stemmer``)."""
    stemmer = stemmer or DEFAULT_STEMMER.get(tokenizer, "")
    if tokenizer not in TOKENIZERS:
        raise ValueError(f"unknown tokenizer {tokenizer!r}: use one of {', '.join(TOKENIZERS)}")
    if tokenizer == "rouge155":
        if stemmer != "rouge155":
            raise ValueError(f"tokenizer='rouge155' stems with ROUGE-1.5.5's own stemmer, not {stemmer!r}")
        return TokenEncoder(stem=stem, stopwords=stopwords, exceptions=exceptions)
    get_stemmer(stemmer)  # a bad name fails here, stemming or not
    if tokenizer == "rouge-score":
        return RougeScoreEncoder(stem=stem, stopwords=stopwords, stemmer=stemmer)
    return UnicodeEncoder(stem=stem, stopwords=stopwords, stemmer=stemmer, characters=tokenizer == "character")


_NON_ASCII_ALNUM = regex.compile(r"[[\p{Alphabetic}\p{N}]--\p{ASCII}]", regex.V1)


def count_dropped_letters(texts) -> int:
    """How many distinct ``texts`` hold a letter or digit outside ASCII (which ``"rouge155"`` and
    ``"rouge-score"`` tokenisation turn into a separator)."""
    return sum(1 for t in set(texts) if not t.isascii() and _NON_ASCII_ALNUM.search(t))
