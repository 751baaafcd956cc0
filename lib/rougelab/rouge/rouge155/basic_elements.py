"""ROUGE-BE (``-3 MODE``): Basic Element overlap as ROUGE-1.5.5 scores it (``computeBEScore``).

A Basic Element file (input format SIMPLE) holds one ``HEAD|MODIFIER|RELATION`` triple per line. Each
mode counts one kind of unit: ``H`` heads without a modifier, ``HM`` head|modifier pairs with a
modifier, ``HMR`` triples with a relation, ``HM1`` every head|modifier pair, ``HMR1`` triples with a
modifier, ``HMR2`` every triple. Hits are clipped counts, pooled over the models (``-f A``) or taken from
the best model (``-f B``), and turned into R, P and F exactly like ROUGE-N's (``rougelab.rouge.core``).
"""
from __future__ import annotations

import re
from pathlib import Path

from rougelab.rouge.core import Measure, PairStats, pool_references, recall_precision_f, round5
from rougelab.rouge.options import RougeOptions
from rougelab.rouge.rouge155.formats import FormatError
from rougelab.scoring import GramCounts
from rougelab.text.stemmer import morph_stem
from rougelab.text.tokenize import lowercase, perl_split

BE_MODES = ("H", "HM", "HMR", "HM1", "HMR1", "HMR2")
_ALNUM = re.compile(r"[A-Za-z0-9]")
_BRACKET = re.compile(r"-LRB-|-RRB-|-LSB-|-RSB-|-LCB-|-RCB-")
_NGRAM_LIKE = Measure("N", 1)      # BE scores are turned into R, P, F like ROUGE-N's


def read_be(path) -> list[str]:
    """The lines of a SIMPLE Basic Element file, newline removed (ROUGE-1.5.5's ``readBE``)."""
    try:
        data = Path(path).read_bytes().decode("latin-1")
    except OSError as exc:
        raise FormatError(f"Cannot open {path}: {exc.strerror}") from exc
    lines = data.split("\n")
    if lines and lines[-1] == "":
        lines.pop()                  # the text after the last newline is not a line
    return lines


def _stem_words(text: str) -> str:
    """ROUGE-1.5.5's ``MorphStemMulti``: stem each word that has an alphanumeric and is not a PTB bracket."""
    words = perl_split(text)
    return " ".join(morph_stem(lowercase(w)) if w and _ALNUM.search(w) and not _BRACKET.search(w) else w
                     for w in words)


def _fields(line: str, path) -> list[str]:
    fields = line.split("|")
    while fields and fields[-1] == "":          # Perl's split drops trailing empty fields
        fields.pop()
    if len(fields) != 3:
        raise FormatError(f"{path}: Basic Element (BE) input file is invalid: *{line}* (a BE file has one "
                          "HEAD|MODIFIER|RELATION triple per line)")
    return fields


def be_counts(lines: list[str], mode: str, stem: bool, path="") -> tuple[GramCounts, int]:
    """``({unit: count}, total)`` of one BE file under ``mode`` (ROUGE-1.5.5's ``createBE``)."""
    if mode not in BE_MODES:
        raise ValueError(f"unknown Basic Element mode {mode!r}: use one of {', '.join(BE_MODES)}")
    counts = GramCounts()
    for line in lines:
        head, raw_modifier, relation = _fields(lowercase(line), path)
        modifier = raw_modifier
        if stem:                     # fields longer than 3 bytes, word by word
            head = _stem_words(head) if len(head) > 3 else head
            modifier = _stem_words(modifier) if len(modifier) > 3 else modifier
        if mode == "H" and modifier == "nil":
            counts[head] += 1
        elif (mode == "HM" and modifier != "nil") or mode == "HM1":
            counts[f"{head}|{modifier}"] += 1
        elif ((mode == "HMR" and relation != "nil") or (mode == "HMR1" and raw_modifier != "nil")
              or mode == "HMR2"):
            counts[f"{head}|{modifier}|{relation}"] += 1
    return counts, sum(counts.values())


def be_pair_stats(peer: tuple[GramCounts, int], model: tuple[GramCounts, int]) -> PairStats:
    """Clipped BE hits of one (peer, model) pair, with the counts ``-f A`` adds and the recall ``-f B`` compares."""
    (peer_units, peer_total), (model_units, model_total) = peer, model
    hit = model_units.clipped_overlap(peer_units)
    return PairStats(model_total, hit, peer_total, round5(hit / model_total) if model_total else 0.0)


def score_be(peer_lines: list[str], model_lines: list[list[str]], mode: str, options: RougeOptions,
             counts: bool = False) -> tuple[float, float, float]:
    """ROUGE-BE of one peer against its models: (R, P, F), or with ``counts`` (model, peer, hit) for ``-t``."""
    peer = be_counts(peer_lines, mode, options.stem)
    stats = [be_pair_stats(peer, be_counts(lines, mode, options.stem)) for lines in model_lines]
    pooled = pool_references(stats, options.multiref) if stats else PairStats(0, 0, 0, 0.0)
    if counts:
        return (pooled.model, pooled.peer, pooled.hit)
    return recall_precision_f(pooled, _NGRAM_LIKE, options.alpha, options.perl_round_before_f)
