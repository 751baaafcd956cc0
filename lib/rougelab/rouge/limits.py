"""Size limits that keep ROUGE from exhausting memory on very long texts.

Two measures grow quadratically with the length of one text:

* ROUGE-S/SU with a large or unlimited skip distance (``rouge-s*``): every text's table of skip-bigrams
  holds up to n (n - 1) / 2 pairs (measured: ~50 bytes a pair, so two 4,000-word texts take ~0.8 GB
  more, two 100,000-word texts would need hundreds of GB). A text may have at most
  ``MAX_SKIP_BIGRAMS`` = 20,000,000 skip-bigrams: 6,325 words with an unlimited distance, ~5,000,000
  words with ``rouge-su4``.
* ROUGE-L/W's union LCS compares every summary token with every reference token (2.7 GB for two
  100,000-word texts): a (summary, reference) pair may have at most ``MAX_LCS_CELLS`` = 10**9
  token pairs (e.g. 31,622 words each).

Texts are counted before any table is built, with an upper bound of the tokens any tokenizer makes:
each run of ASCII letters and digits, plus each non-ASCII character. Above a limit ``rouge`` raises
``InputError`` naming the summary or reference; split the text (ROUGE scores sentences or
documents, not books) or use a bounded skip distance.

Measure names have bounds too (``rouge`` and ``rougelab rouge155`` refuse beyond them): ROUGE-N up to
``MAX_N`` (longer n-grams only cost time; the Perl script runs for ever on ``-n 99999999999``), skip
distances up to ``MAX_SKIP_DISTANCE`` (farther than any text is long: the same as unlimited), ROUGE-W
weights up to ``MAX_WLCS_WEIGHT`` (k^w stays finite for runs of up to ~10^6 tokens; above, R and P
are NaN).
"""
from __future__ import annotations

import re
from functools import lru_cache
from itertools import chain
from typing import Sequence

from rougelab.scoring import InputError
from rougelab.rouge.core import Measure
from rougelab.rouge.grams import skip_reach

MAX_SKIP_BIGRAMS = 20_000_000
MAX_N = 1000
MAX_SKIP_DISTANCE = 10**9
MAX_WLCS_WEIGHT = 50.0
MAX_LCS_CELLS = 10**9
_TOKEN = re.compile(r"[A-Za-z0-9]+|[^\x00-\x7f]")


def token_bound(text: str) -> int:
    """At least as many tokens as any of ROUGE's tokenizers makes of ``text``."""
    return sum(1 for _ in _TOKEN.finditer(text))


def skip_bigram_count(n: int, distance: int) -> int:
    """How many skip-bigrams n tokens hold with at most ``distance`` tokens between (negative: no limit)."""
    span = int(skip_reach(n, distance))  # each token pairs with the next ``span`` (``rougelab.rouge.grams``)
    return max(span, 0) * (2 * n - span - 1) // 2


@lru_cache(maxsize=256)
def quadratic(measures: tuple[Measure, ...]) -> tuple[bool, int, bool, int]:
    """Whether ``measures`` hold a ROUGE-S/SU, the widest skip distance (-1: unlimited), whether they hold
    ROUGE-L/W, and the most characters a text may have for any two such texts to fit (``_longest_fitting``): the
    measures whose memory grows with the square of a text's length (worked out once per list)."""
    distances = [m.size for m in measures if m.kind == "S"]
    widest = -1 if any(d < 0 for d in distances) else max(distances, default=0)
    lcs = any(m.kind in ("L", "W") for m in measures)
    return bool(distances), widest, lcs, _longest_fitting(bool(distances), widest, lcs)


def _fits(n: int, m: int, distances: bool, widest: int, lcs: bool) -> bool:
    """Whether texts of ``n`` and ``m`` tokens at most fit the limits (with the number of characters: an upper
    bound of ``token_bound``)."""
    return not ((distances and max(skip_bigram_count(n, widest), skip_bigram_count(m, widest)) > MAX_SKIP_BIGRAMS)
                or (lcs and n * m > MAX_LCS_CELLS))


def _longest_fitting(distances: bool, widest: int, lcs: bool) -> int:
    """The most characters of a text such that any two texts that long fit (``_fits`` grows with each length):
    a batch whose longest text has no more is checked by one comparison."""
    low, high = 0, MAX_LCS_CELLS  # fits, does not (with neither measure any length fits: as good as no limit)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if _fits(middle, middle, distances, widest, lcs) else (low, middle)
    return low


def check_sizes(summaries: Sequence[str], references: Sequence[Sequence[str]], measures: Sequence[Measure]) -> None:
    """Raise ``InputError`` if a text is too long for ``measures`` to be scored in bounded memory."""
    check_quadratic_sizes(summaries, references, quadratic(tuple(measures)))


def check_quadratic_sizes(summaries: Sequence[str], references: Sequence[Sequence[str]],
                          grows: tuple[bool, int, bool, int], texts: list[str] | None = None) -> None:
    """``check_sizes`` for measures of ``quadratic`` ``grows`` (a caller that keeps it: ``rouge()``'s plan);
    ``texts``: the batch's texts listed already (``scoring.ListedBatch``), read once for the longest of all."""
    distances, widest, lcs, longest = grows
    if not distances and not lcs:
        return
    if texts is not None and max(map(len, texts), default=0) <= longest:
        return  # even two of the longest text fit

    def fits(n: int, m: int) -> bool:
        return _fits(n, m, distances, widest, lcs)

    if fits(max(map(len, summaries), default=0), max(map(len, chain.from_iterable(references)), default=0)):
        return  # even the longest summary and the longest reference fit
    counts: dict[str, int] = {}
    for i, (summary, refs) in enumerate(zip(summaries, references)):
        if all(fits(len(summary), len(ref)) for ref in refs):
            continue  # the usual case: no need to count tokens
        n = counts[summary] if summary in counts else counts.setdefault(summary, token_bound(summary))
        for k, ref in enumerate(refs):
            m = counts[ref] if ref in counts else counts.setdefault(ref, token_bound(ref))
            for what, size in ((f"summary {i}", n), (f"reference {k} of summary {i}", m)):
                if distances and skip_bigram_count(size, widest) > MAX_SKIP_BIGRAMS:
                    raise InputError(f"{what} has ~{size:,} words: too long for ROUGE-S with skip distance "
                                     f"{'unlimited' if widest < 0 else widest} (over {MAX_SKIP_BIGRAMS:,} "
                                     "skip-bigrams); split the text or use a bounded distance (e.g. rouge-su4)")
            if lcs and n * m > MAX_LCS_CELLS:
                raise InputError(f"summary {i} (~{n:,} words) and its reference {k} (~{m:,} words) are too long "
                                 f"for ROUGE-L/W (over {MAX_LCS_CELLS:,} token pairs); split the texts")
