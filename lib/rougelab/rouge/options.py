"""Every ROUGE-1.5.5 setting that changes a number, as one frozen record.

Field names follow the Perl script's options (given in brackets). The ``perl_*`` fields keep
ROUGE-1.5.5's known quirks; they default to the Perl behaviour and can be switched off by name.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rougelab.resources import EXCEPTION_LISTS
from rougelab.text.preprocessing import Preprocessing
from rougelab.text.sentences import Splitter


@dataclass(frozen=True)
class RougeOptions:
    max_n: int = 4                      # [-n N] ROUGE-1 .. ROUGE-N
    rouge_l: bool = True                # [-x] turns ROUGE-L off
    wlcs_weight: float | None = None    # [-w W] ROUGE-W with f(k) = k**W; None: no ROUGE-W
    skip_distance: int | None = None    # [-2 D] ROUGE-S with gap <= D; negative: unlimited; None: no ROUGE-S
    skip_unigrams: bool = False         # [-U] ROUGE-SU (adds unigrams to the skip-bigrams)
    skip_unigrams_only_u: bool = False  # [-u] ROUGE-SU only (no separate ROUGE-S score)
    stem: bool = False                  # [-m] Porter stemmer with WordNet-2.0 exceptions
    stem_exceptions: tuple = EXCEPTION_LISTS  # the exception lists in the DB, in merge order; (): empty DB
    stopwords: bool = False             # [-s] remove the SMART stopword list
    word_limit: int | None = None       # [-l N] keep the first N words of each peer/model
    byte_limit: int | None = None       # [-b N] keep the first N bytes
    alpha: float = 0.5                  # [-p A] F = 1 / (A/P + (1-A)/R)
    multiref: str = "A"                 # [-f A|B] pool the references (A) or keep the best (B)
    tokenizer: str = "rouge155"         # rouge155 | rouge-score | unicode | character (rougelab.text.tokenizers)
    stemmer: str | None = "rouge155"    # what -m stems with: rouge155 | porter | snowball:<language>
    counting_unit: int = 0              # [-t 0|1|2] average per summary / per token / raw counts (front end)
    perl_last_unigram_bug: bool = True  # -U/-u never count the last token's unigram
    perl_byte_limit_skips_lcs: bool = True  # -b does not truncate the ROUGE-L/W input
    perl_round_before_f: bool = True    # R and P are rounded to 5 decimals before F
    perl_wlcs: bool = True              # ROUGE-W as the script computes it: hits are runs of adjacent *model*
                                        # tokens on the union LCS path, the recall base is weighted twice
                                        # (off: Lin 2004 eqs. 13-15, see rougelab.rouge.lcs.summary_wlcs_lin)

    @lru_cache(maxsize=64)
    def preprocessing(self, splitter: Splitter = "newline") -> Preprocessing:
        """The text handling of these options (tokenizer, ``-m`` with ``stemmer``, exception lists, ``-s``)
        with sentence units by ``splitter``; built once for each (frozen) options and splitter: checking
        a ``Preprocessing`` costs more than a small batch's other preparations."""
        return Preprocessing(self.tokenizer, self.stemmer if self.stem else None, self.stem_exceptions,
                             self.stopwords, splitter)
