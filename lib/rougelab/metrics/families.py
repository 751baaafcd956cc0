"""The metric registry: one entry per family, names resolved on demand by one parser.

A family is one ``Family`` entry in ``FAMILIES``: a title, a regular expression over its names, the
names computed as in the paper's tables, a note, a factory ``make(name) -> Metric | None`` (None: the
name looks like the family's but is not one of its names) and the names ``rougelab metrics`` lists
(``listed``). ``get_metric(name)`` asks the first family whose pattern matches; nothing is generated
in advance, so a family with many settings (classic ROUGE: measure x splitter x preprocessing x
references x column) parses its suffixes in its own module and lists only the useful names.

A bare name follows the code that produced the paper's tables (ROUGE-1.5.5 for ROUGE, the authors'
released scripts for ROUGE-WE and WIDAR); the names a family's paper reports are marked "as in the
paper's tables", every other name of the family is a variant. ``rougelab metrics`` prints this.

To add a metric: write one module under ``rougelab/metrics`` with its scorer and a ``make(name)``
factory (and a tuple of the names to list), add one ``Family`` line below (imported plainly; put a
more specific pattern before a more general one, e.g. ``rouge-we-.*`` before ``rouge-.*``), and one
test file ``tests/test_<module>.py``.
"""
from __future__ import annotations

import re
from typing import Callable, NamedTuple

from rougelab.metrics import (anchored, baselines, bertscore, rouge_g, rouge_metrics, rouge_score_metrics, rouge_we,
                              sacrebleu_metrics, widar)
from rougelab.metrics.base import Metric

PAPER = "as in the paper's tables"
VARIANT = "variant"
BASELINE = "baseline"


class Family(NamedTuple):
    """A family of registry names: ``names`` matches all of them, ``paper`` those the paper reports."""

    title: str
    names: str          # regular expression over registry names (full match)
    paper: str          # regular expression: the names computed as in the paper's tables ("" for none)
    note: str
    make: Callable[[str], Metric | None]
    listed: tuple[str, ...]

    def role(self, name: str) -> str:
        if not self.paper:
            return BASELINE
        return PAPER if re.fullmatch(self.paper, name) else VARIANT


FAMILIES = (
    Family("ROUGE-WE (Ng & Abrecht 2015)", r"rouge-we-.*", r"rouge-we-(1|2|su4)",
           "bare names: the authors' released scoring (their tables); -eq2: Eq. 2 read literally; -s3: SummEval's",
           rouge_we.make, rouge_we.NAMES),
    Family("ROUGE-G (ShafieiBavani et al. 2018)", r"rouge-g-.*", r"rouge-g-(1|2|su4)",
           "our reading of the paper (no released code); its open choices: rougelab.metrics.choices",
           rouge_g.make, rouge_g.NAMES),
    Family("ROUGE (Lin 2004)", r"rouge-.*", r"rouge-(\d|l|w-1\.2|s\*|s\d|su\*|su\d)",
           "bare names: ROUGE-1.5.5 -m, references pooled, F; suffixes change one setting (and combine)",
           rouge_metrics.make, rouge_metrics.NAMES),
    Family("ROUGE as Google's rouge-score computes it", r"rouge(\d|L|Lsum)(-stem)?", r"rouge(\d|L|Lsum)(-stem)?",
           "rouge-score 0.1.2's numbers exactly (what most papers since 2020 report); -stem: use_stemmer=True",
           rouge_score_metrics.make, rouge_score_metrics.NAMES),
    Family("WIDAR (Jain et al. 2022)", r"widar-.*", r"widar-(1|2|l|rouge-lw|rouge-lw-no-red|rouge-lw-no-cov|rouge-l-sl|idss)",
           "defaults follow the authors' released code; Table 5's ablations by name; -total: every-occurrence denominators",
           widar.make, widar.NAMES),
    Family("Anchored ROUGE (Wang et al. 2020)", r"anc-rouge-.*", r"anc-rouge-(1|2)",
           "the paper's definition with MiniLM instead of BERT base (not available offline); -s4: skip-bigrams",
           anchored.make, anchored.NAMES),
    Family("baselines: BERTScore (Zhang et al. 2020)", r"bertscore", "", "a reference point, not a reproduction",
           bertscore.make, bertscore.NAMES),
    Family("baselines: sacreBLEU", r"bleu|chrf", "", "reference points, not reproductions of a paper",
           sacrebleu_metrics.make, sacrebleu_metrics.NAMES),
    Family("baselines: length", r"length", "", "summary length in tokens", baselines.make, baselines.NAMES),
)


def resolve(name: str) -> Metric | None:
    """The built-in metric ``name``, or None when no family has it."""
    for family in FAMILIES:
        if isinstance(name, str) and re.fullmatch(family.names, name):
            return family.make(name)
    return None


def listed_names() -> list[str]:
    """Every family's listed names."""
    return [name for family in FAMILIES for name in family.listed]


def family_of(name: str) -> Family:
    """The first family whose ``names`` matches ``name`` (more specific families come first)."""
    for family in FAMILIES:
        if re.fullmatch(family.names, name):
            return family
    raise LookupError(f"metric {name!r} belongs to no family in rougelab.metrics.families: add it there")


def by_family(names) -> dict[Family, list[tuple[str, str]]]:
    """``{family: [(name, role), ...]}`` in ``FAMILIES`` order, paper names first, then variants."""
    grouped: dict[Family, list[tuple[str, str]]] = {f: [] for f in FAMILIES}
    for name in names:
        family = family_of(name)
        grouped[family].append((name, family.role(name)))
    return {f: sorted(rows, key=lambda row: (row[1] != PAPER, row[0])) for f, rows in grouped.items() if rows}
