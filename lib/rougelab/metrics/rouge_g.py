"""ROUGE-G (ShafieiBavani et al. 2018): ROUGE-1/2/SU4 with WordNet PPR semantics (Eqs. 4-5).

``Sim_LS(m, p) = beta x Count_match(m, p) + (1 - beta) x Sim_sem(m, p)`` (Eq. 5, beta = 0.5), where
``Count_match`` is ROUGE's exact match of the stemmed grams (ROUGE-1.5.5 ``-m``, stopwords kept, as
the paper's "default NIST settings") and ``Sim_sem`` is the path-based similarity of the grams' PPR
vectors over WordNet (Eq. 2, c = 0.7): ``rougelab.semantic.graph_similarity`` computes it.

The score is a recall. Eq. 4 divides the summed Sim_LS by ``sum_M sum_{n-gram in M} Count(n-gram)``, the
number of the *model* summaries' n-grams, as ROUGE-N's recall does (Lin 2004, Eq. 1); the paper defines
no precision or F. So the bare names ``rouge-g-1``, ``rouge-g-2``, ``rouge-g-su4`` have recall
(``rougeg*_r``) as their primary column; ``rouge-g-1-f`` ... name F (P = the same hits over the peer's
n-grams; F their weighted harmonic mean, ``alpha``), which is not the paper's.

Pairing (Eq. 4 sums Sim_LS over model and peer n-grams but leaves open which pairs): reference and
candidate gram occurrences are aligned one to one, highest Sim_LS first, each aligned pair adding
its Sim_LS (``soft_rouge.greedy_match``). An identical gram pair has Sim_LS = 1, so it is aligned
first; no gram is credited more often than it occurs, so R, P and F stay in [0, 1]; and at beta = 1
the hit is ROUGE's clipped count. Alternatives: summing Sim_LS over *all* pairs (Eq. 4 read
literally: unbounded, a summary repeating a related word gains without limit); each reference gram
taking its best candidate gram (many-to-one: bounded recall, but P can exceed 1); Ng and Abrecht's
released ROUGE-WE script (0.5 x clipped exact count + 0.5 x the sum of similarities over candidate
grams: unbounded). ``matcher`` accepts any of the core's matchers. In ROUGE-G-SU4 a unigram pairs only
with unigrams and a skip-bigram only with skip-bigrams (``cross_type_pairs=False``), as ROUGE-SU4
matches them; ``cross_type_pairs=True`` lets a unigram take a skip-bigram's place through Sim_sem.

PPR vectors are cut to their ``top`` = 100 largest entries at every iteration, where the paper's have
one dimension per connected node (section 3.1); ``top=None`` keeps them all (exact, also for the mean
that makes an n-gram's vector) for batches of at most 100 senses. Its cost, measured on section 1's
example (88 senses, plain WordNet graph, a busy 2-core machine): 290 s and 4.7 GB at peak, against 11 s
and 0.5 GB truncated; one Sim_sem of two full vectors takes about 350 times as long (56 ms against
0.16 ms, over 20 x 20 senses). A SummEval document has about 1,100 senses and SummEval 17,935, about
22 GB and 350 GB of full vectors: out of reach here.
Columns: ``rougeg1_r/_p/_f``, ``rougeg2_*``, ``rougegsu4_*`` (references pooled like ROUGE-1.5.5 ``-f A``).
"""
from __future__ import annotations

from itertools import chain
from typing import Sequence

import pandas as pd
from threadpoolctl import threadpool_limits

from rougelab._jit import map_threads
from rougelab.metrics.base import InputError, Metric
from rougelab.metrics.soft_rouge import GramSpec, greedy_match, soft_rouge
from rougelab.semantic.graph_similarity import BETA, GraphSimilarity, check_beta
from rougelab.semantic.pagerank import DAMPING, ITERATIONS, TOP
from rougelab.semantic.semantic_similarity import C
from rougelab.semantic.wordnet_graph import wordnet_signature
from rougelab.text.preprocessing import Preprocessing
from rougelab.text.token_ids import TokenIndex
from rougelab.text.tokenizers import UNICODE_ROUGE, warn_dropped_letters
from rougelab.semantic import pagerank, wordnet_graph
from rougelab.rouge.api import PACKAGES as ROUGE_PACKAGES

