"""WIDAR's text handling, as in the authors' released code (Jain et al. 2022;
github.com/Raghav10j/WIDAR).

Two tokenisers share one rule -- Python lower-casing, every run of characters outside
``[a-z0-9]`` becomes a space, tokens longer than 3 characters are stemmed -- and differ only in
the stemmer:

* ``widar_tokens``: NLTK's English Snowball stemmer (the weighted ROUGE-N/L of Eqs. 2-7).
* ``rouge_score_tokens``: NLTK's Porter stemmer in its default (``NLTK_EXTENSIONS``) mode, which
  is what Google's ``rouge-score`` uses with ``use_stemmer=True`` (the ROUGE-L recall of
  Algorithm 1 and the IDSS of Eq. 8).

Sentences are pieces of the text split on ``". "`` (the paper does not say; the authors' code does).
"""
from __future__ import annotations

import re
from functools import lru_cache

from nltk.stem.porter import PorterStemmer
from nltk.stem.snowball import SnowballStemmer

_NON_ALPHANUMERIC = re.compile(r"[^a-z0-9]+")
_SNOWBALL = SnowballStemmer("english")
_PORTER = PorterStemmer()  # mode NLTK_EXTENSIONS, as rouge-score constructs it


@lru_cache(maxsize=None)
def _snowball(word: str) -> str:
    return _SNOWBALL.stem(word)


@lru_cache(maxsize=None)
def _porter(word: str) -> str:
    return _PORTER.stem(word)


def _tokens(text: str, stem) -> list[str]:
    words = _NON_ALPHANUMERIC.sub(" ", text.lower()).split()
    if stem is None:
        return words
    # A stemmer may return something outside [a-z0-9]+ only in theory; rouge-score drops such tokens.
    return [t for t in (stem(w) if len(w) > 3 else w for w in words) if t and _NON_ALPHANUMERIC.search(t) is None]


def widar_tokens(text: str, *, stem: bool = True) -> list[str]:
    """Tokens of ``text`` for weighted ROUGE: Snowball-stemmed when longer than 3 characters."""
    return _tokens(text, _snowball if stem else None)


def rouge_score_tokens(text: str, *, stem: bool = True) -> list[str]:
    """Tokens of ``text`` exactly as ``rouge_score.tokenizers.DefaultTokenizer(use_stemmer=stem)``."""
    return _tokens(text, _porter if stem else None)


def split_sentences(text: str, *, drop_blank: bool = False) -> list[str]:
    """Pieces of ``text`` between ``". "`` separators, empty pieces dropped.

    ``drop_blank=True`` also drops whitespace-only pieces and strips the rest; the authors' code
    does this for the source document only, so a blank reference or summary piece still counts
    as a sentence there (it has no tokens, so it only changes |R| or |S|).
    """
    pieces = text.split(". ")
    if drop_blank:
        return [p.strip() for p in pieces if p.strip()]
    return [p for p in pieces if p]
