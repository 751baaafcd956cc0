"""The one shape every metric has: batch in, table out, with a signature.

A metric takes parallel lists -- ``summaries`` (str), ``references`` (a list of reference
texts per summary) and, where it reads the source, ``sources`` (str) -- and returns a pandas
DataFrame with one row per summary and named float columns (``rouge2_r``, ``rouge2_p``,
``rouge2_f``, ...). ``signature`` pins every option that changes a number, so a result can be
reproduced from its signature alone. Which name is which metric: ``rougelab.metrics.registry``.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable

from rougelab import __version__
from rougelab.fingerprint import code_fingerprint, package_pin, resource_pin, scorer_fingerprint, stable_text
from rougelab.resources import RESOURCE_FILES
from rougelab.scoring import InputError, check_batch, checked_batch

if TYPE_CHECKING:
    import pandas as pd

    from rougelab.score_table import ScoreTable

__all__ = ["InputError", "Metric", "check_batch"]


@dataclass(frozen=True)
class Metric:
    """A named, configured metric: ``score`` maps a batch to a DataFrame.

    ``options`` are the scorer's parameters, passed to it as keyword arguments; a name the scorer does
    not take is an ``InputError`` when the metric is made (a scorer taking ``**options`` checks its own).
    ``pins`` are facts about the computation that are not parameters (which tokenizer, the vectors' hash,
    how references are combined where that is fixed): they appear in ``signature`` only. ``primary``
    names the column that ``evaluate`` correlates by default. ``resources`` names the data files the
    scorer reads (keys of ``rougelab.resources.RESOURCE_FILES``); ``packages`` the third-party
    distributions whose code computes its numbers (nltk's stemmers, sacreBLEU, torch, ...). The signature
    lists the options and pins, then the package version, the code fingerprint, the versions of
    ``packages`` and a digest of the resource files (``rougelab.fingerprint``), so the score cache misses
    when any of them changes. A scorer that is not rougelab's (a metric of your own, ``register``) is
    fingerprinted by its source and the files of your modules it uses (``scorer:`` in the signature);
    to pin it by hand instead, give ``pins={"code": "<any label you change when the code changes>"}``.

    ``columns`` lists the columns of the metric's table, in order, where they are known before scoring.
    ``joins`` names a list option (classic ROUGE's ``measures``) that metrics equal in everything else
    may merge into one scorer call, whose table then holds each metric's ``columns`` with the numbers the
    metric gives alone (``metrics.together``); a metric declares it only with its ``columns``.
    """

    name: str
    scorer: Callable[..., pd.DataFrame]
    primary: str
    options: dict = field(default_factory=dict)
    needs_source: bool = False
    resources: tuple[str, ...] = ()
    pins: dict = field(default_factory=dict)
    packages: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    joins: str | None = None

    def __post_init__(self):
        _check_parameters(self.name, self.scorer, self.options, skip=3 if self.needs_source else 2)
        clash = sorted(set(self.options) & set(self.pins))
        if clash:
            raise ValueError(f"metric {self.name!r}: {', '.join(clash)} is both a parameter and a pin")
        if self.joins is not None and not (self.columns and isinstance(self.options.get(self.joins), (list, tuple))):
            raise ValueError(f"metric {self.name!r} joins on {self.joins!r}: it needs that list option "
                             "and its columns")

    def with_options(self, **options) -> "Metric":
        """The same metric with some parameters changed (unknown ones are an ``InputError``)."""
        return replace(self, options={**self.options, **options})

    def score(self, summaries, references, sources=None) -> pd.DataFrame:
        return self._call(self.scorer, summaries, references, sources)

    def score_table(self, summaries, references, sources=None) -> ScoreTable | pd.DataFrame:
        """``score``'s numbers without pandas where the scorer can give them so (a ``ScoreTable``: its
        ``table_scorer``, ``rougelab.score_table.frame_scorer``); otherwise ``score``'s DataFrame."""
        return self._call(getattr(self.scorer, "table_scorer", self.scorer), summaries, references, sources)

    def _call(self, scorer, summaries, references, sources):
        with checked_batch(summaries, references, sources, needs_source=self.needs_source):
            if self.needs_source:
                return scorer(summaries, references, sources, **self.options)
            return scorer(summaries, references, **self.options)

    def resource_files(self) -> list:
        """The data files the scorer reads, in a fixed order."""
        return [path for name in self.resources for path in RESOURCE_FILES[name]()]

    @property
    def signature(self) -> str:
        settings = {**self.options, **self.pins}
        parts = [_fmt(self.name), *(f"{_fmt(k, '|:')}:{_fmt(v)}" for k, v in sorted(settings.items())),
                 f"version:{__version__}", f"code:{code_fingerprint()}"]
        scorer = scorer_fingerprint(self.scorer, code="code" not in self.pins)
        if scorer:
            parts.append(f"scorer:{scorer}")
        if self.packages:
            parts.append(f"packages:{package_pin(self.packages)}")
        if self.resources:
            parts.append("resources:" + ",".join(f"{name}@{resource_pin(RESOURCE_FILES[name]())}"
                                                 for name in self.resources))
        return "|".join(parts)


def _check_parameters(name: str, scorer, options: dict, skip: int) -> None:
    try:
        parameters = list(inspect.signature(scorer).parameters.values())[skip:]
    except (TypeError, ValueError):  # a builtin without a signature: nothing to check against
        return
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return
    known = {p.name for p in parameters if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise InputError(f"metric {name!r} has no parameter {', '.join(map(repr, unknown))}; "
                         f"its parameters: {', '.join(sorted(known)) or 'none'}")


def _fmt(value, delimiters: str = "|") -> str:
    """A value as the signature shows it, told apart from every other value a scorer could tell apart:
    None, booleans and numbers as Python writes them (``True``, ``2``, ``0.5``); a string bare where it
    reads as itself (``_bare``), else quoted by ``repr`` (``'2'``, ``'a|b'``); a list or tuple in brackets,
    its items holding no bare ``,`` or bracket (``[rouge-1,rouge-l]``); anything else by its type and
    ``str``, written as a string is (``<PosixPath:/x>``), a callable by ``stable_text`` (its code, as in every
    process, not its address). ``delimiters``: what a bare string may not hold."""
    if isinstance(value, str):
        return value if _bare(value, delimiters) else repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_fmt(v, "|,[]") for v in value) + "]"
    if value is None or isinstance(value, (bool, int, float)):
        return str(value)
    text = stable_text(value) if callable(value) else str(value)  # a function's str holds its address
    return f"<{type(value).__qualname__}:{_fmt(text, '|<>')}>"


def _bare(text: str, delimiters: str) -> bool:
    """Whether a string can be shown as it is: printable, not padded, not opening like a quoted string,
    a list or an object, holding none of ``delimiters``, and not how None, a boolean or a number reads."""
    if (not text.isprintable() or text != text.strip() or text[:1] in ("", "'", '"', "[", "<")
            or any(c in text for c in delimiters)):
        return False
    try:
        float(text)
    except ValueError:
        return text not in ("None", "True", "False")
    return False
