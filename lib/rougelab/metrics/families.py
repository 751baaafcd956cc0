"""Metric families: which registry names compute what a paper's tables report, and which are variants.

A bare name follows the code that produced the paper's tables (ROUGE-1.5.5 for ROUGE, the authors'
released scripts for ROUGE-WE and WIDAR); the names a family's paper reports are marked "as in the
paper's tables", every other name of the family is a variant. ``rougelab metrics`` prints this.
"""
from __future__ import annotations

import re
from typing import NamedTuple

PAPER = "as in the paper's tables"
VARIANT = "variant"
BASELINE = "baseline"


class Family(NamedTuple):
    """A family of registry names: ``names`` matches all of them, ``paper`` those the paper reports."""

    title: str
    names: str          # regular expression over registry names (full match)
    paper: str          # regular expression: the names computed as in the paper's tables ("" for none)
    note: str

    def role(self, name: str) -> str:
        if not self.paper:
            return BASELINE
        return PAPER if re.fullmatch(self.paper, name) else VARIANT


FAMILIES = (
    Family("ROUGE-WE (Ng & Abrecht 2015)", r"rouge-we-.*", r"rouge-we-(1|2|su4)",
           "bare names: the authors' released scoring (their tables); -eq2: Eq. 2 read literally; -s3: SummEval's"),
    Family("ROUGE-G (ShafieiBavani et al. 2018)", r"rouge-g-.*", r"rouge-g-(1|2|su4)",
           "our reading of the paper (no released code); its open choices: rougelab.metrics.choices"),
    Family("ROUGE (Lin 2004)", r"rouge-.*", r"rouge-(\d|l|w-1\.2|s\*|s\d|su\*|su\d)",
           "bare names: ROUGE-1.5.5 -m, references pooled, F; suffixes change one setting"),
    Family("ROUGE as Google's rouge-score computes it", r"rouge(\d|L|Lsum)(-stem)?", r"rouge(\d|L|Lsum)(-stem)?",
           "rouge-score 0.1.2's numbers exactly (what most papers since 2020 report); -stem: use_stemmer=True"),
    Family("WIDAR (Jain et al. 2022)", r"widar-.*", r"widar-(1|2|l|rouge-lw|rouge-lw-no-red|rouge-lw-no-cov|rouge-l-sl|idss)",
           "defaults follow the authors' released code; Table 5's ablations by name; -total: every-occurrence denominators"),
    Family("Anchored ROUGE (Wang et al. 2020)", r"anc-rouge-.*", r"anc-rouge-(1|2)",
           "the paper's definition with MiniLM instead of BERT base (not available offline); -s4: skip-bigrams"),
    Family("baselines", r"bertscore|bleu|chrf|length", "", "reference points, not reproductions of a paper"),
)


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
