"""The batch API: ``rouge(summaries, references, ...)`` -> one row per summary.

Column names: ``<measure>_r``, ``_p``, ``_f`` with ``<measure>`` one of ``rouge1`` .. ``rougeN``, ``rougel``,
``rougew<w>`` (e.g. ``rougew1.2``), ``rouges<d>``, ``rougesu<d>`` and, for unlimited skip distance,
``rouges*`` / ``rougesu*``: the ROUGE-1.5.5 names, lower-cased, without the dashes.

Each summary and reference is split into sentences (one per line by default), read as UTF-8 bytes,
and scored exactly as ROUGE-1.5.5.pl scores one peer against its models (``rougelab.rouge.core``).
Without length limits (the usual case) the batch is scored as a whole (``rougelab.rouge.batch``; a large
batch in pieces of ``PIECE_PAIRS`` pairs, one piece per thread): the bytes of all distinct texts are tokenised
by one compiled scan and each distinct word stemmed once, into shared integer ids (``EncodedBatch``), and
compiled kernels (numba, threads over the pairs; one per family of measures, compiled only when a call asks
for it) count and score every (summary, reference) pair. In the setting of ``rougelab.rouge.small_batch``
(unstemmed ``rouge155`` tokens without stopwords, one sentence a line, ``-f A``/``-f B``, no skip-bigrams), a
small batch, and each piece on a thread of its own once that call is compiled, goes from its texts' bytes to
R/P/F in one compiled call of the same kernels (``_score_small``, ``_score_piece``). With ``-l``/``-b`` limits or
Lin's ROUGE-W each summary goes through ``PreparedText`` pair by pair. All paths give the same digits
(tests/test_rouge_fast_path.py, tests/test_small_batch.py, tests/test_rouge_pieces.py).
"""
from __future__ import annotations

import re
import threading
from functools import lru_cache, wraps
from itertools import chain
from typing import NamedTuple, Sequence

import numpy as np

from rougelab.score_table import ScoreTable, frame_scorer
from rougelab.scoring import InputError, ListedBatch, batch_texts, check_batch, check_listed_batch
from rougelab.rouge.best_f import best_f_rpf
# run_kernel, map_threads, parts_of and start_threads through batch: importing rougelab._jit here would make this
# module a kernel source (_jit.kernel_sources)
from rougelab.rouge.batch import (EncodedBatch, get_num_threads, map_threads, pair_stats, parts_of, pooled_rpf,
                                  rpf_seconds, run_kernel, start_threads)
from rougelab.rouge.core import (Measure, PairStats, PreparedText, Vocabulary, check_options, measure_stats,
                                 pool_references, recall_precision_f)
from rougelab.rouge.limits import MAX_N, MAX_SKIP_DISTANCE, MAX_WLCS_WEIGHT, check_quadratic_sizes, quadratic
from rougelab.rouge.options import RougeOptions
from rougelab.rouge.small_batch import (SMALL_PAIRS, piece_scores, pieces_run_compiled, small_batch_compiled,
                                       small_batch_scores)
from rougelab.text.preprocessing import Preprocessing
from rougelab.text.sentences import Splitter, split_sentences
from rougelab.text.token_ids import first_sight_ids
from rougelab.text.tokenize import perl_bytes
from rougelab.text.tokenizers import warm_dropped_letters, warn_dropped_letters
from rougelab.validation import check_bool, check_float, check_int, check_names

DEFAULT_MEASURES = ("rouge-1", "rouge-2", "rouge-l", "rouge-w-1.2", "rouge-su4")
# Third-party code that computes rouge()'s numbers: NLTK (Punkt, Porter, Snowball), the numba kernels,
# numpy, regex (the Unicode tokenizers). Metrics built on rouge() declare them (``Metric.packages``).
PACKAGES = ("nltk", "numba", "numpy", "regex")
_MEASURE_NAME = re.compile(r"^rouge-(?:(?P<n>\d+)|(?P<l>l)|w-(?P<w>\d+(?:\.\d+)?)|(?P<s>su?)(?P<d>\d+|\*))$")


def parse_measure(name: str) -> Measure:
    """``"rouge-2"``, ``"rouge-l"``, ``"rouge-w-1.2"``, ``"rouge-s4"``, ``"rouge-su*"`` ... -> ``Measure``."""
    match = _MEASURE_NAME.match(name.strip().lower()) if isinstance(name, str) else None
    if not match or match["n"] == "0":
        raise InputError(f"unknown ROUGE measure {name!r}: use rouge-N (N >= 1), rouge-l, rouge-w-<weight> "
                         "(e.g. rouge-w-1.2), rouge-s<d>, rouge-su<d>, rouge-s* or rouge-su*")
    if match["n"]:
        return Measure("N", check_int(int(match["n"]), f"N of {name!r}", maximum=MAX_N))
    if match["l"]:
        return Measure("L")
    if match["w"]:
        weight = check_float(float(match["w"]), f"the weight of {name!r}", low=1, high=MAX_WLCS_WEIGHT,
                             hint=" (Lin 2004, 3.2: f(k) = k^w must give f(x + y) > f(x) + f(y), else the recall "
                                  "can exceed 1; 1 is ROUGE-L; above that k^w overflows)")
        return Measure("W", weight=weight)
    distance = -1 if match["d"] == "*" else check_int(int(match["d"]), f"the skip distance of {name!r}",
                                                      maximum=MAX_SKIP_DISTANCE, hint=" (rouge-s*: unlimited)")
    return Measure("S", distance, unigrams=match["s"] == "su")


