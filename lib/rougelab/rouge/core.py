"""One peer against its models, exactly as ROUGE-1.5.5.pl scores it before averaging.

The Perl script reads each summary as a list of sentences, lower-cases them, truncates them (``-l``/``-b``),
tokenises them and then, per model, counts hits; ``-f A`` pools hits and counts over the models,
``-f B`` keeps the model with the best recall. R and P are rounded to 5 decimals (``%7.5f``) before
F = P R / ((1 - alpha) P + alpha R) (Lin 2004, eq. 4 with alpha = 1 / (1 + beta^2)), and F is rounded too.

``score_peer`` is the contract the command-line front end (``rougelab.rouge.rouge155``) calls;
``rougelab.rouge.api.rouge`` uses the same pieces for batches with length limits, and otherwise the
batch pieces at the end (``EncodedBatch``, ``batch_pair_stats``, ``pooled_rpf``: one tokenisation pass,
one table per distinct text, one compiled pass over every pair), which give the same digits.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Sequence

import numpy as np

from rougelab.rouge._jit import jit, jit_parallel, prange
from rougelab.rouge.grams import (KIND_NGRAM, KIND_SKIP, batch_skip_codes, clipped_hits, count_codes, gram_codes,
                                  gram_tables, multi_clipped_hits, ngram_numbers, pack_bits, segment_tables)
from rougelab.rouge.lcs import summary_lcs_hits, summary_wlcs_lin
from rougelab.rouge.options import RougeOptions
from rougelab.text.sentences import Splitter, split_sentences
from rougelab.text.tokenize import TokenEncoder, lowercase, normalize, perl_split, select_tokens


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
    if options.word_limit and options.byte_limit:
        raise ValueError("give a length limit in words (-l) or in bytes (-b), not both")
    for name in ("word_limit", "byte_limit"):
        value = getattr(options, name)
        if value is not None and value < 0:
            raise ValueError(f"{name} must be >= 0 (0 or None: no limit), got {value}")
    if not 0 <= options.alpha <= 1:
        raise ValueError(f"alpha must lie in [0, 1], got {options.alpha}")
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


class Vocabulary:
    """Token -> integer id, shared by every text scored together.

    The first gram table built seals it: n-gram codes pack ids into ``63 // n`` bits when the sealed
    vocabulary fits (``pack_bits``), else they are numbered here (``grams``), so all texts of a batch
    must be read before any table is built.
    """

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.grams: dict[tuple, int] = {}
        self.sealed = False

    def encode(self, tokens: list[str]) -> list[int]:
        ids = self.ids
        if self.sealed:
            unknown = [t for t in tokens if t not in ids]
            if unknown:
                raise RuntimeError(f"vocabulary sealed: read every text before building gram tables ({unknown[:3]})")
        return [ids.setdefault(t, len(ids)) for t in tokens]

    def bits(self, measure: Measure) -> int:
        """Bits per id for packing ``measure``'s grams; 0 when n-grams must be numbered instead."""
        self.sealed = True
        if measure.kind == "S":
            return 32
        bits = pack_bits(measure.size)
        return bits if len(self.ids) <= (1 << bits) else 0

    def number_ngrams(self, tokens: list[int], n: int) -> np.ndarray:
        """Codes of the n-grams of ``tokens`` from the shared numbering (when packing would overflow)."""
        table = self.grams
        grams = zip(*(tokens[i:] for i in range(n)))
        return np.array([table.setdefault(g, len(table)) for g in grams], dtype=np.int64)


class PreparedText:
    """One summary read the way the Perl script reads it, with its gram tables built on demand.

    ``flat``: token ids of the ``readText`` string (n-grams, skip-bigrams, clipping counts);
    ``units`` / ``offsets``: token ids of the ``readText_LCS`` sentences (ROUGE-L/W).
    ``sentences`` are Perl byte strings (one character per byte, see ``rougelab.text.tokenize.perl_bytes``).
    """

    def __init__(self, sentences: Sequence[str], options: RougeOptions, vocab: Vocabulary):
        raw = [lowercase(s) for s in sentences if s]
        select = dict(stem=options.stem, stopwords=options.stopwords)
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
                self._tables[key] = gram_tables(self.flat, *spec[:3], self.last_unigram_bug, spec[3])
            else:
                self._tables[key] = self._packed_slowly(measures, bits)
        return self._tables[key]

    def _packed_slowly(self, measures, bits):
        codes, counts, totals = [], [], []
        for m, b in zip(measures, bits):
            if b:
                c = gram_codes(self.flat, KIND_NGRAM if m.kind == "N" else KIND_SKIP, m.size, m.unigrams,
                               self.last_unigram_bug, b)
            else:
                c = self.vocab.number_ngrams(self.flat.tolist(), m.size)
            distinct, how_many = count_codes(c)
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
            self._tables["clip"] = count_codes(self.flat)
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


