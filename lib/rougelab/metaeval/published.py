"""Published meta-evaluation numbers on the factual-consistency sets, to print beside ours.

``BARTSCORE_FACTUALITY``: Yuan, Neubig & Liu (2021), "BARTScore: Evaluating Generated Text as Text
Generation" (NeurIPS 2021), the factuality results table: Rank19 (Falke et al. 2019) pairwise
accuracy (ties as wrong: the share of pairs whose correct summary scores strictly higher), and the
Pearson correlation with the human ``fact`` score over all summaries (our global level) on QAGS-CNN/DM
and QAGS-XSum (Wang et al. 2020). The authors computed them with their repository's ``SUM/score.py``
on the same pickles as ours (``rougelab.data`` pins that commit), the article as the reference, with
``pyrouge`` (ROUGE-1.5.5) F-measures. Only the ROUGE rows are kept: they are the rows this workbook
recomputes, and they were typed from the paper, three decimals as printed.

The QAGS paper's own Table 1 (Wang et al. 2020) correlates ROUGE against the *reference* summaries,
which BARTScore's copy of the data does not carry, so it is not comparable and not listed.
"""
from __future__ import annotations

import pandas as pd

BARTSCORE_FACTUALITY = pd.DataFrame(
    {"rank19": [0.568, 0.630, 0.587], "qags-cnndm": [0.338, 0.459, 0.357],
     "qags-xsum": [-0.008, 0.097, 0.024]},
    index=pd.Index(["rouge-1", "rouge-2", "rouge-l"], name="metric"))
BARTSCORE_FACTUALITY.attrs["coef"] = {"rank19": "accuracy", "qags-cnndm": "pearson", "qags-xsum": "pearson"}