@lru_cache(maxsize=256)
def _parse_measures(names: tuple[str, ...]) -> tuple[Measure, ...]:
    """``parse_measure`` of each name, a repeated measure once (scored once), remembered for the next call."""
    return tuple(dict.fromkeys(parse_measure(m) for m in names))


def column_prefix(measure: Measure) -> str:
    """``ROUGE-W-1.2`` -> ``rougew1.2``, ``ROUGE-SU*`` -> ``rougesu*``."""
    return measure.key.lower().replace("-", "")


MULTIREF_RULES = ("A", "B", "mean", "jackknife-B", "jackknife-A", "best-f")
_ALIASES = {"jackknife": "jackknife-B"}  # Lin (2004)'s jackknife, the name the registry uses


def _mean_rpf(rows: list[tuple[float, float, float]]) -> tuple[float, float, float]:
    return tuple(sum(values) / len(values) for values in zip(*rows))


def combine_references(per_reference: Sequence[PairStats], measure: Measure, rule: str, alpha: float,
                       round_before_f: bool = True) -> tuple[float, float, float]:
    """(R, P, F) of one summary from its per-reference counts (``measure_stats``) under a multi-reference rule.

    * ``"A"``: ROUGE-1.5.5's ``-f A``, hits and counts pooled over the references (Lin 2004, eq. 1 sums
      over the reference set);
    * ``"B"``: ``-f B``, the reference with the best ``select`` (the recall ``-f B`` compares; first on ties);
    * ``"mean"``: each reference scored alone, then R, P and F averaged over the references (the
      convention of several meta-evaluation papers);
    * ``"jackknife-B"`` (alias ``"jackknife"``): Lin (2004, section 2.1): for each of the M sets of M - 1
      references, the best single reference (as ``-f B``); the M (R, P, F) are averaged;
    * ``"jackknife-A"``: NIST's jackknifed DUC/TAC scores and sacrerouge's ``_jk`` metrics: each of the M
      leave-one-out sets scored as a whole with ``-f A`` (pooled), the M (R, P, F) averaged;
    * ``"best-f"``: rouge-score's ``score_multi``: per measure, the reference with the highest F (first on
      ties), nothing rounded: ``round_before_f`` does not apply (``rougelab.rouge.best_f``).

    Each (R, P, F) of the other rules is rounded as ROUGE-1.5.5 prints it when ``round_before_f`` (before
    averaging, as the tools average printed scores). With one reference every rule gives that reference's
    score (``"best-f"`` unrounded).
    """
    def rpf(stats: PairStats) -> tuple[float, float, float]:
        return recall_precision_f(stats, measure, alpha, round_before_f)

    if rule in ("A", "B"):
        return rpf(pool_references(per_reference, rule))
    if rule == "mean":
        return _mean_rpf([rpf(s) for s in per_reference])
    if rule == "best-f":
        stats = np.array([s[:3] for s in per_reference], dtype=np.float64).reshape(-1, 1, 3)
        return tuple(run_kernel(best_f_rpf, rpf_seconds, stats, np.array([0, len(per_reference)], dtype=np.int64),
                                np.array([measure.kind == "W"]), np.array([measure.weight]), alpha)[0, 0])
    m = len(per_reference)
    if m == 1:
        return rpf(per_reference[0])
    letter = rule[-1]
    return _mean_rpf([rpf(pool_references([s for k, s in enumerate(per_reference) if k != left_out], letter))
                      for left_out in range(m)])


_second_run = threading.local()  # ``.on`` while ``_again_after_loading`` scores a batch again

# Runs of the loading call after its first (``_again_after_loading``): CPython 3.11 runs a function's bytecode
# unspecialised (no "quickening") until its 8th call, so the process's next call would run ``rouge()``'s steps
# unspecialised after two runs. On ten pairs, that call took about 20 us less after 16 runs than after 8, and no
# less after 32 (benchmarks/RESULTS.md).
RUNS_AFTER_LOADING = 15