def round5(x: float) -> float:
    """Perl's ``sprintf("%7.5f", x)`` read back as a number."""
    return float(f"{x:7.5f}")


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
        hits = multi_clipped_hits(model_codes, model_counts, model_bounds, peer_codes, peer_counts, peer_bounds)
        for k, m in enumerate(grams):
            hit, total = int(hits[k]), int(model_totals[k])
            best = round5(hit / total) if select and total else 0.0
            out[m.key].append(PairStats(total, hit, int(peer_totals[k]), best))
        for m in measures:
            if m.kind not in ("L", "W"):
                continue
            weight = 1.0 if m.kind == "L" else m.weight
            if m.kind == "W" and not peer.perl_wlcs:
                hit, model_base, peer_base = summary_wlcs_lin(model.units, model.offsets, peer.units,
                                                              peer.offsets, weight)
                best = (hit / model_base) ** (1 / weight) if model_base > 0 else 0.0
                out[m.key].append(PairStats(model_base, hit, peer_base, best))
                continue
            model_vocab, model_unigrams = model.unigram_arrays()
            hit, base = summary_lcs_hits(model.units, model.offsets, peer.units, peer.offsets, weight,
                                         model_vocab, model_unigrams, peer_vocab, peer_unigrams)
            if m.kind == "L":
                out[m.key].append(PairStats(base, hit, peer_length, hit / base if base > 0 else 0.0))
            else:
                # ROUGE-W: the Perl script weights the already weighted base again, the peer length once.
                # It dies when a model has no token (base == 0); we score that model 0.
                best = (hit / base) ** (1 / weight) if base > 0 else 0.0
                out[m.key].append(PairStats(base ** weight, hit, peer_length ** weight, best))
    return [out[m.key] for m in measures]


def combine(stats: Sequence[PairStats], multiref: str) -> PairStats:
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
    r = stats.hit / stats.model if stats.model != 0 else 0.0
    p = stats.hit / stats.peer if stats.peer != 0 else 0.0
    if measure.kind == "W":
        r = r ** (1 / measure.weight)
        p = p ** (1 / measure.weight)
    if round_before_f:
        r, p = round5(r), round5(p)
    denominator = (1 - alpha) * p + alpha * r
    f = (p * r) / denominator if denominator > 0 else 0.0
    return (r, p, round5(f)) if round_before_f else (r, p, f)


