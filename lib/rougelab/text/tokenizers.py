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
calls it) and ``"snowball:<language>"`` (NLTK's Snowball stemmer, e.g. ``"snowball:german"``); the
exception lists of ``"rouge155"`` apply whichever tokenizer it stems. Which tokenizer, stemmer and lists a
scorer uses is one ``rougelab.text.preprocessing.Preprocessing``.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache, partial
from itertools import filterfalse
from typing import Callable

import numpy as np
import regex

from rougelab.resources import EXCEPTION_LISTS
from rougelab.text.stemmer import MIN_STEM_LENGTH, stem_token
# compiled_or_python through byte_tokens: importing rougelab._jit here would make this module a kernel source
# (_jit.kernel_sources)
from rougelab.text.byte_tokens import PLAIN, compiled_or_python, unicode_ascii_words
from rougelab.warn import walk_to_caller, warn
from rougelab.text.tokenize import TokenEncoder

TOKENIZERS = ("rouge155", "rouge-score", "unicode", "character")
# Seconds ``unicode_ascii_words``' pure-Python source takes per byte, a little above the 0.3-0.4 us measured
# (benchmarks/python_steps.py): ``compiled_or_python`` estimates a batch's Python run from it.
ASCII_WORDS_STEP = 5e-7

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
# ASCII text (normalised, it is lower-cased ASCII) has a shortcut: words by ``unicode_ascii_words`` (compiled),
# characters by this expression over many texts at once ("\0" between texts and "\n" between lines kept).
_ASCII_CHARACTERS = re.compile(r"\x00|\n|[a-z0-9]")
# A non-ASCII character that acts as a space in words (WB "Other": a break on both sides, WB999), holds no
# letter or number, and that normalisation and case folding leave alone, e.g. "£", "–", "©": a text whose
# only non-ASCII characters are such takes the ASCII shortcut with them turned into spaces.
_NOT_SEPARATOR = regex.compile(r"[\p{Alphabetic}\p{N}\p{Extended_Pictographic}\p{WB=Extend}\p{WB=Format}"
                               r"\p{WB=ZWJ}\p{WB=MidLetter}\p{WB=MidNum}\p{WB=MidNumLet}\p{WB=Single_Quote}"
                               r"\p{WB=Double_Quote}\p{WB=ExtendNumLet}\p{WB=Newline}\p{WB=Regional_Indicator}"
                               r"\p{WB=Katakana}\p{WB=Hebrew_Letter}\p{WB=ALetter}\p{WB=Numeric}\p{WB=WSegSpace}]")
_NON_ASCII = regex.compile(r"[^\x00-\x7f]")


@lru_cache(maxsize=100_000)
def _separator(char: str) -> bool:
    return unicode_normalize(char) == char and not _NOT_SEPARATOR.match(char)


def _as_ascii_words(text: str) -> str | None:
    """``text`` with its non-ASCII characters turned into spaces when each of them only separates words
    (``_separator``); None when one of them may belong to a word."""
    found = set(_NON_ASCII.findall(text))
    if all(_separator(c) for c in found):
        return text.translate({ord(c): " " for c in found})
    return None
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
def get_stemmer(name: str, exceptions: tuple[str, ...] = EXCEPTION_LISTS) -> Callable[[str], str]:
    """The stemming function for ``stemmer=name`` (tokens of at most 3 characters are kept as they are);
    ``exceptions``: the WordNet exception lists of ``"rouge155"`` (``rougelab.text.stemmer``)."""
    if name == "rouge155":
        return partial(stem_token, exceptions=exceptions)
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

    def __init__(self, *, stemmer: str | None = None, stopwords: bool = False,
                 exceptions: tuple[str, ...] = EXCEPTION_LISTS) -> None:
        super().__init__(stem=stemmer is not None, stopwords=stopwords, exceptions=exceptions)
        self._stem = get_stemmer(stemmer, exceptions) if stemmer else None

    def lexicon_key(self):  # the stemming function itself: ``get_stemmer`` makes another after its cache is cleared
        return type(self), self._stem, bool(self.stop)

    def surface_bytes(self, texts):
        return super().surface_bytes([t if t.isascii() else t.lower() for t in texts])

    def transform(self, word):
        if not self.stem:
            return word
        stemmed = self._stem(word)
        return stemmed if _VALID.fullmatch(stemmed) else None


class UnicodeEncoder(TokenEncoder):
    """``unicode-v1`` words (``characters=False``) or ``character-v1`` grapheme clusters as tokens.

    Each text's tokens are written out for the compiled scan, one sentence unit per line, separated by
    spaces; a space inside a token (a space carrying a combining mark) is written as byte 0xFF, which
    UTF-8 never uses. ASCII texts take a shortcut: the same rules restricted to ASCII, over all of them at
    once (words: one compiled pass, ``unicode_ascii_words``; grapheme clusters: one regular expression)."""

    reading = PLAIN  # ``surface_bytes`` writes the tokens out: spaces and newlines separate them

    def __init__(self, *, stemmer: str | None = None, stopwords: bool = False,
                 exceptions: tuple[str, ...] = EXCEPTION_LISTS, characters: bool = False) -> None:
        super().__init__(stem=stemmer is not None, stopwords=stopwords, exceptions=exceptions)
        self._stem = get_stemmer(stemmer, exceptions) if stemmer else None
        self.pattern = _GRAPHEME if characters else _WORD_SEGMENT
        self.characters = characters

    def lexicon_key(self):
        return type(self), self._stem, bool(self.stop), self.characters

    def surface_bytes(self, texts):
        raw = np.fromiter((t.isascii() for t in texts), dtype=np.bool_, count=len(texts))
        pieces: list = [None] * len(texts)
        if not self.characters:  # ASCII texts as they are, rewritten by one compiled pass below
            for i, text in enumerate(texts):
                plain = text if raw[i] else _as_ascii_words(text)
                if plain is not None:
                    raw[i] = True
                    pieces[i] = plain.encode("ascii")
        elif raw.any():  # ASCII texts: every letter or digit, lower-cased, one token
            fast = [i for i in np.flatnonzero(raw) if "\x00" not in texts[i]]
            joined = "\x00".join(texts[i] for i in fast).lower()
            for i, chars in zip(fast, " ".join(_ASCII_CHARACTERS.findall(joined)).split("\x00")):
                pieces[i] = chars.encode("ascii")
        for i, text in enumerate(texts):
            if pieces[i] is None:
                raw[i] = False
                pieces[i] = b"\xfe".join(t.encode("utf-8", "surrogatepass") for t in _tokens(self.pattern, text)) \
                    .replace(b" ", b"\xff").replace(b"\xfe", b" ")
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        ends = np.cumsum(lengths + 1) - 1
        data = b"\n".join(pieces)
        if self.characters or not raw.any():
            return data, ends
        per_byte = np.repeat(raw, lengths + 1)[:len(data)]
        ascii_words = compiled_or_python(unicode_ascii_words, len(data) * ASCII_WORDS_STEP)
        return ascii_words(np.frombuffer(data, dtype=np.uint8), per_byte).tobytes(), ends

    @staticmethod
    def _decoded(data, first, size):
        return [data[a:a + n].replace(b"\xff", b" ").decode("utf-8", "surrogatepass")
                for a, n in zip(first.tolist(), size.tolist())]

    def transform(self, word):
        if not self.characters and not _ALNUM.search(word):  # "_" alone (the ASCII shortcut keeps it)
            return None
        return self._stem(word) if self.stem else word

    def unstemmed_drops(self):
        """Words of "_" alone, which only the ASCII shortcut makes (every other word holds a letter or a
        number): counted from the bytes, without decoding a word."""
        if self.characters:
            return None
        data, first, size = self._surface
        if b"_" not in data:
            return None
        underscores = np.concatenate([[0], np.cumsum(np.frombuffer(data, dtype=np.uint8) == ord("_"))])
        return underscores[first + size] - underscores[first] == size


def tokenize_as(text: str, tokenizer: str = "unicode", *, stem: bool = False, stemmer: str | None = None) -> list[str]:
    """The tokens ``rouge(..., tokenizer=...)`` reads in one sentence of ``text``, in order
    (``rougelab.text.preprocessing.Preprocessing.tokens``)."""
    from rougelab.text.preprocessing import Preprocessing  # built on this module

    return Preprocessing.from_options(tokenizer=tokenizer, stem=stem, stemmer=stemmer).tokens([text])[0]


def make_encoder(tokenizer: str = "rouge155", *, stemmer: str | None = None, stopwords: bool = False,
                 exceptions: tuple[str, ...] = EXCEPTION_LISTS) -> TokenEncoder:
    """The ``encode_many`` front end for ``tokenizer`` (see the module docstring), stemming with ``stemmer``
    (None: no stemming); ``exceptions``: the WordNet exception lists of the ``"rouge155"`` stemmer.
    The names are checked, and defaults chosen, by ``rougelab.text.preprocessing.Preprocessing``."""
    if tokenizer == "rouge155":
        if stemmer not in (None, "rouge155"):
            raise ValueError(f"tokenizer='rouge155' stems with ROUGE-1.5.5's own stemmer, not {stemmer!r}")
        return TokenEncoder(stem=stemmer is not None, stopwords=stopwords, exceptions=exceptions)
    if tokenizer == "rouge-score":
        return RougeScoreEncoder(stemmer=stemmer, stopwords=stopwords, exceptions=exceptions)
    if tokenizer in ("unicode", "character"):
        return UnicodeEncoder(stemmer=stemmer, stopwords=stopwords, exceptions=exceptions,
                              characters=tokenizer == "character")
    raise ValueError(f"unknown tokenizer {tokenizer!r}: use one of {', '.join(TOKENIZERS)}")


# A non-ASCII character that is a letter or digit (``_ALNUM``): found as a non-ASCII character, then looked
# behind, so that the Unicode classes are asked of the non-ASCII characters alone (twice as fast on news).
_NON_ASCII_ALNUM = regex.compile(r"[^\x00-\x7f](?<=[\p{Alphabetic}\p{N}])")


def count_dropped_letters(texts) -> int:
    """How many distinct ``texts`` hold a letter or digit outside ASCII (which ``"rouge155"`` and
    ``"rouge-score"`` tokenisation turn into a separator)."""
    return sum(1 for t in set(filterfalse(str.isascii, texts)) if _NON_ASCII_ALNUM.search(t))


# A letter in each of the widths CPython stores a str in (1, 2 or 4 bytes a character): the regex module
# searches each width with code of its own.
_LETTER_OF_EACH_WIDTH = ("\u00e9", "\u0101", "\U0001d400")


def warm_dropped_letters() -> None:
    """``count_dropped_letters`` of a letter of each width and ``warn``'s walk to the caller (``walk_to_caller``),
    run where a process loads anyway (``rouge.api._again_after_loading``): its next call's first text with such a
    letter finds the search and the walk fresh (after the loading, that first search took 25-35 us, the next
    ones 2-5; benchmarks/RESULTS.md)."""
    count_dropped_letters(_LETTER_OF_EACH_WIDTH)
    walk_to_caller()


# What keeps other scripts' letters, for metrics that have no such option themselves.
UNICODE_ROUGE = "get_metric('rouge-1', tokenizer='unicode') (classic ROUGE on Unicode words) keeps them"


class DroppedLettersWarning(UserWarning):
    """A tokenizer that keeps only ASCII letters and digits dropped other scripts' letters from some texts
    (its own category, so a notebook that reproduces ROUGE-1.5.5 on purpose can filter it by name)."""


def warn_dropped_letters(texts, who: str, keeps: str) -> None:
    """Warn, at the caller's line, when ``who`` (a tokenizer setting or a metric that keeps only ASCII
    letters and digits) drops the letters of other scripts from some of ``texts`` (a Chinese text then
    scores 0 without a word); ``keeps`` names the option or the metric that keeps them."""
    dropped = count_dropped_letters(texts)
    if dropped:
        warn(f"{who} keeps only ASCII letters and digits: {dropped} text(s) lost letters or digits of other "
             f"scripts (a text of Chinese, Arabic, Cyrillic ... scores 0); {keeps}", DroppedLettersWarning)