def _again_after_loading(scorer):
    """``scorer``, run again by the call that loads the batch kernels (``_load_batch_kernels``: a process's first
    small call that runs compiled). That call loads for about half a second (the small kernel, the batch kernels,
    pandas and its first DataFrame) after its own steps ran, and steps whose code and data were last touched that
    long before run several times slower (one pair: 55 us back to back, 300-500 us after 30-300 ms of other work;
    benchmarks/RESULTS.md): the process's next call would pay it. Run again ``RUNS_AFTER_LOADING`` times, they are
    fresh and their bytecode specialised. These runs warn of nothing (the first did); after each, the dropped-letter
    count's search runs on a letter of each width and ``warn``'s walk to the caller (``warm_dropped_letters``), so
    that the next call's first text with such a letter finds that path fresh too. Before these runs, the threads
    that score a large batch's pieces start and their heaps are readied (``start_threads``): readied earlier
    (with the batch kernels' loading), the calling thread's heap was a fresh one again by the call's end;
    readied after the runs, its writes left them cold (a pair's next call 0.21 ms against 0.06). Every other
    call runs once. ``scorer`` is a ``frame_scorer``, whose call is made here (a layer of ``*args`` less: 0.7 us of a
    one-pair call)."""
    table_scorer = scorer.table_scorer

    @wraps(scorer)
    def again(*args, **kwargs):
        if _batch_kernels_loaded:
            return table_scorer(*args, **kwargs).frame(copy=False)
        scores = table_scorer(*args, **kwargs).frame(copy=False)
        if not _batch_kernels_loaded:
            return scores
        start_threads()  # before the runs: its heaps' writes (4 MB a thread) leave the caches cold for them
        _second_run.on = True
        try:
            for _ in range(RUNS_AFTER_LOADING):
                scores = again(*args, **kwargs)  # the line every later call runs
                warm_dropped_letters()
        finally:
            _second_run.on = False
        return scores

    return again


@_again_after_loading
@frame_scorer
def rouge(summaries: Sequence[str], references: Sequence[Sequence[str]],
          measures: Sequence[str] = DEFAULT_MEASURES, *, preprocessing: Preprocessing | None = None,
          tokenizer: str | None = None, stem: bool | None = None, stemmer: str | None = None,
          stem_exceptions: Sequence[str] | None = None, stopwords: bool | None = None,
          splitter: Splitter | None = None, multiref: str = "A", alpha: float = 0.5,
          word_limit: int | None = None, byte_limit: int | None = None,
          perl_last_unigram_bug: bool = True, perl_byte_limit_skips_lcs: bool = True,
          perl_round_before_f: bool = True, perl_wlcs: bool = True) -> ScoreTable:
    """ROUGE scores (Lin 2004) of each summary against its references, as ROUGE-1.5.5 computes them.

    Parameters
    ----------
    summaries : list of str
        One text per row; sentences split by ``splitter``.
    references : list of list of str
        The reference texts of each summary (at least one each; an empty reference scores 0).
    measures : list of str
        ``rouge-N``, ``rouge-l`` (summary-level union LCS), ``rouge-w-<w>``, ``rouge-s<d>``, ``rouge-su<d>``,
        ``rouge-s*``, ``rouge-su*``.
    preprocessing : Preprocessing, optional
        Tokenizer, stemmer, exception lists, stopwords and sentence splitter in one object
        (``rougelab.text.preprocessing.Preprocessing``; default ``Preprocessing()``: ROUGE-1.5.5 with ``-m``).
        The six keywords below are shorthand for it (``Preprocessing.from_options``); give one or the other.
    tokenizer : {"rouge155", "rouge-score", "unicode", "character"}
        How text becomes tokens (``rougelab.text.tokenizers``): ROUGE-1.5.5's (default), Google
        rouge-score's, or rouge-score-rs's ``unicode-v1`` words / ``character-v1`` grapheme clusters for
        text in any script. The first two keep only ASCII letters and digits: a text whose other letters
        they drop makes ``rouge`` warn (once per call, with the number of such texts), since Chinese,
        Arabic or Cyrillic text would otherwise score 0 without a word; ``tokenizer="unicode"`` keeps them.
    stem : bool, optional
        Stem tokens longer than 3 characters (ROUGE-1.5.5's ``-m``). Default: on for ``"rouge155"`` (as
        papers report), off for the other tokenizers (rouge-score's ``use_stemmer=False``).
    stemmer : {"rouge155", "porter", "snowball:<language>", "snowball"}, optional
        What stemming uses (giving one turns ``stem`` on): ROUGE-1.5.5's own (the only one with
        ``"rouge155"``, its default), NLTK's Porter as rouge-score's ``use_stemmer=True`` runs it (the
        default of the others), or an NLTK Snowball stemmer (``"snowball:german"``, ...; ``"snowball"``
        is English).
    stopwords : bool
        ROUGE-1.5.5's ``-s`` (SMART stopwords removed).
    stem_exceptions : sequence of {"noun", "adv", "verb", "adj"}
        The WordNet-2.0 exception lists in ``-m``'s exception DB, in merge order (a later list wins on
        "best", "better", "testes"). The default order is a choice (the Perl builder merges in directory
        order, which varies; see ``rougelab.resources.EXCEPTION_LISTS``); ``()`` is an empty DB, as in
        several widely copied ROUGE-1.5.5 bundles: the Porter stemmer alone. They belong to
        ``stemmer="rouge155"``, whichever tokenizer it stems.
    multiref : {"A", "B", "mean", "jackknife-B", "jackknife-A"}
        ``A`` (``-f A``) pools hits and counts over the references; ``B`` (``-f B``) keeps the reference
        with the best recall; ``mean`` averages R, P and F of each reference alone; ``jackknife-B``
        (or ``jackknife``: Lin 2004, 2.1) averages the ``-f B`` score of the M leave-one-out sets;
        ``jackknife-A`` (NIST's DUC/TAC jackknifing, sacrerouge) averages their ``-f A`` score.
        ``best-f`` (rouge-score's ``score_multi``) keeps, per measure, the reference with the best F.
        See ``combine_references``.
    alpha : float
        F = P R / ((1 - alpha) P + alpha R) (``-p``).
    splitter : "newline", "nltk", "none", "period" or callable
        Sentence boundaries for ROUGE-L/W (see ``rougelab.text.split_sentences``): ``"newline"`` gives
        rouge-score's ``rougeLsum``, ``"none"`` (the whole text one sentence) its ``rougeL``.
    word_limit, byte_limit : int, optional
        ``-l`` / ``-b`` truncation of summaries and references (bytes of the UTF-8 text).
    perl_last_unigram_bug, perl_byte_limit_skips_lcs, perl_round_before_f, perl_wlcs : bool
        ROUGE-1.5.5's quirks, on by default: ROUGE-SU never counts the last token's unigram; ``-b``
        leaves the ROUGE-L/W input (almost) untruncated; R and P are rounded to 5 decimals before F;
        ROUGE-W counts runs of adjacent reference tokens on the union LCS (ignoring gaps in the summary)
        and weights its recall base twice. ``perl_wlcs=False`` gives Lin's ROUGE-W (eqs. 13-15; each
        reference sentence against its best summary sentence). rouge-score rounds nothing: pass
        ``perl_round_before_f=False`` (``rougelab.metrics.rouge_score_metrics`` does, for its names).

    Returns
    -------
    pandas.DataFrame
        One row per summary, float columns ``<measure>_r``, ``_p``, ``_f`` (see the module docstring); no
        rows for an empty batch (``rouge([], [])``). ``rouge.table_scorer`` returns the same numbers as a
        ``rougelab.score_table.ScoreTable``, without loading pandas.
    """
    listed = check_listed_batch(summaries, references)  # the usual batch: its texts listed by the check
    plan = _plan(measures, preprocessing, tokenizer, stem, stemmer, stem_exceptions, stopwords, splitter, multiref,
                 alpha, word_limit, byte_limit, perl_last_unigram_bug, perl_byte_limit_skips_lcs, perl_round_before_f,
                 perl_wlcs)
    # very long texts: InputError before any allocation
    check_quadratic_sizes(summaries, references, plan.grows, listed and listed.texts)
    if plan.options.tokenizer in ("rouge155", "rouge-score") and (listed is None or listed.non_ascii) and \
            not getattr(_second_run, "on", False):  # an ASCII batch has no letters to drop
        warn_dropped_letters(listed.non_ascii if listed else chain(summaries, chain.from_iterable(references)),
                             f"tokenizer={plan.options.tokenizer!r}", "tokenizer='unicode' keeps them")
    table = _score_small(summaries, references, plan, listed) if plan.small else None
    if table is None:
        score = _score_one_by_one if plan.one_by_one else _score_batch
        table = score(summaries, references, plan.measures, plan.options, plan.multiref, plan.splitter)
    return ScoreTable(plan.columns, np.asarray(table, dtype=float).reshape(len(summaries), len(plan.columns)))


