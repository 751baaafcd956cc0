"""Why ROUGE numbers differ: one scoring pipeline whose every convention is a switch.

A ``Convention`` fixes the six choices that move a reported ROUGE number: the tokenizer, the stemmer,
the sentence units of ROUGE-L, the multi-reference rule, ROUGE-1.5.5's rounding of R and P before F,
and how per-summary scores are averaged. ``score`` computes per-summary R/P/F under a convention (the
first five are options of ``rougelab.rouge.rouge``); ``system_scores`` averages them per system
(``rougelab.rouge.aggregate``); ``switch_table`` starts from one convention, changes one choice at a
time and reports the change in the average score, the Kendall tau between the two system rankings and
the pairs of systems whose order flips. With ``Convention.rouge_score()`` the numbers equal rouge-score
0.1.2's own (tests/test_conventions.py).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from typing import Sequence

import numpy as np
import pandas as pd
from scipy.stats import kendalltau

from rougelab.metrics.base import InputError
from rougelab.rouge.aggregation import METHODS, aggregate
from rougelab.rouge.api import MULTIREF_RULES, rouge
from rougelab.text.preprocessing import Preprocessing
from rougelab.text.tokenizers import TOKENIZERS

# Each switch value -> the ``Preprocessing`` fields it sets (its tokenizer: one of ``TOKENIZERS``).
STEMMERS = {"rouge155": dict(stemmer="rouge155"), "rouge155-noexc": dict(stemmer="rouge155", stem_exceptions=()),
            "porter": dict(stemmer="porter"), "none": dict(stemmer=None)}
UNIT_SPLITTERS = {"newline": "newline", "nltk": "nltk", "text": "none"}
MEASURES = ("rouge-1", "rouge-2", "rouge-l")


@dataclass(frozen=True)
class Convention:
    """The choices behind one ROUGE number.

    tokenizer : ``"rouge155"`` (ROUGE-1.5.5: ASCII letters and digits, other bytes split tokens),
        ``"rouge-score"`` (lower-case, every non-``[a-z0-9]`` character a space), ``"unicode"``
        (rouge-score-rs's ``UnicodeTokenizer``, profile unicode-v1: UAX #29 words of any script),
        ``"character"`` (its grapheme clusters).
    stemmer : ``"rouge155"`` (``-m``: WordNet-2.0 exceptions, then ROUGE's Porter), ``"rouge155-noexc"``
        (``-m`` with an empty exception DB), ``"porter"`` (rouge-score's ``use_stemmer=True``: NLTK's
        Porter), ``"none"``; tokens of 3 characters or fewer are never stemmed.
    units : ROUGE-L's sentences: ``"newline"`` (one per line; rouge-score's rougeLsum), ``"nltk"`` (NLTK
        Punkt within each line, as scripts that join ``nltk.sent_tokenize`` output with newlines before
        rougeLsum), ``"text"`` (the whole text one sequence; rouge-score's rougeL).
    multiref : a rule of ``rougelab.rouge.api.combine_references`` (``"best-f"`` is rouge-score's).
    round5 : ROUGE-1.5.5 rounds R and P to 5 decimals before F (and F).
    average : ``rougelab.rouge.aggregate`` method: ``"mean"``, ``"rouge155"`` (mean of bootstrap
        means), ``"rouge-score"`` (median of bootstrap means, as Hugging Face ``evaluate`` reports).
    """

    tokenizer: str = "rouge155"
    stemmer: str = "rouge155"
    units: str = "newline"
    multiref: str = "A"
    round5: bool = True
    average: str = "rouge155"

    def __post_init__(self):
        for name, allowed in (("tokenizer", TOKENIZERS), ("stemmer", STEMMERS), ("units", UNIT_SPLITTERS),
                              ("multiref", MULTIREF_RULES), ("average", METHODS)):
            if getattr(self, name) not in allowed:
                raise InputError(f"Convention {name}={getattr(self, name)!r}: use one of {', '.join(allowed)}")
        self.preprocessing  # noqa: B018 (a combination Preprocessing refuses is refused here)

    @property
    def preprocessing(self) -> Preprocessing:
        """The tokenizer, stemmer, exception lists and sentence units of this convention.

        ``rouge`` stems ROUGE-1.5.5's tokens only with ROUGE-1.5.5's stemmer; NLTK's Porter on them is
        computed with rouge-score's tokenizer, which gives the same tokens except where ``str.lower`` maps
        a non-ASCII character to ASCII (U+0130, the Kelvin sign; see ``rougelab.text.tokenizers``).
        """
        tokenizer = self.tokenizer
        if self.stemmer == "porter" and tokenizer == "rouge155":
            tokenizer = "rouge-score"
        return Preprocessing(tokenizer, splitter=UNIT_SPLITTERS[self.units], **STEMMERS[self.stemmer])

    @classmethod
    def rouge155(cls) -> "Convention":
        """ROUGE-1.5.5 as papers ran it: ``-m``, ``-f A``, one sentence per line, its printed average."""
        return cls()

    @classmethod
    def rouge_score(cls, stem: bool = False, lsum: bool = False) -> "Convention":
        """rouge-score 0.1.2 (``RougeScorer(..., use_stemmer=stem)``, ``score_multi``), its rougeL, or with
        ``lsum`` its rougeLsum; averaged by a plain mean."""
        return cls("rouge-score", "porter" if stem else "none", "newline" if lsum else "text", "best-f",
                   False, "mean")

    @classmethod
    def hf_evaluate(cls) -> "Convention":
        """Hugging Face ``evaluate.load("rouge")`` with its defaults (``use_stemmer=False``,
        ``use_aggregator=True``: the mid of rouge-score's ``BootstrapAggregator``, a median; several
        references through ``score_multi``), ROUGE-L as rougeLsum after the summarization scripts'
        sentence split (newline-joined sentences)."""
        return cls("rouge-score", "none", "nltk", "best-f", False, "rouge-score")


# --------------------------------------------------------------------------------------------
# Scores

def rouge_options(convention: Convention) -> dict:
    """The ``rougelab.rouge.rouge`` options of ``convention`` (all but the averaging)."""
    return dict(preprocessing=convention.preprocessing, multiref=convention.multiref,
                perl_round_before_f=convention.round5)


def score(convention: Convention, summaries: Sequence[str], references: Sequence[Sequence[str]],
          measures: Sequence[str] = MEASURES) -> pd.DataFrame:
    """Per-summary R/P/F (columns as ``rougelab.rouge.rouge``) under ``convention``."""
    return rouge(summaries, references, measures, **rouge_options(convention))


def system_scores(table: pd.DataFrame, scores: pd.DataFrame, average: str = "mean", *,
                  n_resamples: int = 1000, seed: int = 0, part: str = "f") -> pd.DataFrame:
    """Per system (``table["system_id"]``, rows aligned with ``scores``), the ``average`` of each measure's
    ``part`` column (R, P or F): systems x measures."""
    if len(table) != len(scores):
        raise InputError(f"table has {len(table)} rows but scores has {len(scores)}")
    rows = {}
    for system, index in table.groupby("system_id", sort=True).indices.items():
        summary = aggregate(scores.iloc[index].reset_index(drop=True), average, n_resamples=n_resamples, seed=seed)
        rows[system] = summary["mid"][[c for c in scores.columns if c.endswith(f"_{part}")]]
    return pd.DataFrame(rows).T.rename(columns=lambda c: c.rsplit("_", 1)[0])


def flipped_pairs(before: pd.Series, after: pd.Series) -> list[tuple[str, str]]:
    """Pairs of systems (index labels, in ``before``'s order) whose order differs between the two scores;
    a tie on one side and an order on the other counts as a flip."""
    labels = list(before.index)
    return [(a, b) for a, b in combinations(labels, 2)
            if np.sign(before[a] - before[b]) != np.sign(after[a] - after[b])]


def switch_table(table: pd.DataFrame, base: Convention, switches: dict[str, dict], *,
                 measures: Sequence[str] = MEASURES, n_resamples: int = 1000, seed: int = 0) -> pd.DataFrame:
    """Each switch (a name -> ``Convention`` fields to change) applied to ``base`` alone.

    ``table`` has ``summary``, ``references`` and ``system_id``. One row per (switch, measure): the mean
    per-summary F under base and switch and its change, the system-level average under each, Kendall's
    tau-b between the two systems' scores, and the flipped pairs (``flipped_pairs``).
    """
    summaries, references = table["summary"].tolist(), [list(r) for r in table["references"]]
    scored: dict[Convention, tuple[pd.DataFrame, pd.DataFrame]] = {}

    def run(convention: Convention):
        if convention not in scored:
            per_summary = score(convention, summaries, references, measures)
            scored[convention] = (per_summary, system_scores(table, per_summary, convention.average,
                                                             n_resamples=n_resamples, seed=seed))
        return scored[convention]

    base_summary, base_systems = run(base)
    rows = []
    for name, change in switches.items():
        convention = replace(base, **change)
        per_summary, systems = run(convention)
        for measure in base_systems.columns:
            before, after = base_systems[measure], systems[measure]
            flips = flipped_pairs(before, after)
            tau = kendalltau(before.to_numpy(), after.to_numpy()).statistic if len(before) > 1 else np.nan
            rows.append(dict(switch=name, measure=measure,
                             summary_mean=per_summary[f"{measure}_f"].mean(),
                             summary_change=per_summary[f"{measure}_f"].mean() - base_summary[f"{measure}_f"].mean(),
                             system_average=after.mean(), system_change=after.mean() - before.mean(),
                             kendall=tau, flips=len(flips),
                             flipped=", ".join(f"{a}/{b}" for a, b in flips)))
    return pd.DataFrame(rows)
