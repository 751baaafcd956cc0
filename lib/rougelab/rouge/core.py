"""One peer against its models, exactly as ROUGE-1.5.5.pl scores it before averaging.

The Perl script reads each summary as a list of sentences, lower-cases them, truncates them (``-l``/``-b``),
tokenises them and then, per model, counts hits; ``-f A`` pools hits and counts over the models,
``-f B`` keeps the model with the best recall. R and P are rounded to 5 decimals (``%7.5f``) before
F = P R / ((1 - alpha) P + alpha R) (Lin 2004, eq. 4 with alpha = 1 / (1 + beta^2)), and F is rounded too.

``score_peer`` is the contract the command-line front end (``rougelab.rouge.rouge155``) calls;
``rougelab.rouge.api.rouge`` uses the same pieces for batches with length limits, and otherwise the
compiled batch path (``rougelab.rouge.batch``), which gives the same digits.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Sequence

import numpy as np

# run_kernel through grams: importing rougelab._jit here would make this module a kernel source (_jit.kernel_sources)
from rougelab.rouge.grams import (KIND_NGRAM, KIND_SKIP, count_codes, gram_codes, gram_tables,
                                  multi_clipped_hits, ngrams, pack_bits, run_kernel)
from rougelab.rouge.lcs import summary_lcs_hits, summary_wlcs_lin
from rougelab.rouge.options import RougeOptions
from rougelab.scoring import prf
from rougelab.scoring import round_decimals as round5  # ROUGE-1.5.5's sprintf("%7.5f") read back
from rougelab.text.token_ids import TokenIndex
from rougelab.text.tokenize import lowercase, normalize, perl_split, select_tokens
from rougelab.validation import check_float, check_int


@dataclass(frozen=True)
class Measure:
    """One ROUGE measure: ``kind`` "N" (n-grams, ``size`` n), "L", "W" (``weight``) or "S" (skip-bigrams,
    ``size`` the distance d, negative for unlimited; ``unigrams`` adds ROUGE-SU's unigrams)."""

    kind: str
    size: int = 0
    weight: float = 1.0
    unigrams: bool = False
    key: str = field(init=False, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "key", self._name())

    def _name(self) -> str:
        """The name ROUGE-1.5.5 prints: ROUGE-2, ROUGE-L, ROUGE-W-1.2, ROUGE-S4, ROUGE-SU*, ..."""
        if self.kind == "N":
            return f"ROUGE-{self.size}"
        if self.kind == "L":
            return "ROUGE-L"
        if self.kind == "W":
            return f"ROUGE-W-{self.weight:.15g}"
        distance = str(self.size) if self.size >= 0 else "*"
        return f"ROUGE-{'SU' if self.unigrams else 'S'}{distance}"


def measures_from_options(options: RougeOptions) -> list[Measure]:
    """The measures the Perl script prints for these options, in its order."""
    out = [Measure("N", n) for n in range(1, options.max_n + 1)]
    if options.rouge_l:
        out.append(Measure("L"))
    if options.wlcs_weight is not None:
        if not options.wlcs_weight > 0:
            raise ValueError(f"ROUGE-W weight must be greater than 0, got {options.wlcs_weight}")
        out.append(Measure("W", weight=float(options.wlcs_weight)))
    if options.skip_distance is not None:
        d = int(options.skip_distance)
        if options.skip_unigrams_only_u:
            out.append(Measure("S", d, unigrams=True))
        elif options.skip_unigrams:
            out += [Measure("S", d), Measure("S", d, unigrams=True)]
        else:
            out.append(Measure("S", d))
    return out


def check_options(options: RougeOptions) -> None:
    """Raise ``ValueError`` for settings the Perl script refuses (or that have no meaning)."""
    for name in ("word_limit", "byte_limit"):
        check_int(getattr(options, name), name, minimum=0, none=True, hint=" (0 or None: no limit)")
    if options.word_limit and options.byte_limit:
        raise ValueError("give a length limit in words (-l) or in bytes (-b), not both")
    check_float(options.alpha, "alpha", low=0, high=1)
    if options.multiref not in ("A", "B"):
        raise ValueError(f"multiref must be 'A' (pool the models) or 'B' (best model), got {options.multiref!r}")
    if options.max_n < 0:
        raise ValueError(f"max_n must be >= 0, got {options.max_n}")


# --------------------------------------------------------------------------------------------
# Reading: truncation (readText / readText_LCS) and tokenisation


def truncate_text(sentences: list[str], word_limit: int | None, byte_limit: int | None) -> str | None:
    """The one string ``readText`` builds for n-grams and skip-bigrams (None: empty text).

    ``sentences`` are lower-cased Perl byte strings. Words are counted with ``split(/\\s+/)`` before
    punctuation is split off; the joining spaces count for neither limit.
    """
    if not word_limit and not byte_limit:
        return " ".join(sentences)
    text, used = "", 0
    for s in sentences:
        words = perl_split(s) if word_limit else None
        size = len(words) if word_limit else len(s)
        limit = word_limit or byte_limit
        if used + size < limit:
            text += f" {s}" if used != 0 else s
            used += size
        else:
            if used > 0:
                text += " "
            text += " ".join(words[:limit - used]) if word_limit else s[:limit - used]
            break
    return text or None


def truncate_units(sentences: list[str], word_limit: int | None, byte_limit: int | None,
                   byte_limit_bug: bool) -> list[str]:
    """The sentence list ``readText_LCS`` builds for ROUGE-L/W.

    With ``byte_limit_bug`` (ROUGE-1.5.5's behaviour) the byte count is never accumulated, so ``-b``
    keeps every sentence shorter than the limit and cuts only the first longer one, at the limit.
    """
    if not word_limit and not byte_limit:
        return list(sentences)
    units, used = [], 0
    for s in sentences:
        if word_limit:
            words = perl_split(s)
            if used + len(words) < word_limit:
                used += len(words)
                units.append(s)
            else:
                units.append(" ".join(words[:word_limit - used]))
                break
        else:
            if used + len(s) < byte_limit:
                units.append(s)
                if not byte_limit_bug:
                    used += len(s)
            else:
                units.append(s[:byte_limit - used])
                break
    return units


# --------------------------------------------------------------------------------------------
# Seconds of each kernel's pure-Python run (``run_kernel``: a small first call compiles nothing), per step,
# a little above the most that benchmarks/python_steps.py measures.
GRAM_STEP = 0.7e-6      # ``gram_tables`` / ``gram_codes``: per gram made
COUNT_STEP = 0.4e-6     # ``count_codes``: per code
CLIP_STEP = 0.2e-6      # ``multi_clipped_hits``: per distinct gram of the two tables
LCS_BITS_STEP = 2.7e-6  # ``summary_lcs_hits`` of weight 1: per token of one side and sentence of the other
LCS_CELL_STEP = 0.7e-6  # ``summary_lcs_hits`` of ROUGE-W, ``summary_wlcs_lin``: per cell of the two texts' DP


def _grams(n: int, kind: int, size: int) -> int:
    """About how many grams ``gram_codes`` makes of ``n`` tokens (n-grams, or skip-bigrams within ``size``)."""
    return n if kind == KIND_NGRAM else n * (n if size < 0 else min(n, size + 1))


def _tables_seconds(tokens, kinds, sizes, unigrams, last_unigram_bug, bits):
    return GRAM_STEP * sum(_grams(len(tokens), k, s) for k, s in zip(kinds.tolist(), sizes.tolist()))


def _codes_seconds(tokens, kind, size, unigrams, last_unigram_bug, bits):
    return GRAM_STEP * _grams(len(tokens), kind, size)


def _count_seconds(codes):
    return COUNT_STEP * len(codes)


def _clipped_seconds(model_codes, model_counts, model_bounds, peer_codes, peer_counts, peer_bounds):
    return CLIP_STEP * (len(model_codes) + len(peer_codes))


def _summary_lcs_seconds(model, model_offsets, peer, peer_offsets, weight, *unigram_tables):
    if weight != 1.0:
        return _wlcs_lin_seconds(model, model_offsets, peer, peer_offsets, weight)
    return LCS_BITS_STEP * (len(model) * (len(peer_offsets) - 1) + len(peer) * (len(model_offsets) - 1))


def _wlcs_lin_seconds(model, model_offsets, peer, peer_offsets, weight):
    return LCS_CELL_STEP * len(model) * len(peer)


class Vocabulary(TokenIndex):
    """The token ids (``TokenIndex``) shared by every text scored together, and the n-gram numbering.

    The first gram table built seals it: n-gram codes pack ids into ``63 // n`` bits when the sealed
    vocabulary fits (``pack_bits``), else they are numbered here (``grams``), so all texts of a batch
    must be read before any table is built.
    """

    def __init__(self) -> None:
        super().__init__()
        self.grams = TokenIndex()  # n-gram (tuple of ids) -> number
        self.sealed = False

    def encode(self, tokens: list[str]) -> list[int]:
        if self.sealed:
            unknown = [t for t in tokens if t not in self]
            if unknown:
                raise RuntimeError(f"vocabulary sealed: read every text before building gram tables ({unknown[:3]})")
        return self.id_list(tokens)

    def bits(self, measure: Measure) -> int:
        """Bits per id for packing ``measure``'s grams; 0 when n-grams must be numbered instead."""
        self.sealed = True
        if measure.kind == "S":
            return 32
        bits = pack_bits(measure.size)
        return bits if len(self) <= (1 << bits) else 0

    def number_ngrams(self, tokens: np.ndarray, n: int) -> np.ndarray:
        """Codes of the n-grams (``ngrams``) of ``tokens`` from the shared numbering (when packing would overflow)."""
        return self.grams.ids(map(tuple, ngrams(tokens, n).tolist()))


class PreparedText:
    """One summary read the way the Perl script reads it, with its gram tables built on demand.

    ``flat``: token ids of the ``readText`` string (n-grams, skip-bigrams, clipping counts);
    ``units`` / ``offsets``: token ids of the ``readText_LCS`` sentences (ROUGE-L/W).
    ``sentences`` are Perl byte strings (one character per byte, see ``rougelab.text.tokenize.perl_bytes``).
    """

    def __init__(self, sentences: Sequence[str], options: RougeOptions, vocab: Vocabulary):
        raw = [lowercase(s) for s in sentences if s]
        select = dict(stem=options.stem, stopwords=options.stopwords, exceptions=options.stem_exceptions)
        units = truncate_units(raw, options.word_limit, options.byte_limit, options.perl_byte_limit_skips_lcs)
        unit_ids = [vocab.encode(select_tokens(normalize(u), **select)) for u in units]
        if options.word_limit or options.byte_limit:
            flat_text = truncate_text(raw, options.word_limit, options.byte_limit)
            flat = vocab.encode(select_tokens(normalize(flat_text), **select)) if flat_text else []
        else:  # untruncated, readText's joined string has exactly the sentences' tokens
            flat = [t for u in unit_ids for t in u]
        self.flat = np.array(flat, dtype=np.int64)
        self.units = np.array([t for u in unit_ids for t in u], dtype=np.int64)
        self.offsets = np.cumsum([0] + [len(u) for u in unit_ids], dtype=np.int64)
        self.last_unigram_bug = options.perl_last_unigram_bug
        self.perl_wlcs = options.perl_wlcs
        self.vocab = vocab
        self._tables: dict = {}

    def packed(self, measures: tuple[Measure, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Gram tables of "N"/"S" measures end to end: codes, counts, segment bounds, totals (``gram_tables``)."""
        key = tuple(m.key for m in measures)
        if key not in self._tables:
            bits = [self.vocab.bits(m) for m in measures]
            if all(bits):
                spec = [np.array(x, dtype=np.int64) for x in
                        ([KIND_NGRAM if m.kind == "N" else KIND_SKIP for m in measures],
                         [m.size for m in measures], [m.unigrams for m in measures], bits)]
                self._tables[key] = run_kernel(gram_tables, _tables_seconds, self.flat, *spec[:3],
                                               self.last_unigram_bug, spec[3])
            else:
                self._tables[key] = self._packed_slowly(measures, bits)
        return self._tables[key]

    def _packed_slowly(self, measures, bits):
        codes, counts, totals = [], [], []
        for m, b in zip(measures, bits):
            if b:
                c = run_kernel(gram_codes, _codes_seconds, self.flat, KIND_NGRAM if m.kind == "N" else KIND_SKIP,
                               m.size, m.unigrams, self.last_unigram_bug, b)
            else:
                c = self.vocab.number_ngrams(self.flat, m.size)
            distinct, how_many = run_kernel(count_codes, _count_seconds, c)
            codes.append(distinct)
            counts.append(how_many)
            totals.append(len(c))
        bounds = np.cumsum([0] + [len(c) for c in codes], dtype=np.int64)
        empty = np.zeros(0, dtype=np.int64)
        return (np.concatenate(codes) if codes else empty, np.concatenate(counts) if counts else empty,
                bounds, np.array(totals, dtype=np.int64))

    def unigram_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Sorted distinct token ids of ``flat`` and their counts (ROUGE-L/W's clipping table)."""
        if "clip" not in self._tables:
            self._tables["clip"] = run_kernel(count_codes, _count_seconds, self.flat)
        return self._tables["clip"]


# --------------------------------------------------------------------------------------------
# Scoring


class PairStats(NamedTuple):
    """One model against one peer: ``model`` count, ``hit``, ``peer`` count, as ``-f A`` adds them up,
    and ``select``, the score ``-f B`` compares (strictly greater wins, first model on ties)."""

    model: float
    hit: float
    peer: float
    select: float


def measure_stats(peer: PreparedText, models: Sequence[PreparedText], measures: Sequence[Measure],
                  select: bool = True) -> list[list[PairStats]]:
    """``stats[k][j]``: measure k of the peer against model j, as ROUGE-1.5.5's compute*Score routines
    keep them (the n-gram and skip-bigram hits of one pair come from a single kernel call).
    ``select=False`` leaves ``PairStats.select`` at 0 (``-f A`` never reads it)."""
    grams = tuple(m for m in measures if m.kind in ("N", "S"))
    out: dict[str, list[PairStats]] = {m.key: [] for m in measures}
    peer_codes, peer_counts, peer_bounds, peer_totals = peer.packed(grams)
    peer_vocab, peer_unigrams = peer.unigram_arrays()
    peer_length = float(len(peer.flat))
    for model in models:
        model_codes, model_counts, model_bounds, model_totals = model.packed(grams)
        hits = run_kernel(multi_clipped_hits, _clipped_seconds, model_codes, model_counts, model_bounds, peer_codes,
                          peer_counts, peer_bounds)
        for k, m in enumerate(grams):
            hit, total = int(hits[k]), int(model_totals[k])
            best = round5(hit / total) if select and total else 0.0
            out[m.key].append(PairStats(total, hit, int(peer_totals[k]), best))
        for m in measures:
            if m.kind not in ("L", "W"):
                continue
            weight = 1.0 if m.kind == "L" else m.weight
            if m.kind == "W" and not peer.perl_wlcs:
                hit, model_base, peer_base = run_kernel(summary_wlcs_lin, _wlcs_lin_seconds, model.units,
                                                        model.offsets, peer.units, peer.offsets, weight)
                best = (hit / model_base) ** (1 / weight) if model_base > 0 else 0.0
                out[m.key].append(PairStats(model_base, hit, peer_base, best))
                continue
            model_vocab, model_unigrams = model.unigram_arrays()
            hit, base = run_kernel(summary_lcs_hits, _summary_lcs_seconds, model.units, model.offsets, peer.units,
                                   peer.offsets, weight, model_vocab, model_unigrams, peer_vocab, peer_unigrams)
            if m.kind == "L":
                out[m.key].append(PairStats(base, hit, peer_length, hit / base if base > 0 else 0.0))
            else:
                # ROUGE-W: the Perl script weights the already weighted base again, the peer length once.
                # It dies when a model has no token (base == 0); we score that model 0.
                best = (hit / base) ** (1 / weight) if base > 0 else 0.0
                out[m.key].append(PairStats(base ** weight, hit, peer_length ** weight, best))
    return [out[m.key] for m in measures]


def pool_references(stats: Sequence[PairStats], multiref: str) -> PairStats:
    """``-f A``: add hits and counts over the models; ``-f B``: the model with the best ``select``."""
    if multiref == "B":
        best, best_score = stats[0], -1.0
        for s in stats:
            if s.select > best_score:
                best, best_score = s, s.select
        return best
    return PairStats(sum(s.model for s in stats), sum(s.hit for s in stats), sum(s.peer for s in stats), 0.0)


def recall_precision_f(stats: PairStats, measure: Measure, alpha: float,
                       round_before_f: bool = True) -> tuple[float, float, float]:
    """(R, P, F) from pooled counts; ROUGE-W inverts the weight, f^-1(x) = x**(1/w) (Lin 2004, eqs. 13-15).

    With ``round_before_f`` (ROUGE-1.5.5) R, P and F are each rounded to 5 decimals, F from the
    rounded R and P; without it, nothing is rounded.
    """
    return prf(stats.hit, stats.model, stats.peer, alpha, 5 if round_before_f else None,
               measure.weight if measure.kind == "W" else 1.0)


def pooled_stats(peer_sentences: Sequence[str], model_sentences: Sequence[Sequence[str]],
                 options: RougeOptions) -> dict[str, PairStats]:
    """Per measure, the counts ``-f A`` pools over the models or ``-f B`` keeps (see ``score_peer``)."""
    check_options(options)
    vocab = Vocabulary()
    peer = PreparedText(peer_sentences, options, vocab)
    models = [PreparedText(m, options, vocab) for m in model_sentences]
    measures = measures_from_options(options)
    per_model = measure_stats(peer, models, measures)
    return {m.key: pool_references(stats, options.multiref) if stats else PairStats(0.0, 0.0, 0.0, 0.0)
            for m, stats in zip(measures, per_model)}


def score_peer_counts(peer_sentences: Sequence[str], model_sentences: Sequence[Sequence[str]],
                      options: RougeOptions) -> dict[str, tuple[float, float, float]]:
    """``{key: (model_count, peer_count, hit)}``: the raw counts ``-t 1``/``-t 2`` add up.

    These are the Perl script's results[0], results[3] and results[1]; for ROUGE-W the weighted model
    and peer counts and the weighted hit. Arguments as in ``score_peer``.
    """
    return {k: (s.model, s.peer, s.hit) for k, s in pooled_stats(peer_sentences, model_sentences, options).items()}


def score_peer(peer_sentences: Sequence[str], model_sentences: Sequence[Sequence[str]],
               options: RougeOptions) -> dict[str, tuple[float, float, float]]:
    """ROUGE scores of one peer summary against its model summaries, as ROUGE-1.5.5.pl computes them.

    Parameters
    ----------
    peer_sentences : list of str
        The peer's text units as the Perl script reads them (SPL lines, SEE sentences), as Perl byte
        strings: one character per byte (bytes decoded as Latin-1; ``rougelab.text.tokenize.perl_bytes``
        turns Unicode text into that form), not lower-cased. This function lower-cases, truncates and
        tokenises. Empty strings are skipped, as the Perl reader skips empty lines.
    model_sentences : list of list of str
        One such list per model (reference) summary. No models: every score is 0, as in Perl.
    options : RougeOptions
        The command-line settings (``-n -x -w -2 -U -u -m -s -l -b -p -f``) and the ``perl_*`` quirks.

    Returns
    -------
    dict
        ``{"ROUGE-1": (R, P, F), ..., "ROUGE-L": ..., "ROUGE-W-1.2": ..., "ROUGE-S4": ..., "ROUGE-SU4": ...}``
        in the Perl script's order, values rounded to 5 decimals as the Perl script keeps them
        (unrounded when ``perl_round_before_f`` is off). Where the Perl script dies (ROUGE-W against a
        model without any token: division by zero), that model contributes 0 hits and is selected last.
    """
    stats = pooled_stats(peer_sentences, model_sentences, options)
    measures = {m.key: m for m in measures_from_options(options)}
    return {key: recall_precision_f(s, measures[key], options.alpha, options.perl_round_before_f)
            for key, s in stats.items()}
