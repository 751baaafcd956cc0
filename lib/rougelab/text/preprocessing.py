"""How a scorer turns text into tokens: one frozen ``Preprocessing`` (tokenizer, stemmer, exception lists,
stopwords, sentence splitter), taken by every scorer that tokenizes (``rougelab.rouge.rouge``,
``rougelab.conventions.Convention``, WIDAR) and named in their signatures by ``signature``.

``Preprocessing()`` is ROUGE-1.5.5 with ``-m`` as papers run it; ``default_stemmer`` is the one place that
decides what "stem" means for a tokenizer when no stemmer is named. ``Preprocessing.from_options`` turns
``rouge()``'s keyword shorthand (``tokenizer=``, ``stem=``, ``stemmer=``, ``stem_exceptions=``,
``stopwords=``, ``splitter=``) into one, and nothing else does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Sequence

import numpy as np

from rougelab.fingerprint import stable_text
from rougelab.resources import EXCEPTION_LISTS
from rougelab.scoring import InputError
from rougelab.text.sentences import Splitter, split_sentences
from rougelab.text.stemmer import check_exceptions
from rougelab.text.tokenize import TokenEncoder
from rougelab.text.tokenizers import TOKENIZERS, get_stemmer, make_encoder

SPLITTERS = ("newline", "nltk", "none", "period")
_UNSET = "default"  # ``stemmer`` not given: ``default_stemmer(tokenizer)``


def default_stemmer(tokenizer: str, stem: bool | None = None) -> str | None:
    """The stemmer of ``tokenizer`` when none is named (None: no stemming).

    ``stem=None`` (not said): ROUGE-1.5.5's tokenizer stems with its own stemmer (``-m``, as papers report),
    the others do not stem (rouge-score's ``use_stemmer=False``). ``stem=True``: ROUGE-1.5.5's stemmer for
    ``"rouge155"``, NLTK's Porter (rouge-score's ``use_stemmer=True``) for the others.
    """
    if stem is None:
        stem = tokenizer == "rouge155"
    return ("rouge155" if tokenizer == "rouge155" else "porter") if stem else None


class Encoded(NamedTuple):
    """Token ids of texts (``TokenEncoder.encode_many``): all ids end to end, the number of ids of each
    sentence unit, each text's number of units, and the encoder, whose ``vocabulary[i]`` is id i's token."""

    ids: np.ndarray
    lengths: np.ndarray
    units: np.ndarray
    encoder: TokenEncoder

    @property
    def vocabulary(self) -> list[str]:
        return self.encoder.vocabulary


@dataclass(frozen=True)
class Preprocessing:
    """Every choice between a text and the tokens a scorer counts.

    tokenizer : ``"rouge155"`` (ROUGE-1.5.5's), ``"rouge-score"``, ``"unicode"``, ``"character"``
        (``rougelab.text.tokenizers``).
    stemmer : ``"rouge155"`` (``-m``: WordNet-2.0 exceptions, then ROUGE's Porter), ``"porter"`` (NLTK's,
        as rouge-score runs it), ``"snowball:<language>"`` (NLTK's Snowball; ``"snowball"`` is English),
        or None (no stemming); not given: ``default_stemmer(tokenizer)``. Tokens of 3 characters or fewer
        are never stemmed. ``"rouge155"`` is the only stemmer of the ``"rouge155"`` tokenizer.
    stem_exceptions : the WordNet-2.0 exception lists of the ``"rouge155"`` stemmer, in merge order
        (``rougelab.resources.EXCEPTION_LISTS``); ``()``: its Porter stemmer alone. Other stemmers have none.
    stopwords : remove ROUGE-1.5.5's SMART stopwords (``-s``).
    splitter : sentence units (``rougelab.text.split_sentences``): ``"newline"``, ``"nltk"``, ``"none"``,
        ``"period"`` (WIDAR's) or a callable.
    """

    tokenizer: str = "rouge155"
    stemmer: str | None = _UNSET
    stem_exceptions: tuple[str, ...] = EXCEPTION_LISTS
    stopwords: bool = False
    splitter: Splitter = "newline"

    def __post_init__(self):
        if self.tokenizer not in TOKENIZERS:
            raise InputError(f"unknown tokenizer {self.tokenizer!r}: use one of {', '.join(TOKENIZERS)}")
        stemmer = default_stemmer(self.tokenizer) if self.stemmer == _UNSET else self.stemmer
        if stemmer == "snowball":
            stemmer = "snowball:english"
        if stemmer is not None:
            if not isinstance(stemmer, str):
                raise InputError(f"stemmer must be a name such as 'porter' or None, not {stemmer!r}")
            try:
                get_stemmer(stemmer)
            except ValueError as err:
                raise InputError(str(err)) from None
            if self.tokenizer == "rouge155" and stemmer != "rouge155":
                raise InputError(f"tokenizer='rouge155' stems with ROUGE-1.5.5's own stemmer "
                                 f"(stemmer='rouge155'), not {stemmer!r}")
        try:
            exceptions = check_exceptions(self.stem_exceptions)
        except ValueError as err:
            raise InputError(str(err)) from None
        if stemmer != "rouge155":
            if stemmer is not None and exceptions != EXCEPTION_LISTS:
                raise InputError(f"stem_exceptions are ROUGE-1.5.5's stemmer's (stemmer='rouge155'); "
                                 f"stemmer={stemmer!r} has none")
            exceptions = EXCEPTION_LISTS  # without that stemmer they change nothing
        if not isinstance(self.stopwords, (bool, np.bool_)):
            raise InputError(f"stopwords must be True or False, not {self.stopwords!r}")
        if not (callable(self.splitter) or self.splitter in SPLITTERS):
            raise InputError(f"unknown sentence splitter {self.splitter!r}: use one of {', '.join(SPLITTERS)} "
                             "or a callable")
        object.__setattr__(self, "stemmer", stemmer)
        object.__setattr__(self, "stem_exceptions", exceptions)
        object.__setattr__(self, "stopwords", bool(self.stopwords))

    @classmethod
    def from_options(cls, *, tokenizer: str | None = None, stem: bool | None = None, stemmer: str | None = None,
                     stem_exceptions: Sequence[str] | None = None, stopwords: bool | None = None,
                     splitter: Splitter | None = None) -> "Preprocessing":
        """The ``Preprocessing`` of ``rouge()``'s keyword shorthand; None: not given.

        ``stem=False`` turns stemming off whatever ``stemmer`` says; naming a ``stemmer`` turns it on;
        ``stem=True`` alone stems with ``default_stemmer(tokenizer, True)``.
        """
        given = dict(tokenizer=tokenizer, stem_exceptions=stem_exceptions, stopwords=stopwords, splitter=splitter)
        fields = {name: value for name, value in given.items() if value is not None}
        if stem is not None and not isinstance(stem, (bool, np.bool_)):
            raise InputError(f"stem must be True, False or None, not {stem!r}")
        if stem is False:
            fields["stemmer"] = None
        elif stemmer is not None:
            fields["stemmer"] = stemmer
        elif stem:
            fields["stemmer"] = default_stemmer(tokenizer or cls.tokenizer, True)
        return cls(**fields)

    @property
    def stems(self) -> bool:
        return self.stemmer is not None

    @property
    def signature(self) -> str:
        """Every choice, for a metric's signature: e.g.
        ``rouge155;stem=rouge155;exceptions=noun,adv,verb,adj;stopwords=none;split=newline``."""
        parts = [self.tokenizer, f"stem={self.stemmer or 'none'}"]
        if self.stemmer == "rouge155":
            parts.append(f"exceptions={','.join(self.stem_exceptions) or 'none'}")
        splitter = self.splitter if isinstance(self.splitter, str) else stable_text(self.splitter)  # code:<digest>
        return ";".join([*parts, f"stopwords={'smart' if self.stopwords else 'none'}", f"split={splitter}"])

    def __str__(self) -> str:  # as a metric's option, the signature shows every choice
        return self.signature

    def encoder(self) -> TokenEncoder:
        """A fresh ``encode_many`` front end for the tokenizer, stemmer and stopwords (it keeps the last
        call's vocabulary, so each user makes its own)."""
        return make_encoder(self.tokenizer, stemmer=self.stemmer, stopwords=self.stopwords,
                            exceptions=self.stem_exceptions)

    def forms(self, words: Sequence[str]) -> list[str | None]:
        """What each of ``words`` (surface tokens of this tokenizer, unstemmed) is counted as: its stem,
        or None for a dropped word (a stopword), as ``encode`` turns it."""
        encoder = self.encoder()
        return [None if word in encoder.stop else encoder.transform(word) for word in words]

    def sentences(self, text: str) -> list[str]:
        """The sentence units of ``text`` (``splitter``)."""
        return split_sentences(text, self.splitter)

    def encode(self, texts: Sequence[str]) -> Encoded:
        """Token ids of ``texts``, each split into sentence units by ``splitter``, in one pass over their bytes
        (``TokenEncoder.encode_many``)."""
        if self.splitter != "newline":  # one unit per line; a newline inside a unit only separates tokens
            texts = ["\n".join(s.replace("\n", " ") for s in self.sentences(text)) for text in texts]
        encoder = self.encoder()
        return Encoded(*encoder.encode_many(list(texts)), encoder)

    def tokens(self, texts: Sequence[str]) -> list[list[str]]:
        """The tokens of each of ``texts``, in order, each text read as one sentence (newlines as spaces)."""
        encoder = self.encoder()
        ids, lengths, units = encoder.encode_many([t.replace("\n", " ") for t in texts])
        vocabulary = np.array(encoder.vocabulary + [""], dtype=object)
        per_text = np.bincount(np.repeat(np.arange(len(texts)), units), weights=lengths, minlength=len(texts))
        bounds = np.concatenate([[0], np.cumsum(per_text)]).astype(np.int64)
        words = vocabulary[ids].tolist()
        return [words[a:b] for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist())]
