"""WordNet PPR vectors of synsets (ShafieiBavani et al. 2018, sections 3.1-3.2, Eq. 1).

``wordnet_ppr`` loads, once per process and setting, the graph, its PPR cache and the WordNet reader.
The PPR cache is keyed by this module's code and what it imports (the graph, the PageRank), not by
the similarity and scoring code built on it (``rougelab.fingerprint.code_fingerprint``).
"""
from __future__ import annotations

import functools

from rougelab.fingerprint import code_fingerprint
from rougelab.semantic.pagerank import DAMPING, ITERATIONS, TOP, FullPPR, PPRCache, transition_matrix
from rougelab.semantic.wordnet_graph import load_graph, load_wordnet


@functools.lru_cache(maxsize=4)
def wordnet_ppr(gloss_links: bool = True, damping: float = DAMPING, iterations: int = ITERATIONS,
                top: int | None = TOP) -> tuple:
    """(graph, PPR cache, WordNet reader) for one setting, loaded once per process; ``top=None``: full
    vectors, computed in memory (``FullPPR``) instead of the disk cache."""
    graph = load_graph(gloss_links=gloss_links)
    if top is None:
        return graph, FullPPR(transition_matrix(graph.adjacency), damping=damping, iterations=iterations), load_wordnet()
    cache = PPRCache(transition_matrix(graph.adjacency), f"{graph.signature}|code:{code_fingerprint(__name__)}",
                     damping=damping, iterations=iterations, top=top)
    return graph, cache, load_wordnet()
