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
from itertools import accumulate

import numpy as np

from rougelab.resources import smart_stopwords
from rougelab.text.byte_tokens import RAW, scan_tokens
from rougelab.resources import EXCEPTION_LISTS
from rougelab.text.lexicon import lexicon_for
from rougelab.text.stemmer import stem_token

_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9\-]")
_FIRST_CHAR_OK = re.compile(r"[a-z0-9$]")
# Texts whose bytes are joined at a time (``surface_bytes``) in a larger batch: pieces that stay in the processor's
# caches (20,000 pairs of news: 15 ms in pieces of 1,000 texts, 18 ms of 10,000, when each piece was also mapped by
# a table; 8,000 texts of news 1.3 ms in pieces of 1,000, 1.6 ms at once).
JOIN_TEXTS = 1_000
# A batch of up to this many texts is joined at once, its bytes not copied again into a growing ``bytearray``: the
# copy's memory, grown and moved a piece at a time, was 210 fresh pages and 0.4-0.5 ms of a process's first
# 1,000-pair call on one thread (2,000 texts of news: 0.9 against 1.4 ms in all; 0.29 against 0.34 ms again;
# 4,000 texts 0.64 against 0.69).
JOINED_AT_ONCE = 4_000
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


def select_tokens(tokens: list[str], *, stem: bool = False, stopwords: bool = False,
                  exceptions: tuple[str, ...] = EXCEPTION_LISTS) -> list[str]:
    """Drop stopwords (``stopwords=True``) and tokens not starting with ``[a-z0-9$]``; stem (``stem=True``)."""
    stop = smart_stopwords() if stopwords else ()
    kept = [t for t in tokens if t not in stop and _FIRST_CHAR_OK.match(t)]
    return [stem_token(t, exceptions) for t in kept] if stem else kept


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


def token_spans(text: str) -> list[tuple[str, int, int]]:
    """``tokenize(text)``'s tokens (unstemmed, stopwords kept) with their character spans in ``text``.

    Every token is a run of ``[a-z0-9]`` of the ASCII-lower-cased text (which keeps each character where
    it was), and nothing between two tokens is one of those characters, so each token sits at the first
    place it occurs after the token before it.
    """
    lowered, spans, end = lowercase(text), [], 0
    for token in tokenize(text):
        start = lowered.index(token, end)
        end = start + len(token)
        spans.append((token, start, end))
    return spans


def _utf8(texts: list[str]) -> list[bytes]:
    """Each text's UTF-8, on its own (a str joined from texts beyond Latin-1 would hold 2 or 4 bytes a character);
    "surrogatepass": a lone surrogate becomes non-ASCII bytes."""
    return [text.encode("utf-8", "surrogatepass") for text in texts]


