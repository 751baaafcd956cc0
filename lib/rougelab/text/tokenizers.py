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

UAX #29 word and grapheme boundaries come from the ``regex`` package (``(?w)\\b`` and ``\\X``, its own
Unicode tables); normalisation and case folding from Python's ``unicodedata`` (Unicode 14.0 on Python
3.11), so characters assigned after Unicode 14 may normalise differently from rouge-score-rs (Unicode 17).

Stemmers (``stemmer=``), applied to tokens longer than 3 characters, each distinct token once:
``"rouge155"`` (ROUGE-1.5.5's ``-m``: WordNet-2.0 exceptions, then its modified Porter), ``"porter"``
(NLTK's ``PorterStemmer()`` in its default ``NLTK_EXTENSIONS`` mode, as rouge-score's ``use_stemmer=True``
calls it) and ``"snowball:<language>"`` (NLTK's Snowball stemmer, e.g. ``"snowball:german"``).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

import numpy as np
import regex

from rougelab.resources import EXCEPTION_LISTS
from rougelab.text.stemmer import MIN_STEM_LENGTH, stem_token
from rougelab.text.tokenize import TokenEncoder

TOKENIZERS = ("rouge155", "rouge-score", "unicode", "character")
DEFAULT_STEMMER = {"rouge155": "rouge155", "rouge-score": "porter", "unicode": "porter", "character": "porter"}

# A UAX #29 word (the text between two consecutive word boundaries) holding an alphabetic character or a
# number: characters before the first such one may not be followed by a boundary. The newline marks
# sentence units (a word boundary always falls on both sides of it).
_WORD = regex.compile(r"(?wV1)\n|\b(?:[^\p{Alphabetic}\p{N}\n]\B)*[\p{Alphabetic}\p{N}].*?\b")
_GRAPHEME = regex.compile(r"\n|\X", regex.V1)
_ALNUM = regex.compile(r"[\p{Alphabetic}\p{N}]")
_VALID = regex.compile(r"[a-z0-9]+")  # rouge-score's final check on every token


def unicode_normalize(text: str) -> str:
    """``unicode-v1``'s normalisation: NFKC, full case folding, NFKC."""
    import unicodedata

    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def unicode_words(text: str) -> list[str]:
    """The tokens of rouge-score-rs's ``UnicodeTokenizer`` (profile ``unicode-v1``), newlines dropped."""
    return [w for w in _WORD.findall(unicode_normalize(text)) if w != "\n"]


def unicode_characters(text: str) -> list[str]:
    """The tokens of rouge-score-rs's ``CharacterTokenizer`` (profile ``character-v1``)."""
    return [g for g in _GRAPHEME.findall(unicode_normalize(text)) if g != "\n" and _ALNUM.search(g)]


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

    Each text's tokens are written space-separated, one sentence unit per line, and the compiled scan
    numbers them like any other tokens (a token never holds a space or a newline)."""

    def __init__(self, *, stem: bool = False, stopwords: bool = False, stemmer: str = "porter",
                 characters: bool = False) -> None:
        super().__init__(stem=stem, stopwords=stopwords)
        self._stem = get_stemmer(stemmer)
        self.characters = characters

    def surface_bytes(self, texts):
        pieces = []
        for text in texts:
            normal = unicode_normalize(text)
            if self.characters:
                graphemes = _GRAPHEME.findall(normal)
                keep = {g for g in set(graphemes) if g == "\n" or _ALNUM.search(g)}
                pieces.append(" ".join(g for g in graphemes if g in keep))
            else:
                pieces.append(" ".join(_WORD.findall(normal)))
        encoded = [p.encode("utf-8", "surrogatepass") for p in pieces]
        ends = np.cumsum(np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)) + 1) - 1
        return b"\n".join(encoded), ends

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