PACKAGES = tuple(sorted({*ROUGE_PACKAGES, *wordnet_graph.PACKAGES, *pagerank.PACKAGES}))

# The words WordNet looks up: ROUGE-1.5.5's tokens of each whole text, unstemmed; Count_match compares
# them stemmed as ``-m`` stems them (``STEMMED``, the signature's).
UNSTEMMED = Preprocessing(stemmer=None, splitter="none")
STEMMED = Preprocessing(splitter="none")
# Each ROUGE-G measure (the names of ``measures=``) -> the grams it counts.
MEASURES = {
    "rouge-g-1": GramSpec(n=1),
    "rouge-g-2": GramSpec(n=2),
    "rouge-g-su4": GramSpec(skip=4, unigrams=True),
}


def rouge_g(summaries: Sequence[str], references: Sequence[Sequence[str]], *,
            measures: Sequence[str] = ("rouge-g-1", "rouge-g-2", "rouge-g-su4"), beta: float = BETA,
            c: float = C, top: int | None = TOP, gloss_links: bool = True, damping: float = DAMPING,
            iterations: int = ITERATIONS, alpha: float = 0.5, matcher=greedy_match,
            cross_type_pairs: bool = False) -> pd.DataFrame:
    """ROUGE-G of a batch: one row per summary, ``rougeg{1,2,su4}_{r,p,f}`` columns (Eq. 4).

    Parameters
    ----------
    summaries, references
        Summary texts and, per summary, a list of reference texts (pooled, ``-f A``).
    measures
        Any of ``rouge-g-1``, ``rouge-g-2``, ``rouge-g-su4``.
    beta
        Weight of the exact match in Sim_LS (Eq. 5); 1 gives ROUGE-1.5.5 with ``-m``.
    c
        Iteration decay of Sim_sem (Eq. 2).
    top
        Entries kept per PPR iteration vector; None keeps all (section 3.1; small inputs only).
    gloss_links
        Use the gloss-enriched WordNet graph (``rougelab.semantic.wordnet_graph``).
    damping, iterations
        d and k of the personalised PageRank (Eq. 1).
    alpha
        F = P R / ((1 - alpha) P + alpha R).
    matcher
        How Sim_LS values become hits (see the module docstring); ``greedy_match`` by default.
    cross_type_pairs
        ROUGE-G-SU4 only: let unigrams and skip-bigrams pair through Sim_sem (default: like with like).

    Documents (summaries sharing their references) are scored in parallel on numba's threads
    (``NUMBA_NUM_THREADS``); the scores do not depend on how many.
    """
    sim, cand_ids, ref_ids = _prepare(summaries, references, measures, beta=beta, c=c, gloss_links=gloss_links,
                                      damping=damping, iterations=iterations, top=top,
                                      cross_type_pairs=cross_type_pairs)
    return _score(sim, cand_ids, ref_ids, measures, matcher, alpha, [beta])[0]


def rouge_g_beta_sweep(summaries: Sequence[str], references: Sequence[Sequence[str]], betas: Sequence[float], *,
                       measures: Sequence[str] = ("rouge-g-1", "rouge-g-2", "rouge-g-su4"), c: float = C,
                       top: int | None = TOP, gloss_links: bool = True, alpha: float = 0.5,
                       cross_type_pairs: bool = False) -> dict[float, pd.DataFrame]:
    """``rouge_g`` at each beta (Figure 1), computing each Sim_sem matrix once: ``{beta: table}``."""
    for beta in betas:
        check_beta(beta)
    sim, cand_ids, ref_ids = _prepare(summaries, references, measures, beta=0.5, c=c, gloss_links=gloss_links,
                                      damping=DAMPING, iterations=ITERATIONS, top=top,
                                      cross_type_pairs=cross_type_pairs)
    return dict(zip(betas, _score(sim, cand_ids, ref_ids, measures, greedy_match, alpha, betas)))