def pooled_stats(peer_sentences: Sequence[str], model_sentences: Sequence[Sequence[str]],
                 options: RougeOptions) -> dict[str, PairStats]:
    """Per measure, the counts ``-f A`` pools over the models or ``-f B`` keeps (see ``score_peer``)."""
    check_options(options)
    vocab = Vocabulary()
    peer = PreparedText(peer_sentences, options, vocab)
    models = [PreparedText(m, options, vocab) for m in model_sentences]
    measures = measures_from_options(options)
    per_model = measure_stats(peer, models, measures)
    return {m.key: combine(stats, options.multiref) if stats else PairStats(0.0, 0.0, 0.0, 0.0)
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


# --------------------------------------------------------------------------------------------
# Batches: every distinct text read once, every pair scored in one compiled pass


@jit
def round5_exact(x):
    """``round5`` without strings: ``x`` (finite, >= 0) rounded to 5 decimals, ties to even, as ``%7.5f``.

    The product x * 1e5 is split into its rounded value and exact error (Dekker's two-product), so
    halfway cases (e.g. 1/64 = 0.015625 -> 0.01562) are decided on the exact value.
    """
    if x == 0.0:
        return 0.0
    scale = 100000.0
    split = 134217729.0  # 2**27 + 1 (Veltkamp)
    p = x * scale
    c = split * x
    xh = c - (c - x)
    xl = x - xh
    c = split * scale
    sh = c - (c - scale)
    sl = scale - sh
    err = ((xh * sh - p) + xh * sl + xl * sh) + xl * sl
    n = np.floor(p + 0.5)
    t = p - n  # exact: p and n are within 1/2 of each other
    if t > 0.5 or (t == 0.5 and err > 0.0):
        n += 1.0
    elif t < -0.5 or (t == -0.5 and err < 0.0):
        n -= 1.0
    elif (t == 0.5 or t == -0.5) and err == 0.0:  # exact tie: to the even neighbour
        low = n if t == 0.5 else n - 1.0
        n = low if low % 2.0 == 0.0 else low + 1.0
    return n / scale


class EncodedBatch:
    """Distinct texts of a batch, each split, lower-cased and tokenised once into shared integer ids.

    Only for texts scored without length limits (``-l``/``-b``), where ROUGE-1.5.5's n-gram text is
    exactly its ROUGE-L sentences joined. ``ids[start[t]:end[t]]`` are text t's tokens; its sentence
    bounds (relative) are ``unit_offsets[unit_start[t]:unit_start[t + 1]]``.
    """

    def __init__(self, texts: Sequence[str], splitter: Splitter, options: RougeOptions):
        encoder = TokenEncoder({}, stem=options.stem, stopwords=options.stopwords)
        units = [split_sentences(text, splitter) for text in texts]
        per_text = np.array([len(u) for u in units], dtype=np.int64)
        self.ids, lengths = encoder.encode_many([u for text in units for u in text])
        # Text t owns sentences unit_start[t] - t .. unit_start[t + 1] - t - 1; each text's offsets start at 0.
        self.unit_start = np.concatenate([[0], np.cumsum(per_text + 1)]).astype(np.int64)
        first = self.unit_start[:-1] - np.arange(len(texts))
        sentence_text = np.repeat(np.arange(len(texts)), per_text)
        cumulative = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        bounds = cumulative[np.concatenate([first, [len(lengths)]]).astype(np.int64)]
        self.start, self.end = bounds[:-1], bounds[1:]
        offsets = np.zeros(len(lengths) + len(texts), dtype=np.int64)
        position = np.arange(len(lengths)) + sentence_text + 1  # sentence i's end slot
        offsets[position] = cumulative[1:] - self.start[sentence_text]
        self.unit_offsets = offsets
        self.options = options

    def tables(self, measures: Sequence[Measure]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Count tables of the "N"/"S" ``measures`` (plus, last, the unigram clipping table of ROUGE-L/W)
        for every text: (codes, counts, segments, totals). Text t's table of measure k is
        ``codes[segments[k, t]:segments[k, t + 1]]``; ``totals[k, t]`` is its number of grams."""
        n_texts = len(self.start)
        vocabulary = int(self.ids.max()) + 1 if len(self.ids) else 0
        codes, counts, segments, totals = [], [], [], []
        done = 0
        for m in [*measures, Measure("N", 1)]:
            if m.kind == "N":
                bits = pack_bits(m.size)
                if vocabulary <= 1 << bits:  # pack the ids (exact), else number the n-grams
                    grams = self.ids[:max(len(self.ids) - m.size + 1, 0)].copy()
                    for k in range(1, m.size):
                        grams = (grams << bits) | self.ids[k:len(self.ids) - m.size + 1 + k]
                else:
                    grams = ngram_numbers(self.ids, m.size)
                lo, hi = self.start, np.maximum(self.end - m.size + 1, self.start)
            else:
                grams, owner = batch_skip_codes(self.ids, self.start, self.end, m.size, m.unigrams,
                                                self.options.perl_last_unigram_bug)
                hi = np.cumsum(np.bincount(owner, minlength=n_texts))
                lo = hi - np.bincount(owner, minlength=n_texts)
            distinct, how_many, bounds = segment_tables(grams, lo, hi)
            codes.append(distinct)
            counts.append(how_many)
            segments.append(done + bounds)
            totals.append(hi - lo)
            done += len(distinct)
        return (np.concatenate(codes), np.concatenate(counts), np.array(segments, dtype=np.int64),
                np.array(totals, dtype=np.int64))


@jit_parallel
def batch_pair_stats(peers, models, codes, counts, segments, totals, lcs_weights, lcs_is_w,
                     ids, start, end, unit_offsets, unit_start):
    """Per (peer, model) pair and measure, ``measure_stats``' (model, hit, peer, select) as an array
    (pairs x measures x 4): gram measures first (``segments`` rows but the last), then ROUGE-L/W
    (``lcs_weights``; the last ``segments`` row is the unigram clipping table)."""
    n_grams = segments.shape[0] - 1
    clip = n_grams
    out = np.zeros((len(peers), n_grams + len(lcs_weights), 4))
    for q in prange(len(peers)):
        s = peers[q]
        m = models[q]
        for k in range(n_grams):
            a0 = segments[k, m]
            a1 = segments[k, m + 1]
            b0 = segments[k, s]
            b1 = segments[k, s + 1]
            hit = clipped_hits(codes[a0:a1], counts[a0:a1], codes[b0:b1], counts[b0:b1])
            total = totals[k, m]
            out[q, k, 0] = total
            out[q, k, 1] = hit
            out[q, k, 2] = totals[k, s]
            out[q, k, 3] = round5_exact(hit / total) if total else 0.0
        peer_length = float(end[s] - start[s])
        for j in range(len(lcs_weights)):
            w = lcs_weights[j]
            hit, base = summary_lcs_hits(ids[start[m]:end[m]], unit_offsets[unit_start[m]:unit_start[m + 1]],
                                         ids[start[s]:end[s]], unit_offsets[unit_start[s]:unit_start[s + 1]], w,
                                         codes[segments[clip, m]:segments[clip, m + 1]],
                                         counts[segments[clip, m]:segments[clip, m + 1]],
                                         codes[segments[clip, s]:segments[clip, s + 1]],
                                         counts[segments[clip, s]:segments[clip, s + 1]])
            k = n_grams + j
            if lcs_is_w[j]:
                out[q, k, 0] = base ** w
                out[q, k, 1] = hit
                out[q, k, 2] = peer_length ** w
                out[q, k, 3] = (hit / base) ** (1 / w) if base > 0 else 0.0
            else:
                out[q, k, 0] = base
                out[q, k, 1] = hit
                out[q, k, 2] = peer_length
                out[q, k, 3] = hit / base if base > 0 else 0.0
    return out


@jit
def pooled_rpf(stats, bounds, is_w, weights, alpha, best_model, round_before_f):
    """``recall_precision_f(combine(...))`` for every summary: summary i owns pairs ``bounds[i]:bounds[i+1]``
    of ``stats`` (``batch_pair_stats``); ``best_model`` is ``-f B``, else ``-f A``.
    Returns (summaries x measures x 3)."""
    n_measures = stats.shape[1]
    out = np.zeros((len(bounds) - 1, n_measures, 3))
    for i in range(len(bounds) - 1):
        for k in range(n_measures):
            model = 0.0
            hit = 0.0
            peer = 0.0
            if best_model:
                best = -1
                best_score = -1.0
                for q in range(bounds[i], bounds[i + 1]):
                    if stats[q, k, 3] > best_score:
                        best = q
                        best_score = stats[q, k, 3]
                if best >= 0:
                    model = stats[best, k, 0]
                    hit = stats[best, k, 1]
                    peer = stats[best, k, 2]
            else:
                for q in range(bounds[i], bounds[i + 1]):
                    model += stats[q, k, 0]
                    hit += stats[q, k, 1]
                    peer += stats[q, k, 2]
            r = hit / model if model != 0 else 0.0
            p = hit / peer if peer != 0 else 0.0
            if is_w[k]:
                r = r ** (1 / weights[k])
                p = p ** (1 / weights[k])
            if round_before_f:
                r = round5_exact(r)
                p = round5_exact(p)
            denominator = (1 - alpha) * p + alpha * r
            f = (p * r) / denominator if denominator > 0 else 0.0
            out[i, k, 0] = r
            out[i, k, 1] = p
            out[i, k, 2] = round5_exact(f) if round_before_f else f
    return out
