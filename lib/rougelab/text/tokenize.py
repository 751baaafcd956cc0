"""ROUGE-1.5.5's tokenisation, in the order the Perl script applies it.

1. ``lowercase``: ASCII A-Z to a-z (``tr/A-Z/a-z/``) when a sentence is read;
2. (truncation by ``-l``/``-b`` happens here, on the lower-cased sentences; see ``rougelab.rouge.core``);
3. ``normalize``: ``-`` split off as its own token, every other non-alphanumeric to a space,
   whitespace squeezed;
4. ``select_tokens``: drop SMART stopwords (``-s``), keep tokens starting with ``[a-z0-9$]``
   (so the ``-`` tokens go), stem tokens longer than 3 characters (``-m``).

Text is handled as the Perl script sees it: UTF-8 bytes, one character per byte (``perl_bytes``), so
``-b`` counts bytes and every non-ASCII byte becomes a space.
"""
from __future__ import annotations

import re
from itertools import chain

import numpy as np

from rougelab.resources import smart_stopwords
from rougelab.text.stemmer import stem_token

_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9\-]")
_FIRST_CHAR_OK = re.compile(r"[a-z0-9$]")
# Byte -> byte: A-Z lower-cased, a-z 0-9 and the newline kept, every other byte a space.
_TOKEN_BYTES = bytes(c + 32 if 65 <= c <= 90 else c if 97 <= c <= 122 or 48 <= c <= 57 or c == 10 else 32
                     for c in range(256))
# Perl's \s on a byte string: the six ASCII whitespace characters (Python's str.split() knows more).
PERL_WHITESPACE = re.compile(r"[ \t\n\r\f\v]+")


def perl_bytes(text: str) -> str:
    """``text`` as the Perl script reads it: its UTF-8 bytes, one latin-1 character per byte."""
    if not isinstance(text, str):
        raise TypeError(f"expected a string, got {type(text).__name__}")
    return text.encode("utf-8").decode("latin-1")


def lowercase(text: str) -> str:
    """ASCII-only lower-casing (``tr/A-Z/a-z/``)."""
    return text.translate(_LOWER)


def perl_split(text: str) -> list[str]:
    """Perl's ``split(/\\s+/, text)``: a leading empty field if ``text`` starts with whitespace, no trailing ones."""
    fields = PERL_WHITESPACE.split(text)
    while fields and fields[-1] == "":
        fields.pop()
    return fields


def normalize(text: str) -> list[str]:
    """Split ``-`` off, turn other non-alphanumerics into spaces, and return the whitespace-separated tokens."""
    return _NOT_ALNUM.sub(" ", text.replace("-", " - ")).split()


def select_tokens(tokens: list[str], *, stem: bool = False, stopwords: bool = False) -> list[str]:
    """Drop stopwords (``stopwords=True``) and tokens not starting with ``[a-z0-9$]``; stem (``stem=True``)."""
    stop = smart_stopwords() if stopwords else ()
    kept = [t for t in tokens if t not in stop and _FIRST_CHAR_OK.match(t)]
    return [stem_token(t) for t in kept] if stem else kept


def tokenize(text: str, *, stem: bool = False, stopwords: bool = False) -> list[str]:
    """Tokens of one sentence exactly as ROUGE-1.5.5 makes them (no truncation).

    Parameters
    ----------
    text : str
        One sentence (any Unicode; non-ASCII characters end up as token boundaries).
    stem : bool
        ``-m``: WordNet-2.0 exceptions, then ROUGE's modified Porter, for tokens longer than 3 characters.
    stopwords : bool
        ``-s``: remove the SMART stopword list.

    Returns
    -------
    list[str]
        Lower-case ASCII tokens.
    """
    return select_tokens(normalize(lowercase(perl_bytes(text))), stem=stem, stopwords=stopwords)


class TokenEncoder:
    """Sentences -> integer token ids, each distinct surface token stemmed and filtered once.

    ``ids`` maps a kept (stemmed with ``stem``) token to its id; ``-s`` stopwords map to no id.
    Equivalent to ``tokenize(sentence, stem=..., stopwords=...)`` followed by a dictionary look-up
    (after ASCII lower-casing a token is a maximal run of ``[a-z0-9]`` of the UTF-8 bytes, or a lone
    ``-``, which the first-character filter drops), but the stopword and stemmer work is paid
    once per distinct word.
    """

    def __init__(self, ids: dict[str, int], *, stem: bool = False, stopwords: bool = False) -> None:
        self.ids = ids
        self.stem = stem
        self.stop = smart_stopwords() if stopwords else frozenset()
        self._surface: dict[bytes, int] = {}

    def _add(self, raw: bytes) -> int:
        word = raw.decode("ascii")
        if word in self.stop:
            code = -1
        else:
            kept = stem_token(word) if self.stem else word
            code = self.ids.setdefault(kept, len(self.ids))
        self._surface[raw] = code
        return code

    def encode_many(self, sentences: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Token ids of many sentences (Unicode text, as ``tokenize`` takes) in one pass over their bytes.

        Returns
        -------
        (ids, lengths)
            All sentences' ids end to end, and each sentence's number of ids.
        """
        if not sentences:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        if any("\n" in s for s in sentences):  # a newline inside a sentence only separates tokens
            sentences = [s.replace("\n", " ") for s in sentences]
        data = "\n".join(sentences).encode("utf-8").translate(_TOKEN_BYTES)
        parts = [line.split() for line in data.split(b"\n")]
        words = list(chain.from_iterable(parts))
        surface = self._surface
        for word in dict.fromkeys(words):
            if word not in surface:
                self._add(word)
        codes = np.fromiter(map(surface.__getitem__, words), dtype=np.int64, count=len(words))
        lengths = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
        if not self.stop:
            return codes, lengths
        kept = codes >= 0
        ends = np.concatenate([[0], np.cumsum(kept)])[np.cumsum(lengths)]
        return codes[kept], np.diff(ends, prepend=0)
