"""ROUGE-1.5.5's printed report (``printResults``, ``printPerEvalData``), line for line."""
from __future__ import annotations

import functools
import re

from rougelab.rouge.rouge155.bootstrap import Average

RULE = "-" * 45
DOTS = "." * 45
_LEADING_DIGITS = re.compile(r"[0-9]+", re.ASCII)


def fixed(value: float) -> str:
    """Perl's ``sprintf("%7.5f", value)``."""
    return f"{value:7.5f}"


def perl_number(value: float) -> str:
    """How Perl prints a plain number (``%.15g``), e.g. a raw count under ``-t 1/2``."""
    return f"{value:.15g}"


def average_block(peer_id: str, tag: str, average: Average, confidence: str) -> list[str]:
    """The three Average_R/P/F lines of one measure, with their confidence intervals."""
    return [f"{peer_id} {tag} Average_{name}: {fixed(average.mean[k])} "
            f"({confidence}%-conf.int. {fixed(average.low[k])} - {fixed(average.high[k])})"
            for k, name in enumerate("RPF")]


def count_block(peer_id: str, tag: str, totals: tuple[float, float, float]) -> list[str]:
    """The ``-t 2`` line: model, peer and hit counts summed over the evaluations."""
    model, peer, hit = (int(x) for x in totals)
    return [f"{peer_id} {tag} M_count: {model} P_count: {peer} H_count: {hit}"]


def _by_eval_id(a: str, b: str) -> int:
    """ROUGE-1.5.5's ``by_evalID``: numeric on leading digits when both have them, else string order."""
    ma, mb = _LEADING_DIGITS.match(a), _LEADING_DIGITS.match(b)
    if ma and mb:
        x, y = int(ma.group()), int(mb.group())
    else:
        x, y = a, b
    return (x > y) - (x < y)


def per_eval_lines(peer_id: str, tag: str, scores: dict[str, tuple[str, str, str]]) -> list[str]:
    """The ``-d`` lines: one per test ID (``evalID.peerID``) with its printed R, P and F."""
    order = sorted(sorted(scores), key=functools.cmp_to_key(_by_eval_id))
    return [f"{peer_id} {tag} Eval {test_id} R:{scores[test_id][0]} P:{scores[test_id][1]} "
            f"F:{scores[test_id][2]}" for test_id in order]
