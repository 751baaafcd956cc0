"""Registry entries for classic ROUGE (``rougelab.rouge.rouge``), one metric per measure and setting.

A name is ``rouge-<measure>[-nltk][-nostem|-stop|-noexc][-best|-jackknife|-jackknife-pooled|-refmean]
[-recall|-precision]``:

* ``<measure>``: ``1`` .. ``9``, ``l``, ``w-1.2``, ``s4``, ``s9``, ``s*``, ``su4``, ``su9``, ``su*``
  (the 17 measures of Lin 2004, Tables 1-3);
* no suffix means what papers report: ROUGE-1.5.5 with ``-m`` (stemming), references pooled (``-f A``),
  F-measure with alpha = 0.5; ``-nostem`` drops ``-m`` (Lin's CASE), ``-stop`` adds ``-s`` to ``-m``
  (Lin's STOP); ``-noexc`` stems with an empty WordNet exception DB (Porter alone, as several copied
  ROUGE-1.5.5 bundles compute ``-m``); ``-best`` is ``-f B``, ``-jackknife`` Lin's leave-one-out average
  of the best reference (section 2.1; ``multiref="jackknife-B"``), ``-jackknife-pooled`` NIST's and
  sacrerouge's leave-one-out average of ``-f A`` (``"jackknife-A"``), ``-refmean`` the mean over the
  references scored one by one (``"mean"``; see ``rougelab.rouge.api.combine_references``);
  ``-recall`` / ``-precision`` make R or P the primary column;
* sentences are one per line (``splitter="newline"``), as ROUGE-1.5.5 reads its SPL files and as
  ``rougelab.rouge.rouge`` does by default, so a name means one number on every path (``get_metric``,
  ``rougelab score``, ``rougelab evaluate``, ``rouge(measures=[...])``); ``-nltk`` (ROUGE-L and ROUGE-W only,
  the measures that see sentences) first splits each line with NLTK's Punkt, as papers did before running
  the Perl script. Measured on SummEval (texts stored one per line), ``rouge-l-nltk`` gives Kendall tau
  (global, vs the expert means) .108/.090/.066/.214 against Jain et al. (2022) Table 3's .109/.090/.067/.216;
  ``rouge-l`` gives .127/.093/.064/.182.

Every metric returns the measure's ``_r``, ``_p`` and ``_f`` columns; its signature lists every option.
"""
from __future__ import annotations

import re

from rougelab.metrics.base import Metric
from rougelab.rouge.api import PACKAGES, column_prefix, parse_measure, rouge

MEASURES = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "l", "w-1.2", "s4", "s9", "s*", "su4", "su9", "su*")
# Each name suffix -> the ``rouge()`` options it sets.
PREPROCESSING_OPTIONS = {"": dict(stem=True, stopwords=False), "-nostem": dict(stem=False, stopwords=False),
                         "-stop": dict(stem=True, stopwords=True),
                         "-noexc": dict(stem=True, stopwords=False, stem_exceptions=())}
MULTIREF = {"": "A", "-best": "B", "-jackknife": "jackknife", "-jackknife-pooled": "jackknife-A", "-refmean": "mean"}
COLUMN = {"": "f", "-recall": "r", "-precision": "p"}
SPLITTER = {"": "newline", "-nltk": "nltk"}
SENTENCE_MEASURES = ("l", "w-1.2")


def _alternatives(suffixes) -> str:
    return "|".join(re.escape(s) for s in sorted(suffixes, key=len, reverse=True) if s)


# The one parser of registry names: rouge-<measure>[-nltk][<preprocessing>][<multiref>][<column>].
NAME = re.compile(f"rouge-(?P<measure>{_alternatives(MEASURES)})(?P<split>{_alternatives(SPLITTER)})?"
                  f"(?P<pre>{_alternatives(PREPROCESSING_OPTIONS)})?(?P<multi>{_alternatives(MULTIREF)})?"
                  f"(?P<col>{_alternatives(COLUMN)})?")

# What ``rougelab metrics`` lists: every measure bare, and with each single suffix (combinations of
# suffixes are valid names too, resolved on demand).
NAMES = tuple(f"rouge-{m}{suffix}" for m in MEASURES
              for suffix in ["", *(s for table in (PREPROCESSING_OPTIONS, MULTIREF, COLUMN) for s in table if s),
                             *(["-nltk"] if m in SENTENCE_MEASURES else [])])


def make(name: str) -> Metric | None:
    """The configured ``Metric`` for one registry name (see the module docstring); None if not one."""
    match = NAME.fullmatch(name)
    if match is None or (match["split"] and match["measure"] not in SENTENCE_MEASURES):
        return None
    return rouge_metric(match["measure"], match["pre"] or "", match["multi"] or "", match["col"] or "",
                        match["split"] or "")


def rouge_metric(measure: str, preprocessing: str = "", multiref: str = "", column: str = "",
                 splitter: str = "") -> Metric:
    """The configured ``Metric`` for one measure and suffixes (see the module docstring)."""
    name = f"rouge-{measure}{splitter}{preprocessing}{multiref}{column}"
    options = dict(measures=(f"rouge-{measure}",), **PREPROCESSING_OPTIONS[preprocessing],
                   multiref=MULTIREF[multiref], alpha=0.5, splitter=SPLITTER[splitter], tokenizer="rouge155",
                   perl_last_unigram_bug=True, perl_byte_limit_skips_lcs=True, perl_round_before_f=True,
                   perl_wlcs=True)
    prefix = column_prefix(parse_measure(f"rouge-{measure}"))
    return Metric(name, rouge, primary=f"{prefix}_{COLUMN[column]}", options=options, resources=("rouge155",),
                  packages=PACKAGES, columns=tuple(f"{prefix}_{x}" for x in "rpf"), joins="measures")