class _Plan(NamedTuple):
    """What ``rouge()``'s options decide, checked: the measures, the ``RougeOptions``, the multi-reference
    rule, the sentence splitter, whether the pairs go one by one (``_score_one_by_one``), whether a small batch
    may go through ``small_batch_scores`` (``_score_small``), the columns, the measures as the kernels take
    them (``_kernel_measures``) and how their memory grows with the texts (``limits.quadratic``)."""

    measures: tuple[Measure, ...]
    options: RougeOptions
    multiref: str
    splitter: Splitter
    one_by_one: bool
    small: bool
    columns: tuple[str, ...]
    layout: _KernelMeasures
    grows: tuple[bool, int, bool, int]


_PLANS: dict[tuple, _Plan] = {}  # ``_checked_plan`` of the options seen, by ``_typed`` key
_MOST_PLANS = 256  # plans kept at most: a full memo is emptied before the next plan goes in


def _plan(measures, preprocessing, tokenizer, stem, stemmer, stem_exceptions, stopwords, splitter, multiref, alpha,
          word_limit, byte_limit, perl_last_unigram_bug, perl_byte_limit_skips_lcs, perl_round_before_f,
          perl_wlcs) -> _Plan:
    """``_checked_plan`` of ``rouge()``'s options, remembered for the next call with the same option values of the
    same types (``_typed``; the measures' container type too): a value the checks would refuse never gets a plan,
    so it never finds one. Named parameters, not ``**options``: ``rouge()`` hands them over by position (a dict of
    16 keywords made and read again cost 0.75 us a call)."""
    rest = (preprocessing, tokenizer, stem, stemmer, stem_exceptions, stopwords, splitter, multiref, alpha,
            word_limit, byte_limit, perl_last_unigram_bug, perl_byte_limit_skips_lcs, perl_round_before_f, perl_wlcs)
    try:
        key = (type(measures), _typed(measures), _typed(rest)) if type(measures) in (list, tuple) else \
            _typed((measures, *rest))  # one measure's name, or a value refused (an iterator: not read here)
    except TypeError:  # a value a key cannot hold safely (a numpy number, a callable splitter): checked afresh
        return _checked_plan(measures, *rest)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _checked_plan(measures, *rest)
        if len(_PLANS) >= _MOST_PLANS:
            _PLANS.clear()
        _PLANS[key] = plan
    return plan