def _prepare(summaries, references, measures, **options):
    unknown = [m for m in measures if m not in MEASURES]
    if unknown:
        raise InputError(f"unknown ROUGE-G measure(s) {unknown}; choose from {', '.join(MEASURES)}")
    warn_dropped_letters(chain(summaries, chain.from_iterable(references)),
                         "ROUGE-G (ROUGE-1.5.5's tokens, English WordNet)", UNICODE_ROUGE)
    index = TokenIndex()
    cand_ids = [index.ids(tokens) for tokens in UNSTEMMED.tokens(summaries)]
    ref_ids = [[index.ids(tokens) for tokens in UNSTEMMED.tokens(refs)] for refs in references]
    return GraphSimilarity(index.tokens, **options), cand_ids, ref_ids


def _score(sim, cand_ids, ref_ids, measures, matcher, alpha, betas) -> list[pd.DataFrame]:
    """One table per beta in ``betas``; documents (summaries sharing their references) are prepared and
    scored in parallel threads."""
    groups: dict[tuple, list[int]] = {}
    for i, refs in enumerate(ref_ids):
        groups.setdefault(tuple(r.tobytes() for r in refs), []).append(i)
    sim.share_common_senses([[*ref_ids[m[0]], *(cand_ids[i] for i in m)] for m in groups.values()])
    specs = [MEASURES[m] for m in measures]

    def document(members: list[int]) -> list[pd.DataFrame]:
        summaries, references = [cand_ids[i] for i in members], [ref_ids[i] for i in members]
        prepared = sim.prepare(references[0], summaries, specs)
        return [pd.concat([soft_rouge(summaries, references, spec, similarity.with_beta(float(beta)),
                                      matcher=matcher, alpha=alpha, prefix="rougeg" + spec.name)
                           for spec, similarity in zip(specs, prepared)], axis=1).set_axis(members)
                for beta in betas]

    # soft_rouge limits BLAS to one thread and then restores the limit: from several threads at once the
    # restores could interleave and leave the limit changed, unless it is already 1 around them all.
    with threadpool_limits(limits=1, user_api="blas"):
        per_document = map_threads(document, list(groups.values()))
    if not per_document:
        return [pd.DataFrame(columns=[f"rougeg{s.name}_{k}" for s in specs for k in "rpf"], dtype=float)
                for _ in betas]
    return [pd.concat(tables).sort_index().reset_index(drop=True) for tables in zip(*per_document)]


def rouge_g_metric(measure: str = "rouge-g-2", *, beta: float = BETA, c: float = C, top: int | None = TOP,
                   gloss_links: bool = True, cross_type_pairs: bool = False, score: str = "r",
                   name: str | None = None) -> Metric:
    """A configured ROUGE-G ``Metric`` whose primary column is ``score`` (``"r"``: Eq. 4's recall, ``"p"``
    or ``"f"``); its signature pins every option that changes a number."""
    if measure not in MEASURES:
        raise InputError(f"unknown ROUGE-G measure {measure!r}; choose from {', '.join(MEASURES)}")
    if score not in ("r", "p", "f"):
        raise InputError(f"score must be 'r' (Eq. 4's recall), 'p' or 'f', got {score!r}")
    options = {"measures": [measure], "beta": beta, "c": c, "top": top, "gloss_links": gloss_links,
               "damping": DAMPING, "iterations": ITERATIONS, "cross_type_pairs": cross_type_pairs}
    pins = {"wordnet": wordnet_signature(), "preprocessing": STEMMED.signature, "multiref": "A"}
    prefix = f"rougeg{MEASURES[measure].name}"
    return Metric(name or measure, rouge_g, primary=f"{prefix}_{score}", options=options, resources=("rouge155",),
                  pins=pins, packages=PACKAGES, columns=tuple(f"{prefix}_{x}" for x in "rpf"), joins="measures")


# Registry names: the bare measure (recall, the paper's score) and ``-f`` (F, a name that says so).
_NAMED = {**{m: (m, "r") for m in MEASURES}, **{f"{m}-f": (m, "f") for m in MEASURES}}
NAMES = tuple(_NAMED)


def make(name: str) -> Metric | None:
    """The registry's ``Metric`` called ``name``, or None if it is not a ROUGE-G name."""
    if name not in _NAMED:
        return None
    measure, score = _NAMED[name]
    return rouge_g_metric(measure, score=score, name=name)
