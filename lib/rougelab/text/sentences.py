"""Sentence boundaries for summary-level ROUGE-L (ROUGE-1.5.5 reads one sentence per line)."""
from __future__ import annotations

from typing import Callable

Splitter = str | Callable[[str], list[str]]


def split_sentences(text: str, splitter: Splitter = "newline") -> list[str]:
    """Split ``text`` into the sentence units ROUGE-L works on.

    Parameters
    ----------
    text : str
        A summary or reference.
    splitter : {"newline", "nltk", "none", "period"} or callable
        ``"newline"`` (default): one sentence per line, as in ROUGE-1.5.5's SPL format; empty lines
        are dropped (as the Perl script drops them), whitespace-only lines are kept.
        ``"nltk"``: NLTK's Punkt algorithm with its default parameters (the pre-trained English model
        ``punkt_tab`` is a download, which rougelab never makes), applied to each line.
        ``"none"``: the whole text is one sentence, its newlines read as spaces (rouge-score's ``rougeL``).
        ``"period"``: the pieces between ``". "`` separators, newlines kept inside them, as WIDAR's released
        code splits (Jain et al. 2022; the paper does not say how it splits).
        A callable maps a text to its sentences.

    Returns
    -------
    list[str]
        The non-empty sentences in order.
    """
    if not isinstance(text, str):
        raise TypeError(f"expected a string, got {type(text).__name__}")
    if callable(splitter):
        pieces = list(splitter(text))
    elif splitter == "newline":
        pieces = text.split("\n")
    elif splitter == "none":
        pieces = [text.replace("\n", " ")]
    elif splitter == "period":
        pieces = text.split(". ")
    elif splitter == "nltk":
        pieces = [s for line in text.split("\n") for s in _punkt().tokenize(line)]
    else:
        raise ValueError(f"unknown sentence splitter {splitter!r}: use 'newline', 'nltk', 'none', 'period' or a callable")
    return [p for p in pieces if p]


_PUNKT = None


def _punkt():
    global _PUNKT
    if _PUNKT is None:
        _PUNKT = _untrained_punkt()
    return _PUNKT


def _untrained_punkt():
    """NLTK's ``PunktSentenceTokenizer()`` (no trained parameters) with a faster, equivalent decision.

    Only ``text_contains_sentbreak`` is replaced; NLTK's own code still finds the candidate breaks and
    realigns closing punctuation. With empty parameters (no abbreviations, collocations, sentence starters
    or orthographic statistics) Punkt's annotation of a candidate's few tokens reduces to a rule on each
    token and the one after it (``_breaks``), computed here without building NLTK's token objects
    (tests/test_text_sentences.py: the same splits as NLTK's class on every text of every dataset).
    """
    from nltk.tokenize.punkt import PunktSentenceTokenizer, PunktToken

    class UntrainedPunkt(PunktSentenceTokenizer):
        def text_contains_sentbreak(self, text: str) -> bool:
            if "\n" in text:  # never within one line; NLTK's own annotation covers it anyway
                return super().text_contains_sentbreak(text)
            tokens = self._lang_vars.word_tokenize(text)
            return any(_breaks(tokens[i], tokens[i + 1]) for i in range(len(tokens) - 1))

    def _breaks(token: str, following: str) -> bool:
        """Whether untrained Punkt marks ``token`` (followed by ``following``) as a sentence break.

        First pass: ".", "?" and "!" break, and so does a word ending in one period (no abbreviation is
        known); a run of periods ("...", "a...") does not. Second pass: an initial ("J.") or a number
        ("2015.") does not break before punctuation or a lower-case word, nor an initial before an
        upper-case word (the orthographic heuristic with no statistics answers only from the case)."""
        if not (token in ("?", "!") or (token.endswith(".") and not token.endswith(".."))):
            return False
        if not token.endswith("."):
            return True
        kind = PunktToken._RE_NUMERIC.sub("##number##", token.lower())
        if len(kind) > 1 and kind[-1] == ".":
            kind = kind[:-1]
        initial = PunktToken._RE_INITIAL.match(token)
        if initial or kind == "##number##":
            if following in PunktSentenceTokenizer.PUNCTUATION or following[0].islower():
                return False
            if initial and following[0].isupper():
                return False
        return True

    return UntrainedPunkt()
