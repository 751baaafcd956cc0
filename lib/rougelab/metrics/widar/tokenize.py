"""WIDAR's text handling, as in the authors' released code (Jain et al. 2022;
github.com/Raghav10j/WIDAR), as ``Preprocessing`` objects (``rougelab.text.preprocessing``).

Both tokenisers are rouge-score's (Python lower-casing, runs of ``[a-z0-9]``, tokens longer than 3
characters stemmed) and differ only in the stemmer:

* ``weighted_preprocessing``: NLTK's English Snowball stemmer by default (the weighted ROUGE-N/L of
  Eqs. 2-7); ``stemmer`` takes every name ``rougelab.rouge.rouge`` takes.
* ``ROUGE_SCORE``: NLTK's Porter stemmer in its default (``NLTK_EXTENSIONS``) mode, which is what
  Google's ``rouge-score`` uses with ``use_stemmer=True`` (the ROUGE-L recall of Algorithm 1 and the
  IDSS of Eq. 8).

Sentences are ``Preprocessing``'s ``"period"`` splitter's pieces (split on ``". "``): the paper does not
say how it splits, and the authors' code, which computed its tables, splits so; it is therefore the default
of every WIDAR name. Other splitters are options.
"""
from __future__ import annotations

from rougelab.text.preprocessing import Preprocessing

ROUGE_SCORE = Preprocessing("rouge-score", "porter")  # rouge_score.tokenizers.DefaultTokenizer(use_stemmer=True)


def split_sentences(text: str, *, drop_blank: bool = False, preprocessing: Preprocessing | None = None) -> list[str]:
    """WIDAR's sentences of ``text``: the pieces of ``preprocessing``'s splitter (weighted ROUGE's by default:
    ``"period"``, between ``". "`` separators), empty pieces dropped.

    ``drop_blank=True`` also drops whitespace-only pieces and strips the rest; the authors' code does this
    for the source document only, so a blank reference or summary piece still counts as a sentence there
    (it has no tokens, so it only changes |R| or |S|). The other splitters always drop blank pieces.
    """
    preprocessing = preprocessing or weighted_preprocessing()
    pieces = preprocessing.sentences(text)
    if preprocessing.splitter == "period" and not drop_blank:
        return pieces
    return [p.strip() for p in pieces if p.strip()]


def weighted_preprocessing(stemmer: str | None = "snowball", splitter="period") -> Preprocessing:
    """Weighted ROUGE's text handling: rouge-score's tokenizer, ``stemmer`` (a ``rougelab.rouge.rouge``
    stemmer name, ``"snowball"`` the authors' English Snowball; None: no stemming) and ``splitter`` (a
    ``rougelab.text.split_sentences`` splitter; ``"period"`` the authors')."""
    return Preprocessing.from_options(tokenizer="rouge-score", stem=stemmer is not None, stemmer=stemmer,
                                      splitter=splitter)



def widar_tokens(text: str, *, stem: bool = True) -> list[str]:
    """Tokens of ``text`` for weighted ROUGE: Snowball-stemmed when longer than 3 characters."""
    return weighted_preprocessing("snowball" if stem else None).tokens([text])[0]


def rouge_score_tokens(text: str, *, stem: bool = True) -> list[str]:
    """Tokens of ``text`` exactly as ``rouge_score.tokenizers.DefaultTokenizer(use_stemmer=stem)``."""
    return (ROUGE_SCORE if stem else Preprocessing("rouge-score", None)).tokens([text])[0]
