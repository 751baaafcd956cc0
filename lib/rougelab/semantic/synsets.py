"""Similarity of WordNet synsets by name (ShafieiBavani et al. 2018, section 3.2, Eqs. 2-3).

``synset_similarity`` compares synsets (``"suit.n.01"``) with the path-based Sim_sem (Eq. 2) and, for
contrast, with RW on the final PPR vectors only (the "conventional" comparison section 3.2 argues against).
"""
from __future__ import annotations

from typing import Sequence

import pandas as pd

from rougelab.semantic.pagerank import TOP
from rougelab.semantic.semantic_similarity import C, sim_sem_matrix
from rougelab.semantic.wordnet_graph import synset_key
from rougelab.semantic.wordnet_ppr import wordnet_ppr


def synset_similarity(pairs: Sequence[tuple[str, str]], *, c: float = C, gloss_links: bool = True,
                      top: int = TOP) -> pd.DataFrame:
    """Sim_sem (Eq. 2) and final-iteration RW (Eq. 3 on p(k) alone) of synset pairs, by NLTK name."""
    graph, cache, wordnet = wordnet_ppr(gloss_links, top=top)
    names = sorted({name for pair in pairs for name in pair})
    rows = {name: i for i, name in enumerate(names)}
    ids = cache.vectors([graph.index_of(synset_key(wordnet.synset(name))) for name in names]).ids
    path = sim_sem_matrix(ids, ids, c=c)
    final = sim_sem_matrix(ids[:, -1:], ids[:, -1:])
    return pd.DataFrame([{"a": a, "b": b, "sim_sem": path[rows[a], rows[b]], "rw_final": final[rows[a], rows[b]]}
                         for a, b in pairs])
