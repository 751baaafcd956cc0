"""Published meta-evaluation numbers on the factual-consistency sets, to print beside ours.

``BARTSCORE_FACTUALITY``: the ROUGE rows of the factuality results of Yuan, Neubig & Liu (2021),
"BARTScore: Evaluating Generated Text as Text Generation" (NeurIPS 2021), as printed by their
repository's own ``analysis.ipynb`` (github.com/neulab/BARTScore, commit 40c658f; the outputs of
``get_fact_acc`` on ``SUM/Rank19`` and ``get_fact_pearson`` on ``SUM/QAGS_CNN``, rounded here to three
decimals): Rank19 (Falke et al. 2019) pairwise accuracy (ties as wrong: the share of pairs whose correct
summary scores strictly higher) and the Pearson correlation with the human ``fact`` score over all
summaries (our global level) on QAGS-CNN/DM (Wang et al. 2020). They were computed on the same pickles
as ours (``rougelab.data`` pins them), the article as the reference, with ``pyrouge`` (ROUGE-1.5.5)
F-measures; their ROUGE-L is our ``rouge-l-nltk`` (sentences split by NLTK's Punkt before the Perl
script; on QAGS-CNN/DM, one sentence per line, ``rouge-l``, gives a Pearson correlation 0.08 higher).
QAGS-XSum is left out: that notebook does not print it, and we hold no source we could check the paper's
QAGS-XSum row against.

The QAGS paper's own Table 1 (Wang et al. 2020) correlates ROUGE against the *reference* summaries,
which BARTScore's copy of the data does not carry, so it is not comparable and not listed.
"""
from __future__ import annotations

import pandas as pd

BARTSCORE_FACTUALITY = pd.DataFrame(
    {"rank19": [0.568, 0.630, 0.587], "qags-cnndm": [0.338, 0.459, 0.357]},
    index=pd.Index(["rouge-1", "rouge-2", "rouge-l-nltk"], name="metric"))
BARTSCORE_FACTUALITY.attrs["coef"] = {"rank19": "accuracy", "qags-cnndm": "pearson"}