# Values a key holds as they are, beside their type. Floats among them: the one pair of floats that compare equal,
# 0.0 and -0.0, gives one plan (``_checked_plan`` adds 0.0 to alpha; the limits become ints).
_PLAIN = frozenset((type(None), bool, int, float, str))


def _typed(values) -> tuple:
    """``values`` with their types as a hashable key, so that values that compare equal but are checked
    differently never share one (``True`` and ``1``, ``1`` and ``1.0``, a list and a tuple): for None, bool, int,
    float, str, a ``Preprocessing`` with a named splitter and lists and tuples of these; ``TypeError`` for anything
    else. Values all of ``_PLAIN`` types (the usual call's measures, and its other options) give their types and
    themselves, found by builtins that loop in C (``_plan`` of the usual options: 1.65 us, against 2.2 with a loop
    over the values)."""
    kinds = tuple(map(type, values))
    if _PLAIN.issuperset(kinds):
        return kinds, tuple(values)
    key = []
    for kind, value in zip(kinds, values):
        if kind in _PLAIN or (kind is Preprocessing and isinstance(value.splitter, str)):
            key += kind, value
        elif kind in (list, tuple):
            key += kind, _typed(value)
        else:
            raise TypeError(f"no memo key for a {kind.__name__}")
    return tuple(key)


def _checked_plan(measures, preprocessing, tokenizer, stem, stemmer, stem_exceptions, stopwords, splitter,
                  multiref, alpha, word_limit, byte_limit, perl_last_unigram_bug, perl_byte_limit_skips_lcs,
                  perl_round_before_f, perl_wlcs) -> _Plan:
    """``rouge()``'s options checked (``InputError`` naming a bad one) and turned into a ``_Plan``."""
    word_limit, byte_limit = (check_int(value, name, minimum=0, none=True, hint=" (0 or None: no limit)")
                              for name, value in (("word_limit", word_limit), ("byte_limit", byte_limit)))
    alpha = check_float(alpha, "alpha", low=0, high=1) + 0.0  # -0.0 -> 0.0: one plan for both (``_PLAIN``)
    stem = None if stem is None else check_bool(stem, "stem")
    stopwords = None if stopwords is None else check_bool(stopwords, "stopwords")
    perl_last_unigram_bug, perl_byte_limit_skips_lcs, perl_round_before_f, perl_wlcs = (
        check_bool(value, name) for name, value in (
            ("perl_last_unigram_bug", perl_last_unigram_bug),
            ("perl_byte_limit_skips_lcs", perl_byte_limit_skips_lcs),
            ("perl_round_before_f", perl_round_before_f), ("perl_wlcs", perl_wlcs)))
    multiref = _ALIASES.get(multiref, multiref)
    if multiref not in MULTIREF_RULES:
        raise InputError(f"multiref must be one of {', '.join(map(repr, MULTIREF_RULES))} "
                         f"(or 'jackknife' for 'jackknife-B'), got {multiref!r}")
    shorthand = dict(tokenizer=tokenizer, stem=stem, stemmer=stemmer, stem_exceptions=stem_exceptions,
                     stopwords=stopwords, splitter=splitter)
    if preprocessing is None:
        preprocessing = Preprocessing.from_options(**shorthand)
    elif not isinstance(preprocessing, Preprocessing):
        raise InputError(f"preprocessing must be a rougelab.text.Preprocessing, not {type(preprocessing).__name__}")
    elif any(value is not None for value in shorthand.values()):
        given = ", ".join(name for name, value in shorthand.items() if value is not None)
        raise InputError(f"give preprocessing= or {given}, not both (they are fields of Preprocessing)")
    tokenizer, splitter = preprocessing.tokenizer, preprocessing.splitter
    if isinstance(measures, str):
        measures = [measures]
    measures = check_names(measures, "measures", empty=True)
    parsed = _parse_measures(tuple(measures))
    if not parsed:
        raise InputError("no ROUGE measure requested: pass e.g. measures=['rouge-1', 'rouge-2', 'rouge-l']")
    options = RougeOptions(stem=preprocessing.stems, stemmer=preprocessing.stemmer,
                           stem_exceptions=preprocessing.stem_exceptions, stopwords=preprocessing.stopwords,
                           word_limit=word_limit, byte_limit=byte_limit,
                           alpha=alpha, multiref=multiref if multiref in ("A", "B") else "A", tokenizer=tokenizer,
                           perl_last_unigram_bug=perl_last_unigram_bug,
                           perl_byte_limit_skips_lcs=perl_byte_limit_skips_lcs,
                           perl_round_before_f=perl_round_before_f, perl_wlcs=perl_wlcs)
    try:
        check_options(options)
    except ValueError as err:
        raise InputError(str(err)) from None
    one_by_one = bool(word_limit or byte_limit or (not perl_wlcs and any(m.kind == "W" for m in parsed)))
    if one_by_one and tokenizer != "rouge155":
        raise InputError(f"tokenizer={tokenizer!r} cannot be combined with word_limit, byte_limit or "
                         "perl_wlcs=False (ROUGE-1.5.5's truncation and Lin's ROUGE-W read its own tokens)")
    small = not one_by_one and _fused_setting(parsed, options, multiref, splitter) and \
        any(m.kind in ("L", "W") for m in parsed)
    return _Plan(parsed, options, multiref, splitter, one_by_one, small, _columns(parsed), _kernel_measures(parsed),
                 quadratic(parsed))


