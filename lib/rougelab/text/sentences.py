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
    splitter : {"newline", "nltk", "none"} or callable
        ``"newline"`` (default): one sentence per line, as in ROUGE-1.5.5's SPL format; empty lines
        are dropped (as the Perl script drops them), whitespace-only lines are kept.
        ``"nltk"``: NLTK's Punkt algorithm with its default parameters (the pre-trained English model
        ``punkt_tab`` is a download, which rougelab never makes), applied to each line.
        ``"none"``: the whole text is one sentence, its newlines read as spaces (rouge-score's ``rougeL``).
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
    elif splitter == "nltk":
        pieces = [s for line in text.split("\n") for s in _punkt().tokenize(line)]
    else:
        raise ValueError(f"unknown sentence splitter {splitter!r}: use 'newline', 'nltk', 'none' or a callable")
    return [p for p in pieces if p]


_PUNKT = None


def _punkt():
    global _PUNKT
    if _PUNKT is None:
        from nltk.tokenize.punkt import PunktSentenceTokenizer

        _PUNKT = PunktSentenceTokenizer()
    return _PUNKT
