"""Registry entries under Google rouge-score's own names: ``rouge1`` .. ``rouge9``, ``rougeL``, ``rougeLsum``,
and each with ``-stem`` (``use_stemmer=True``), e.g. ``rougeLsum-stem``.

``get_metric("rougeLsum-stem").score(summaries, references)`` equals
``rouge_score.rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=True)`` (0.1.2): ``score_multi(refs, summary)``
per summary (``score`` for one reference), to 1e-12 (tests/test_rouge_score_mode.py). The choices it makes,
each an option of ``rougelab.rouge.rouge`` and part of the signature: rouge-score's tokenizer
(``str.lower``, runs of ``[a-z0-9]``), NLTK's Porter stemmer on tokens longer than 3 characters, ``rougeL``
on the whole text (``splitter="none"``) and ``rougeLsum`` on newline-separated sentences (summary-level
union LCS with ROUGE-1.5.5's hit counting), the reference with the best F per measure (``multiref="best-f"``)
and no rounding. Columns are ``<name>_r``, ``_p``, ``_f`` with rouge-score's type name (``rougeLsum_f``);
the primary is F. Aggregating the rows as rouge-score's ``BootstrapAggregator`` does (its ``mid`` is the
median of resample means), seeded: ``rougelab.rouge.aggregation.aggregate(table, "rouge-score", seed=...)``.
Names of one stemming that split text alike (``rouge1`` .. ``rouge9`` and ``rougeLsum``, on sentences) are
scored in one call of ``rouge`` by ``metrics.together``, each with the numbers it gives alone.
"""
from __future__ import annotations

from rougelab.metrics.base import Metric
from rougelab.rouge.api import PACKAGES, rouge

TYPES = tuple(f"rouge{n}" for n in range(1, 10)) + ("rougeL", "rougeLsum")


def rouge_score_metric(rouge_type: str, use_stemmer: bool) -> Metric:
    """The ``Metric`` for rouge-score's ``rouge_type`` (``"rouge2"``, ``"rougeLsum"``, ...)."""
    measure = "rouge-l" if rouge_type.startswith("rougeL") else f"rouge-{rouge_type[5:]}"
    options = dict(measures=(measure,), tokenizer="rouge-score", stem=use_stemmer, stemmer="porter",
                   stopwords=False, multiref="best-f", alpha=0.5, perl_round_before_f=False,
                   splitter="none" if rouge_type == "rougeL" else "newline")
    name = f"{rouge_type}-stem" if use_stemmer else rouge_type
    return Metric(name, _score, primary=f"{rouge_type}_f", options=options, packages=PACKAGES,
                  columns=tuple(f"{rouge_type}_{x}" for x in "rpf"), joins="measures")


def _score(summaries, references, **options):
    """``rouge``'s table under rouge-score's names: its ``rougel`` is ``rougeL`` on the whole text and
    ``rougeLsum`` on sentences; the n-gram measures' names are rouge-score's already (``rouge2``)."""
    table = rouge(summaries, references, **options)
    lcs = "rougeL" if options["splitter"] == "none" else "rougeLsum"
    table.columns = [lcs + c[len("rougel"):] if c.startswith("rougel_") else c for c in table.columns]
    return table


NAMES = tuple(f"{t}{suffix}" for t in TYPES for suffix in ("", "-stem"))


def make(name: str) -> Metric | None:
    """The registry's ``Metric`` called ``name`` (e.g. ``rougeLsum-stem``), or None if not one."""
    if name not in NAMES:
        return None
    return rouge_score_metric(name.removesuffix("-stem"), name.endswith("-stem"))
