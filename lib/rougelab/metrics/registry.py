"""The metric registry: which module computes which name, imported only when one of its names is used.

A family is one ``Family`` line in ``FAMILIES``: a title, a regular expression over its names
(``pattern``), the dotted path of its module, the names computed as in the paper's tables (``paper``),
a note, how its names are spelled (``form``) and the names the leaderboard scores (``board``). The module
holds ``make(name) -> Metric | None`` (None: the name fits the pattern but is not one of the family's) and
``NAMES``, the names ``rougelab metrics`` lists. Nothing is imported or generated in advance:
``get_metric("rouge-1")`` imports classic ROUGE's module and no other (not nltk, torch, gensim, the GloVe
loader or WIDAR).

Names are unambiguous by construction: a lookup tries every family's pattern and refuses a name that two
of them accept (``AmbiguousName``), so the order of ``FAMILIES`` decides nothing but the order of the
listing, and tests/test_registry.py checks that no listed name is accepted twice. A family whose ``make``
returns None owns the name all the same: it is unknown, never handed to another family.

Your own metrics (a notebook prototype, a plug-in) are first-class: ``register(name, factory)`` adds one
under the family "your metrics"; it is listed by ``rougelab metrics``, scored on the leaderboard when
registered with ``board=True``, and keyed in the score cache by its signature like any other. The
factory may be a callable or the string ``"module:function"``, imported on first use like a family's
module. A name a built-in family's pattern accepts is refused.

To add a built-in metric: one module under ``rougelab/metrics`` with its scorer, ``make(name)`` and
``NAMES``, one ``Family`` line below and one test file ``tests/test_<module>.py``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import import_module
from typing import Callable

from rougelab.metrics.base import Metric
from rougelab.scoring import InputError

__all__ = ["FAMILIES", "YOURS", "Family", "AmbiguousName", "get_metric", "metric_names", "register",
           "family_of", "by_family", "board_names"]

PAPER = "as in the paper's tables"
VARIANT = "variant"
BASELINE = "baseline"
YOUR_METRIC = "yours"


class AmbiguousName(ValueError):
    """Two families' patterns accept one name: the registry is wrong, not the name."""


@dataclass(frozen=True)
class Family:
    """A family of registry names: ``pattern`` accepts all of them, ``paper`` those the paper reports."""

    title: str
    pattern: str        # regular expression over registry names (full match)
    module: str         # dotted path of the module with ``make(name)`` and ``NAMES``
    paper: str          # regular expression: the names computed as in the paper's tables ("" for none)
    note: str
    form: str           # how the names are spelled, for error messages
    board: tuple[str, ...] = ()   # the names the leaderboard scores

    def accepts(self, name: str) -> bool:
        return re.fullmatch(self.pattern, name) is not None

    def role(self, name: str) -> str:
        if self is YOURS:
            return YOUR_METRIC
        if not self.paper:
            return BASELINE
        return PAPER if re.fullmatch(self.paper, name) else VARIANT

    def make(self, name: str) -> Metric | None:
        return import_module(self.module).make(name)

    def listed(self) -> tuple[str, ...]:
        return tuple(import_module(self.module).NAMES)


FAMILIES = (
    Family("ROUGE (Lin 2004)", r"rouge-(\d|l|w-[\d.]+|su?(\d|\*))(-.+)?", "rougelab.metrics.rouge_metrics",
           r"rouge-(\d|l|w-1\.2|s\*|s\d|su\*|su\d)",
           "bare names: ROUGE-1.5.5 -m, references pooled, F, one sentence per line; suffixes change one setting "
           "(and combine); -nltk: sentences split by NLTK Punkt first, as papers' pipelines did",
           "rouge-<1..9|l|w-1.2|s4|su4|...>[-nltk][-nostem|-stop|-noexc][-best|-jackknife|...][-recall|-precision]",
           board=("rouge-1", "rouge-2", "rouge-l-nltk", "rouge-su4", "rouge-w-1.2-nltk")),
    Family("ROUGE as Google's rouge-score computes it", r"rouge(\d|L|Lsum)(-stem)?",
           "rougelab.metrics.rouge_score_metrics", r"rouge(\d|L|Lsum)(-stem)?",
           "rouge-score 0.1.2's numbers exactly (what most papers since 2020 report); -stem: use_stemmer=True",
           "rouge1 .. rouge9, rougeL, rougeLsum, each with -stem"),
    Family("ROUGE-WE (Ng & Abrecht 2015)", r"rouge-we-.+", "rougelab.metrics.rouge_we", r"rouge-we-(1|2|su4)",
           "bare names: the authors' released scoring (their tables); -eq2: Eq. 2 read literally; -s3: SummEval's",
           "rouge-we-<1|2|su4>[-eq2|-s3]", board=("rouge-we-1", "rouge-we-2", "rouge-we-su4")),
    Family("ROUGE-G (ShafieiBavani et al. 2018)", r"rouge-g-.+", "rougelab.metrics.rouge_g", r"rouge-g-(1|2|su4)",
           "our reading of the paper (no released code); its open choices: rougelab.metrics.choices",
           "rouge-g-<1|2|su4>[-f]", board=("rouge-g-1", "rouge-g-2", "rouge-g-su4")),
    Family("WIDAR (Jain et al. 2022)", r"widar-.+", "rougelab.metrics.widar",
           r"widar-(1|2|l|rouge-lw|rouge-lw-no-red|rouge-lw-no-cov|rouge-l-sl|idss)",
           "defaults follow the authors' released code; Table 5's ablations by name; -total: every-occurrence denominators",
           "widar-<1|2|l>[-total], widar-rouge-lw[-no-red|-no-cov], widar-rouge-l-sl, widar-idss",
           board=("widar-1", "widar-2", "widar-l")),
    Family("Anchored ROUGE (Wang et al. 2020)", r"anc-rouge-.+", "rougelab.metrics.anchored", r"anc-rouge-(1|2)",
           "the paper's definition with MiniLM instead of BERT base (not available offline); -s4: skip-bigrams",
           "anc-rouge-<1|2|s4>"),
    Family("baselines: BERTScore (Zhang et al. 2020)", r"bertscore", "rougelab.metrics.bertscore", "",
           "a reference point, not a reproduction", "bertscore"),
    Family("baselines: sacreBLEU", r"bleu|chrf", "rougelab.metrics.sacrebleu_metrics", "",
           "reference points, not reproductions of a paper", "bleu, chrf", board=("bleu", "chrf")),
    Family("baselines: length", r"length", "rougelab.metrics.baselines", "", "summary length in tokens", "length"),
)

