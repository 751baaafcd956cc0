"""WordNet PPR vectors of synsets, and their similarity (ShafieiBavani et al. 2018, sections 3.1-3.2).

``wordnet_ppr`` loads, once per process and setting, the graph, its PPR cache and the WordNet
reader; ``synset_similarity`` compares synsets by name (``"suit.n.01"``) with the path-based
Sim_sem (Eq. 2) and, for contrast, with RW on the final PPR vectors only (the "conventional"
comparison that section 3.2 argues against).
"""
from __future__ import annotations

import functools
from typing import Sequence

import pandas as pd

from rougelab.semantic.pagerank import DAMPING, ITERATIONS, TOP, PPRCache, transition_matrix
from rougelab.semantic.semantic_similarity import C, sim_sem_matrix
from rougelab.semantic.wordnet_graph import load_graph, load_wordnet, synset_key


@functools.lru_cache(maxsize=4)
def wordnet_ppr(gloss_links: bool = True, damping: float = DAMPING, iterations: int = ITERATIONS,
                top: int = TOP) -> tuple:
    """(graph, PPR cache, WordNet reader) for one setting, loaded once per process."""
    graph = load_graph(gloss_links=gloss_links)
    cache = PPRCache(transition_matrix(graph.adjacency), graph.signature, damping=damping,
                     iterations=iterations, top=top)
    return graph, cache, load_wordnet()


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