def _columns(measures: tuple[Measure, ...]) -> tuple[str, ...]:
    """The table's column names."""
    return tuple(f"{column_prefix(m)}_{x}" for m in measures for x in "rpf")


# Without ROUGE-L/W, sentences matter only through the tokens: these splitters only put line breaks where
# there was white space or between two punctuation marks (Punkt breaks after ".", "?" or "!"), and these
# tokenizers read both as a token boundary (tests/test_rouge_api.py checks it on SummEval).
SENTENCE_BLIND_SPLITTERS = ("nltk", "none")
SENTENCE_BLIND_TOKENIZERS = ("rouge155", "rouge-score")


def _text_pairs(summaries, references, every: list[str] | None = None) -> tuple[list[str], np.ndarray, np.ndarray,
                                                                              np.ndarray]:
    """The distinct texts of a batch (in order of first sight) and, as indices into them, the summary (peer)
    and the reference (model) of every pair, summary i owning pairs ``bounds[i]:bounds[i + 1]``. ``every``:
    the batch's texts listed already, the summaries then their references (``check_listed_batch``)."""
    if every is None:
        every = batch_texts(summaries, references)
    if len(every) == 2 * len(summaries) and len(set(every)) == len(every):  # each text once, one reference each
        return (every, *_own_pairs(len(summaries)))
    texts, text_ids = first_sight_ids(every)  # every distinct text
    peers, models = text_ids[:len(summaries)], text_ids[len(summaries):]
    if len(models) == len(summaries):  # one reference each (each has one at least): summary i owns pair i
        bounds = np.arange(len(summaries) + 1, dtype=np.int64)
    else:
        per_summary = np.fromiter(map(len, references), dtype=np.int64, count=len(references))
        peers = np.repeat(peers, per_summary)
        bounds = np.zeros(len(summaries) + 1, dtype=np.int64)
        np.cumsum(per_summary, out=bounds[1:])
    return texts, peers, models, bounds