YOURS = Family("your metrics", r"(?!)", "", "", "added with rougelab.metrics.registry.register",
               "the names given to register()")

_YOURS: dict[str, Callable[[], Metric] | str] = {}
_YOUR_BOARD: set[str] = set()


def register(name: str, factory: Callable[[], Metric] | str, *, board: bool = False) -> None:
    """Add a metric of your own under ``name``: ``factory()`` returns its ``Metric``; ``factory`` may be
    ``"module:function"``, imported on first use. ``board=True`` puts it on the leaderboard."""
    if not isinstance(name, str) or not name:
        raise InputError(f"a metric name must be a non-empty string, got {name!r}")
    if name in _YOURS:
        raise ValueError(f"metric {name!r} is already registered")
    family = family_of(name)
    if family is not None:
        raise ValueError(f"metric name {name!r} is spelled like the names of {family.title} "
                         f"({family.form}): choose a name outside that family")
    if isinstance(factory, str) and factory.count(":") != 1:
        raise ValueError(f"factory {factory!r}: give a callable or 'module:function'")
    _YOURS[name] = factory
    if board:
        _YOUR_BOARD.add(name)


def _factory(name: str) -> Callable[[], Metric]:
    factory = _YOURS[name]
    if isinstance(factory, str):
        module, function = factory.split(":")
        return getattr(import_module(module), function)
    return factory


def get_metric(name: str, **options) -> Metric:
    """The metric ``name`` (with ``options`` changing its parameters); a clear error says what is known."""
    if not isinstance(name, str):
        raise InputError(f"a metric name must be a string, got {type(name).__name__}")
    family = family_of(name)
    if family is YOURS:
        metric = _factory(name)()
    else:
        metric = family.make(name) if family is not None else None
    if metric is None:
        raise InputError(f"unknown metric {name!r}; " + (
            f"{family.title} names: {family.form}" if family is not None else
            "known families: " + "; ".join(f"{f.title}: {f.form}" for f in FAMILIES)
            + (f"; your metrics: {', '.join(sorted(_YOURS))}" if _YOURS else ""))
            + " (`rougelab metrics` lists them)")
    return metric.with_options(**options) if options else metric


def family_of(name: str) -> Family | None:
    """The one family whose names include ``name`` (None: no family); ``AmbiguousName`` if several claim it."""
    if name in _YOURS:
        return YOURS
    matching = [family for family in FAMILIES if family.accepts(name)]
    if len(matching) > 1:
        raise AmbiguousName(f"metric name {name!r} fits {len(matching)} families: "
                            f"{', '.join(f.title for f in matching)}; their patterns must not overlap")
    return matching[0] if matching else None


def metric_names() -> list[str]:
    """The names ``rougelab metrics`` lists: every family's listed names (importing every family) and yours."""
    return sorted({*(name for family in FAMILIES for name in family.listed()), *_YOURS})


def board_names() -> list[str]:
    """The names the leaderboard scores: each family's ``board`` names, then yours registered with ``board=True``."""
    return [name for family in FAMILIES for name in family.board] + sorted(_YOUR_BOARD)


def by_family(names) -> dict[Family, list[tuple[str, str]]]:
    """``{family: [(name, role), ...]}`` in ``FAMILIES`` order (yours last), paper names first, then variants."""
    grouped: dict[Family, list[tuple[str, str]]] = {f: [] for f in _families()}
    for name in names:
        family = family_of(name)
        if family is None:
            raise LookupError(f"metric {name!r} belongs to no family: add one to rougelab.metrics.registry "
                              "or register() it")
        grouped[family].append((name, family.role(name)))
    return {f: sorted(rows, key=lambda row: (row[1] != PAPER, row[0])) for f, rows in grouped.items() if rows}


def _families() -> tuple[Family, ...]:
    return FAMILIES + ((YOURS,) if _YOURS else ())
