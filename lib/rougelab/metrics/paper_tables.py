"""The correlations the ROUGE-WE, ROUGE-G and Anchored ROUGE papers print, transcribed as printed.

Their data (TAC 2008/2009/2011, DUC 2007) are licensed by NIST and not here, so notebooks 02, 03 and 05
show these beside our numbers on other datasets, for reference. ``tests/test_paper_tables.py`` checks
the transcriptions against each other where two papers print the same number (ShafieiBavani et al.
reprint Ng & Abrecht's TAC 2011 rows; Wang et al.'s Table 2 at n = 4 is their Table 1).

- ``NG_ABRECHT_2015``: Ng & Abrecht (2015), Better Summarization Evaluation with Word Embeddings for
  ROUGE, EMNLP; Tables 1-3 (TAC 2011 AESOP, system level; Pyramid, Responsiveness, Readability):
  Pearson, Spearman, Kendall per metric, four decimals.
- ``SHAFIEIBAVANI_2018_TABLE1``: ShafieiBavani, Ebrahimi, Wong & Chen (2018), A Graph-theoretic Summary
  Evaluation for ROUGE, EMNLP; Table 1 (TAC 2011 AESOP, system level).
- ``WANG_2020_TABLE1`` / ``WANG_2020_TABLE2``: Wang, Liu, Chang & Sui (2020), An Anchor-Based Automatic
  Evaluation Metric for Document Summarization, COLING; Table 1 (TAC 2008/2009, average summary-level
  correlation with Pyramid, k = 5, n = 4 references) and Table 2 (AncR with n of the 4 references).
"""
from __future__ import annotations

import pandas as pd

_COEFS = ["pearson", "spearman", "kendall"]

NG_ABRECHT_2015 = pd.DataFrame.from_dict({
    ("Pyramid (Table 1)", "rouge-we-1"): (.9492, .9138, .7534), ("Pyramid (Table 1)", "rouge-we-2"): (.9765, .8984, .7439),
    ("Pyramid (Table 1)", "rouge-we-su4"): (.9783, .8808, .7198), ("Pyramid (Table 1)", "rouge-1"): (.9661, .9085, .7466),
    ("Pyramid (Table 1)", "rouge-2"): (.9606, .8943, .7450), ("Pyramid (Table 1)", "rouge-su4"): (.9806, .8935, .7371),
    ("Responsiveness (Table 2)", "rouge-we-1"): (.9155, .8192, .6308),
    ("Responsiveness (Table 2)", "rouge-we-2"): (.9534, .7974, .6149),
    ("Responsiveness (Table 2)", "rouge-we-su4"): (.9538, .7872, .5969),
    ("Responsiveness (Table 2)", "rouge-1"): (.9349, .8182, .6334),
    ("Responsiveness (Table 2)", "rouge-2"): (.9416, .7897, .6096),
    ("Responsiveness (Table 2)", "rouge-su4"): (.9545, .7902, .6017),
    ("Readability (Table 3)", "rouge-we-1"): (.7846, .4312, .3216), ("Readability (Table 3)", "rouge-we-2"): (.7819, .4141, .3042),
    ("Readability (Table 3)", "rouge-we-su4"): (.7931, .4068, .3020), ("Readability (Table 3)", "rouge-1"): (.7900, .3914, .2846),
    ("Readability (Table 3)", "rouge-2"): (.7524, .3975, .2925), ("Readability (Table 3)", "rouge-su4"): (.7840, .3953, .2925),
}, orient="index", columns=_COEFS)
NG_ABRECHT_2015.index = pd.MultiIndex.from_tuples(NG_ABRECHT_2015.index, names=["table", "metric"])

SHAFIEIBAVANI_2018_TABLE1 = pd.DataFrame(
    [[0.966, 0.909, 0.747, 0.935, 0.818, 0.633, 0.790, 0.391, 0.285],
     [0.961, 0.894, 0.745, 0.942, 0.790, 0.610, 0.752, 0.398, 0.293],
     [0.981, 0.894, 0.737, 0.955, 0.790, 0.602, 0.784, 0.395, 0.293],
     [0.949, 0.914, 0.753, 0.916, 0.819, 0.631, 0.785, 0.431, 0.322],
     [0.977, 0.898, 0.744, 0.953, 0.797, 0.615, 0.782, 0.414, 0.304],
     [0.978, 0.881, 0.720, 0.954, 0.787, 0.597, 0.793, 0.407, 0.302],
     [0.971, 0.915, 0.758, 0.944, 0.825, 0.638, 0.791, 0.434, 0.330],
     [0.983, 0.926, 0.774, 0.956, 0.869, 0.713, 0.790, 0.516, 0.385],
     [0.979, 0.898, 0.741, 0.957, 0.814, 0.616, 0.823, 0.445, 0.334]],
    index=[f"{m}-{n}" for m in ("ROUGE", "ROUGE-WE", "ROUGE-G") for n in ("1", "2", "SU4")],
    columns=pd.MultiIndex.from_product([["Pyramid", "Responsiveness", "Readability"], _COEFS]))

WANG_2020_TABLE1 = pd.DataFrame(
    {"R-1": [.747, .632, .501, .808, .692, .533], "R-2": [.718, .635, .498, .803, .694, .531],
     "R-1-WE": [.579, .458, .329, .653, .516, .384], "R-2-WE": [.556, .388, .301, .671, .481, .362],
     "BERTScore": [.750, .649, .492, .823, .703, .545], "S3 full": [.753, .652, .497, .838, .724, .551],
     "S3 best": [.754, .652, .495, .842, .731, .557], "Mover": [.760, .672, .507, .831, .701, .550],
     "AncR-1": [.772, .690, .529, .837, .730, .571], "AncR-2": [.756, .653, .511, .842, .738, .564]},
    index=pd.MultiIndex.from_product([["TAC 2008", "TAC 2009"], _COEFS]))

WANG_2020_TABLE2 = pd.DataFrame(
    {"TAC 2008 r": [.772, .770, .769, .764, .756, .760, .754, .751],
     "TAC 2008 ρ": [.690, .685, .686, .679, .653, .658, .654, .652],
     "TAC 2009 r": [.837, .836, .832, .831, .842, .840, .835, .833],
     "TAC 2009 ρ": [.730, .726, .724, .721, .738, .736, .732, .729]},
    index=pd.MultiIndex.from_product([["AncR-1", "AncR-2"], [4, 3, 2, 1]], names=["metric", "n"]))