@lru_cache(maxsize=16)
def _own_pairs(summaries: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``_text_pairs``' peers, models and bounds of ``summaries`` distinct summaries each with a reference of its own
    (the usual small call's batch), made once per size: the kernels only read them (``_text_pairs`` of one pair took
    1.1 us making them, 0.7 finding them)."""
    ids = np.arange(2 * summaries, dtype=np.int64)
    return ids[:summaries], ids[summaries:], np.arange(summaries + 1, dtype=np.int64)


def _score_small(summaries, references, plan: _Plan, listed: ListedBatch | None = None) -> np.ndarray | None:
    """``_score_batch``'s numbers in one compiled call for a small batch (``small_batch_scores``), or None.
    The first such call that runs the compiled kernel also scores its batch through ``_score_batch`` once
    (``_load_batch_kernels``). ``listed``: the batch's texts as ``check_listed_batch`` lists them."""
    if len(summaries) > SMALL_PAIRS:  # more pairs than that (a reference each at least): not numbered twice
        return None
    texts, peers, models, bounds = _text_pairs(summaries, references, listed and listed.texts)
    table = small_batch_scores(texts, peers, models, bounds, plan.layout, plan.options.alpha,
                               plan.multiref == "B", None if listed is None else not listed.non_ascii)
    if table is not None and not _batch_kernels_loaded and small_batch_compiled():
        _load_batch_kernels(summaries, references, plan)
    return table


_batch_kernels_loaded = False


def _load_batch_kernels(summaries, references, plan: _Plan) -> None:
    """Score a small batch through ``_score_batch`` too, once per process, when the small path first runs
    compiled: the kernel cache's batch kernels then load while the process is loading anyway, not in the
    middle of its first larger batch (5 kernels, about 30 ms; ``small_batch_rpf`` holds their code but
    numba loads each kernel on its own). Where they are not compiled yet they run as Python on this batch."""
    global _batch_kernels_loaded
    _batch_kernels_loaded = True
    _score_batch(summaries, references, plan.measures, plan.options, plan.multiref, plan.splitter)


# Pairs a piece of a large batch holds at most (``_score_batch``). On a million distinct pairs, pieces of
# 2,000 to 10,000 pairs took the least CPU (20,000 and 50,000 more; the whole batch at once the most); on 20,000
# pairs and two threads, 8 pieces of 2,500 took about 30% less wall time on a first call and 19% less on repeated
# ones than 2 of 10,000, and less CPU (benchmarks/RESULTS.md); the memory of a call grows with the piece.
PIECE_PAIRS = 2_500
# Pairs from which a batch is cut into one piece per thread (``parts_of``), so that one piece's Python steps run
# beside the other's kernels: on two threads, 300 pairs took about 17% less wall time on repeated calls in two
# pieces, 500 to 700 pairs 11-33% less (benchmarks/RESULTS.md); 200 pairs gained nothing.
THREADED_PIECES_FROM = 300
# Pairs from which a batch is cut into two pieces per thread at least: the first piece's Python steps, which the
# other thread waits for (they hold the GIL), are half as long, and each thread's second piece's Python runs beside
# the other's kernels; on two threads 2,000 pairs took about 4-7% less wall time in four pieces than in two
# (benchmarks/RESULTS.md); 500 and 700 pairs were slower in four, 1,000 about even.
TWO_PIECES_PER_THREAD_FROM = 1_000


def _score_batch(summaries, references, parsed, options, multiref, splitter) -> np.ndarray:
    """(summaries x measures x 3) R/P/F through ``EncodedBatch`` and the compiled pair kernels (``_score_piece``).

    A batch is cut into pieces of consecutive summaries (``_pieces``: a summary's references in its piece),
    scored on the threads, each piece on one (``map_threads``; inside, a piece runs on its thread alone): one thread's
    Python steps (numbering and encoding a piece's texts) run while the other runs its kernels, and the memory
    taken is that of the pieces in hand. A pair's numbers depend only on its two texts, so the pieces give the
    table of the whole batch (tests/test_rouge_pieces.py)."""
    pieces = _pieces(references)
    if len(pieces) == 1:
        return _score_piece(summaries, references, parsed, options, multiref, splitter)
    # cut by position: a sequence ``check_batch`` accepts may not slice (a deque) or slice by label
    summaries, references = (x if isinstance(x, (list, tuple, np.ndarray)) else list(x)
                             for x in (summaries, references))

    def score(piece):
        lo, hi = piece
        return _score_piece(summaries[lo:hi], references[lo:hi], parsed, options, multiref, splitter)

    out = np.empty((len(summaries), len(parsed), 3))
    for (lo, hi), table in zip(pieces, map_threads(score, pieces)):
        out[lo:hi] = table
    return out


def _pieces(references) -> list[tuple[int, int]]:
    """The pieces of a batch, as ranges of summaries: one below ``THREADED_PIECES_FROM`` pairs, from there one per
    thread (``parts_of``), from ``TWO_PIECES_PER_THREAD_FROM`` at least two per thread, and as many more, about
    equal, as keep each to at most ``PIECE_PAIRS`` pairs (stemmed or not: a piece looks its words' stems up in
    the process's lexicon, ``rougelab.text.lexicon``)."""
    counts = np.fromiter(map(len, references), dtype=np.int64, count=len(references))
    total = int(counts.sum())
    parts = parts_of(counts, THREADED_PIECES_FROM)
    fewest = 2 * len(parts) if len(parts) > 1 and total >= TWO_PIECES_PER_THREAD_FROM else len(parts)
    if fewest == len(parts) and total <= PIECE_PAIRS:
        return parts
    pieces = max(fewest, -(-total // PIECE_PAIRS))  # -(-a // b): a / b rounded up
    ends = _piece_ends(counts, -(-total // pieces))
    return list(zip([0, *ends[:-1]], ends))


def _piece_ends(counts: np.ndarray, most: int) -> list[int]:
    """Where each piece ends (summary indices, the last ``len(counts)``) for summaries of ``counts`` pairs:
    consecutive summaries of at most ``most`` pairs, or one summary of more."""
    cumulative = np.cumsum(counts)
    ends, lo = [], 0
    while lo < len(counts):
        hi = int(np.searchsorted(cumulative, (cumulative[lo - 1] if lo else 0) + most, side="right"))
        ends.append(max(hi, lo + 1))
        lo = ends[-1]
    return ends


def _score_piece(summaries, references, parsed, options, multiref, splitter) -> np.ndarray:
    """(summaries x measures x 3) R/P/F of a batch (or a piece of one) through ``EncodedBatch`` and the
    compiled pair kernels, or, in the setting ``small_batch_rpf`` covers (``_fused_setting``) on a thread of its
    own (one of ``map_threads``', or the only one), through that one compiled call (``piece_scores``): the same
    numbers (tests/test_rouge_pieces.py), without the Python between the kernels, which holds the interpreter
    lock the other thread's pieces wait for (a 1,000-pair first call: 4.75 ms that way, 4.33 in one call:
    benchmarks/RESULTS.md). A batch scored on several threads in one piece keeps the batch path, whose pair
    kernels share its pairs out among the threads."""
    texts, peers, models, bounds = _text_pairs(summaries, references)
    layout = _kernel_measures(tuple(parsed))  # the measures as the kernels take them
    if not len(layout.lcs_weights) and splitter in SENTENCE_BLIND_SPLITTERS and \
            options.tokenizer in SENTENCE_BLIND_TOKENIZERS:
        splitter = "newline"  # n-grams and skip-bigrams run across sentences: the split changes no token
    if get_num_threads() == 1 and _fused_setting(parsed, options, multiref, splitter) and pieces_run_compiled():
        return piece_scores(texts, peers, models, bounds, layout, options.alpha, multiref == "B")
    batch = EncodedBatch(texts, splitter, options)
    stats = pair_stats(batch, peers, models, layout.grams, layout.lcs_weights, layout.lcs_is_w)
    if layout.order is not None:  # C order: a reordered copy may be laid out otherwise, a specialisation of its own
        stats = np.ascontiguousarray(stats[:, layout.order, :])
    if multiref == "best-f":
        return run_kernel(best_f_rpf, rpf_seconds, stats, bounds, layout.is_w, layout.weights, options.alpha)
    if multiref in ("A", "B"):
        return run_kernel(pooled_rpf, rpf_seconds, stats, bounds, layout.is_w, layout.weights, options.alpha,
                          multiref == "B", 5 if options.perl_round_before_f else None)
    out = np.zeros((len(summaries), len(parsed), 3))
    for i in range(len(summaries)):
        for k, m in enumerate(parsed):
            pairs = [PairStats(*row) for row in stats[bounds[i]:bounds[i + 1], k].tolist()]
            out[i, k] = combine_references(pairs, m, multiref, options.alpha, options.perl_round_before_f)
    return out


def _fused_setting(parsed, options: RougeOptions, multiref: str, splitter: Splitter) -> bool:
    """Whether ``small_batch_rpf`` scores these options (unlimited texts assumed): unstemmed ``rouge155`` tokens
    without stopwords, a sentence a line, ``-f A`` or ``-f B`` rounded as ROUGE-1.5.5 prints, no skip-bigrams."""
    return (options.tokenizer == "rouge155" and not options.stem and not options.stopwords and splitter == "newline"
            and multiref in ("A", "B") and options.perl_round_before_f and all(m.kind != "S" for m in parsed))


class _KernelMeasures(NamedTuple):
    """What ``_score_batch`` hands the kernels for a list of measures (arrays only read, never written)."""

    grams: list[Measure]      # the n-gram, then the skip-bigram measures, first in the kernel's columns
    lcs_weights: np.ndarray   # then ROUGE-L (weight 1) and ROUGE-W
    lcs_is_w: np.ndarray
    order: list[int] | None   # the kernel's column of each measure, in the order asked (None: the same)
    is_w: np.ndarray          # each measure (in that order): ROUGE-W?, its weight
    weights: np.ndarray
    ngram_sizes: np.ndarray   # n of the n-gram measures (``small_batch_scores``)
    columns: np.ndarray       # ``order`` as an array, also when it is the same


@lru_cache(maxsize=256)
def _kernel_measures(parsed: tuple[Measure, ...]) -> _KernelMeasures:
    """``_KernelMeasures`` of ``parsed``, built once per list of measures (a call reuses the arrays)."""
    grams = [m for m in parsed if m.kind == "N"] + [m for m in parsed if m.kind == "S"]  # as pair_stats takes them
    lcs = [m for m in parsed if m.kind in ("L", "W")]
    order = grams + lcs
    return _KernelMeasures(grams, np.array([1.0 if m.kind == "L" else m.weight for m in lcs], dtype=np.float64),
                           np.array([m.kind == "W" for m in lcs], dtype=np.bool_),
                           None if order == list(parsed) else [order.index(m) for m in parsed],
                           np.array([m.kind == "W" for m in parsed], dtype=np.bool_),
                           np.array([m.weight for m in parsed], dtype=np.float64),
                           np.array([m.size for m in parsed if m.kind == "N"], dtype=np.int64),
                           np.array([order.index(m) for m in parsed], dtype=np.int64))


def _score_one_by_one(summaries, references, parsed, options, multiref, splitter) -> np.ndarray:
    """(summaries x measures x 3) R/P/F pair by pair through ``PreparedText`` (length limits, Lin's ROUGE-W)."""
    vocab = Vocabulary()
    prepared: dict[str, PreparedText] = {}
    for text in [*summaries, *(r for refs in references for r in refs)]:  # every distinct text, once, first
        if text not in prepared:
            sentences = [perl_bytes(s) for s in split_sentences(text, splitter)]
            prepared[text] = PreparedText(sentences, options, vocab)
    out = np.zeros((len(summaries), len(parsed), 3))
    for i, (summary, refs) in enumerate(zip(summaries, references)):
        peer = prepared[summary]
        models = [prepared[r] for r in refs]
        select = multiref in ("B", "jackknife-B")
        for k, (m, stats) in enumerate(zip(parsed, measure_stats(peer, models, parsed, select=select))):
            out[i, k] = combine_references(stats, m, multiref, options.alpha, options.perl_round_before_f)
    return out
