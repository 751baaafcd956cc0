"""The one shape every metric has: batch in, table out, with a signature.

A metric takes parallel lists -- ``summaries`` (str), ``references`` (a list of reference
texts per summary) and, where it reads the source, ``sources`` (str) -- and returns a pandas
DataFrame with one row per summary and named float columns (``rouge2_r``, ``rouge2_p``,
``rouge2_f``, ...). ``signature`` pins every option that changes a number, so a result can be
reproduced from its signature alone.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import pandas as pd

from rougelab import __version__


class InputError(ValueError):
    """Bad input to a metric: says what was wrong, with which input, and what to do."""


def check_batch(summaries: Sequence[str], references: Sequence[Sequence[str]],
                sources: Sequence[str] | None = None, *, needs_source: bool = False) -> None:
    """Raise ``InputError`` unless the batch is well formed (same lengths, strings, >=1 reference)."""
    if isinstance(summaries, str):
        raise InputError("summaries must be a list of strings, not one string")
    if len(summaries) != len(references):
        raise InputError(f"{len(summaries)} summaries but {len(references)} reference lists: "
                         "pass one list of references per summary")
    if needs_source and sources is None:
        raise InputError("this metric reads the source document: pass sources=[...]")
    if sources is not None and len(sources) != len(summaries):
        raise InputError(f"{len(summaries)} summaries but {len(sources)} sources")
    for i, refs in enumerate(references):
        if isinstance(refs, str):
            raise InputError(f"references[{i}] is a string: pass a list of reference texts per summary")
        if len(refs) == 0:
            raise InputError(f"summary {i} has no references")
    for i, text in enumerate(summaries):
        if not isinstance(text, str):
            raise InputError(f"summaries[{i}] is {type(text).__name__}, not str")


@dataclass(frozen=True)
class Metric:
    """A named, configured metric: ``score`` maps a batch to a DataFrame.

    ``options`` holds every setting that changes a number; they all appear in ``signature``.
    ``primary`` names the column that ``evaluate`` correlates by default.
    """

    name: str
    scorer: Callable[..., pd.DataFrame]
    primary: str
    options: dict = field(default_factory=dict)
    needs_source: bool = False

    def score(self, summaries, references, sources=None) -> pd.DataFrame:
        check_batch(summaries, references, sources, needs_source=self.needs_source)
        if self.needs_source:
            return self.scorer(summaries, references, sources, **self.options)
        return self.scorer(summaries, references, **self.options)

    @property
    def signature(self) -> str:
        opts = "|".join(f"{k}:{_fmt(v)}" for k, v in sorted(self.options.items()))
        return f"{self.name}|{opts}|version:{__version__}" if opts else f"{self.name}|version:{__version__}"


def _fmt(value) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(_fmt(v) for v in value)
    return str(value)


_REGISTRY: dict[str, Callable[[], Metric]] = {}


def register(name: str, factory: Callable[[], Metric]) -> None:
    """Register ``factory`` (no arguments, returns a ``Metric``) under ``name``."""
    if name in _REGISTRY:
        raise ValueError(f"metric {name!r} is already registered")
    _REGISTRY[name] = factory


def get_metric(name: str) -> Metric:
    """The registered metric ``name``; a clear error lists the known names otherwise."""
    from rougelab.metrics import load_all  # registers the built-in metrics on first use

    load_all()
    try:
        return _REGISTRY[name]()
    except KeyError:
        raise InputError(f"unknown metric {name!r}; known metrics: {', '.join(sorted(_REGISTRY))}") from None


def metric_names() -> list[str]:
    from rougelab.metrics import load_all

    load_all()
    return sorted(_REGISTRY)