class TokenEncoder:
    """Texts -> integer token ids in one pass over their bytes (``scan_tokens``: compiled, or its Python source
    for a small batch, as ``rougelab._jit.compiled_or_python`` decides), each distinct token stemmed and
    filtered once a process (``rougelab.text.lexicon``).

    Equivalent to ``split_sentences(text)`` and ``tokenize(sentence, stem=..., stopwords=...)`` followed
    by numbering the tokens in order of first occurrence: after ASCII lower-casing a token is a maximal
    run of ``[a-z0-9]`` of the UTF-8 bytes, or a lone ``-``, which the first-character filter drops
    (``rougelab.text.byte_tokens``). ``vocabulary[i]`` is the (stemmed) token of id i; ``-s`` stopwords
    get no id.

    The other tokenizers (``rougelab.text.tokenizers``) are subclasses that change ``surface_bytes``
    (which bytes the scan reads) and ``reading`` (how), ``transform`` (what each distinct token becomes) and
    ``unstemmed_drops``, and share the rest.
    """

    reading = RAW  # how ``scan_tokens`` reads ``surface_bytes``' bytes (``rougelab.text.byte_tokens``)

    def __init__(self, *, stem: bool = False, stopwords: bool = False,
                 exceptions: tuple[str, ...] = EXCEPTION_LISTS) -> None:
        self.stem = stem
        self.exceptions = exceptions
        self.stop = smart_stopwords() if stopwords else frozenset()
        self._vocabulary: list[str] | None = []
        self._surface: tuple = (b"", np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64))
        self._numbered: tuple | None = None  # (a lexicon's tokens, the number of each id) of a transformed call

    @property
    def vocabulary(self) -> list[str]:
        """The token of each id of the last ``encode_many`` call."""
        if self._vocabulary is None:
            if self._numbered is None:  # without stemming and stopwords the ids are the surface tokens
                self._vocabulary = self._words()
            else:
                tokens, numbers = self._numbered
                self._vocabulary = [tokens[n] for n in numbers.tolist()]
        return self._vocabulary

    def lexicon_key(self) -> tuple:
        """What names this encoder's surface tokens and ``transform``: encoders of equal keys share a lexicon
        (``rougelab.text.lexicon``), so a subclass whose ``transform`` reads more of its state names it here."""
        return type(self), self.stem, self.exceptions, bool(self.stop)

    def _words(self) -> list[str]:
        data, first, size = self._surface
        return self._decoded(data, first, size)

    @staticmethod
    def _decoded(data, first: np.ndarray, size: np.ndarray) -> list[str]:
        """The surface tokens ``data[first[u]:first[u] + size[u]]`` as words."""
        # ``RAW`` bytes: a token's ASCII letters and digits, lower-cased as ``TOKEN_BYTES`` maps them
        return [data[a:a + n].lower().decode("utf-8") for a, n in zip(first.tolist(), size.tolist())]

    def _forms(self, data, first: np.ndarray, size: np.ndarray) -> list[str | None]:
        """What the surface tokens ``data[first[u]:first[u] + size[u]]`` become (None: dropped)."""
        return [None if word in self.stop else self.transform(word) for word in self._decoded(data, first, size)]

    def surface_bytes(self, texts: list[str]) -> tuple[bytes | bytearray, np.ndarray]:
        """The bytes ``scan_tokens`` reads as ``reading`` says (``RAW`` here: each text's UTF-8, sentence units
        separated by newlines, texts joined by newlines) and where each text ends in them."""
        if len(texts) <= JOINED_AT_ONCE:
            encoded = _utf8(texts)
            data, lengths = b"\n".join(encoded), list(map(len, encoded))
        else:
            data, lengths = bytearray(), []
            for k in range(0, len(texts), JOIN_TEXTS):
                encoded = _utf8(texts[k:k + JOIN_TEXTS])
                lengths += map(len, encoded)
                if k:
                    data += b"\n"
                data += b"\n".join(encoded)
        # text i ends after the bytes of texts 0..i and the i newlines between them: the lengths added up by
        # itertools: on a pair's two texts 1.2 us against 3.2 for numpy's cumsum with its temporaries (a loaded
        # machine); on 20,000 texts 0.5 ms against 0.4, next to the tens of ms such a piece takes
        ends = np.fromiter(accumulate(lengths), dtype=np.int64, count=len(lengths))
        ends += np.arange(len(lengths))
        return data, ends  # a larger batch's data grown in place: no list of pieces beside the whole

    def transform(self, word: str) -> str | None:
        """The token a surface token becomes (None: dropped); called when stemming or with stopwords."""
        return stem_token(word, self.exceptions) if self.stem else word

    def encode_many(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Token ids of many texts, each one sentence unit per non-empty line (Unicode, as ``tokenize`` takes).

        Returns
        -------
        (ids, lengths, units)
            All texts' ids end to end, the number of ids of each sentence unit, and each text's
            number of units.
        """
        data, ends = self.surface_bytes(list(texts))
        read = np.frombuffer(data, dtype=np.uint8)
        read.flags.writeable = False  # read-only, from bytes or a bytearray alike: one type for the kernel
        surface, lengths, units, first, size = scan_tokens(read, ends, self.reading)
        self._surface = (data, first, size)  # the distinct tokens' bytes, read only if asked for
        self._vocabulary, self._numbered = None, None
        if not self.stem and not self.stop:
            drop = self.unstemmed_drops()
            if drop is None or not drop.any():  # the surface tokens' numbers are the ids
                return surface, lengths, units
            self._vocabulary = [w for w, dropped in zip(self._words(), drop.tolist()) if not dropped]
            return self._keep((np.cumsum(~drop) - 1)[surface], drop[surface], lengths, units)
        ids, *self._numbered = lexicon_for(self.lexicon_key()).numbers(
            read, first, size, self.reading[1], lambda new: self._forms(data, first[new], size[new]))
        codes = ids[surface]
        return self._keep(codes, codes < 0, lengths, units)

    def unstemmed_drops(self) -> np.ndarray | None:
        """Without stemming or stopwords: which distinct surface tokens of the last scan are dropped
        (None: none can be)."""
        return None

    @staticmethod
    def _keep(codes, dropped, lengths, units):
        """(ids, lengths, units) without the ``dropped`` tokens, each unit's length counting what is left."""
        if not dropped.any():
            return codes, lengths, units
        ends = np.concatenate([[0], np.cumsum(~dropped)])[np.cumsum(lengths)]
        return codes[~dropped], np.diff(ends, prepend=0), units
