"""ROUGE-G (ShafieiBavani et al. 2018): ROUGE-1/2/SU4 with WordNet PPR semantics (Eqs. 4-5).

``Sim_LS(m, p) = beta x Count_match(m, p) + (1 - beta) x Sim_sem(m, p)`` (Eq. 5, beta = 0.5), where
``Count_match`` is ROUGE's exact match of the stemmed grams (ROUGE-1.5.5 ``-m``, stopwords kept, as
the paper's "default NIST settings") and ``Sim_sem`` is the path-based similarity of the grams' PPR
vectors over WordNet (Eq. 2, c = 0.7; ``rougelab.semantic``).

Pairing (Eq. 4 sums Sim_LS over model and peer n-grams but leaves open which pairs): reference and
candidate gram occurrences are aligned one to one, highest Sim_LS first, each aligned pair adding
its Sim_LS (``soft_rouge.greedy_match``). An identical gram pair has Sim_LS = 1, so it is aligned
first; no gram is credited more often than it occurs, so R, P and F stay in [0, 1]; and at beta = 1
the hit is ROUGE's clipped count. Alternatives: summing Sim_LS over *all* pairs (Eq. 4 read
literally: unbounded, a summary repeating a related word gains without limit); each reference gram
taking its best candidate gram (many-to-one: bounded recall, but P can exceed 1); Ng and Abrecht's
released ROUGE-WE script (0.5 x clipped exact count + 0.5 x the sum of similarities over candidate
grams: unbounded). ``matcher`` accepts any of the core's matchers.

Word senses: WordNet is looked up with the unstemmed word (NLTK's morphy finds the lemma); a word's
sense in a pair of texts is chosen by alignment against all senses of the other text's words (section
3.4; the alignment of Pilehvar et al. 2013, whose worked example aligns two whole sentences), and a
gram's vector is the PPR of its words' chosen senses (the mean of their vectors, by linearity of
Eq. 1), plus a mass-0.5 dimension per OOV word (section 3.5) keyed by the word's stem.
Columns: ``rougeg1_r/_p/_f``, ``rougeg2_*``, ``rougegsu4_*``; registry ``rouge-g-1``, ``rouge-g-2``,
``rouge-g-su4`` (F primary; references pooled like ROUGE-1.5.5 ``-f A``).
"""
from __future__ import annotations

import functools
from typing import Sequence

import numpy as np
import pandas as pd

from rougelab.metrics.base import InputError, Metric, register
from rougelab.metrics.soft_rouge import PAD, GramSpec, TokenIndex, greedy_match, soft_rouge
from rougelab.semantic.pagerank import DAMPING, ITERATIONS, TOP
from rougelab.semantic.semantic_similarity import C, align_senses, gram_vectors, sim_sem_matrix
from rougelab.semantic.wordnet_graph import synset_key, wordnet_signature
from rougelab.semantic.wordnet_ppr import wordnet_ppr

BETA = 0.5
MEASURES = {
    "rouge-g-1": GramSpec(n=1),
    "rouge-g-2": GramSpec(n=2),
    "rouge-g-su4": GramSpec(skip=4, unigrams=True),
}


class GraphSimilarity:
    """The ROUGE-G gram similarity ``Sim_LS`` for the soft-matching core (Eq. 5).

    Parameters
    ----------
    tokens : list of str
        Surface token of each token id (``TokenIndex.tokens``).
    beta : float
        Weight of the exact match (Eq. 5).
    c : float
        Iteration decay of Sim_sem (Eq. 2).
    gloss_links, damping, iterations, top
        The graph and PPR setting (see ``rougelab.semantic``).
    memo : bool
        Keep every Sim_sem matrix, so rescoring the same texts with another ``beta`` is cheap.
    """

    def __init__(self, tokens: Sequence[str], *, beta: float = BETA, c: float = C, gloss_links: bool = True,
                 damping: float = DAMPING, iterations: int = ITERATIONS, top: int = TOP,
                 memo: bool = False) -> None:
        from rougelab.text import stem_token

        if not 0.0 <= beta <= 1.0:
            raise InputError(f"beta must be in [0, 1], got {beta}")
        self.beta, self.c, self.top = beta, c, top
        self._prepared = None
        self._gram_cache: dict = {}
        self._memo: dict | None = {} if memo else None
        stems = [stem_token(t) for t in tokens]
        stem_ids = {s: i for i, s in enumerate(dict.fromkeys(stems))}
        self.stem = np.array([stem_ids[s] for s in stems] + [-1], dtype=np.int64)  # last: PAD
        if beta == 1.0:
            return  # Sim_sem has weight 0: no WordNet needed
        graph, cache, wordnet = wordnet_ppr(gloss_links, damping, iterations, top)
        self.oov_offset = graph.n_nodes
        senses = []
        for token in tokens:
            keys = dict.fromkeys(synset_key(s) for s in wordnet.synsets(token))
            senses.append([graph.index_of(k) for k in keys])
        needed = sorted({s for word in senses for s in word})
        vectors = cache.vectors(needed)
        self._ids, self._values = vectors.ids, vectors.values
        row_of = {s: i for i, s in enumerate(needed)}
        self.senses = [np.array([row_of[s] for s in word], dtype=np.int64) for word in senses]

    def __call__(self, ref_keys: np.ndarray, cand_keys: np.ndarray) -> np.ndarray:
        exact = (self.stem[ref_keys][:, None, :] == self.stem[cand_keys][None, :, :]).all(axis=-1)
        if self.beta == 1.0 or len(ref_keys) == 0 or len(cand_keys) == 0:
            return exact.astype(np.float64)
        if self._memo is None:
            return self.beta * exact + (1.0 - self.beta) * self.sim_sem(ref_keys, cand_keys)
        key = (ref_keys.tobytes(), cand_keys.tobytes(), ref_keys.shape[1])
        if key not in self._memo:
            self._memo[key] = self.sim_sem(ref_keys, cand_keys)
        return self.beta * exact + (1.0 - self.beta) * self._memo[key]

    def prepare(self, ref_ids: Sequence[np.ndarray], cand_ids: Sequence[np.ndarray]) -> None:
        """Compute once the sense-level Sim_sem between every sense of the words of ``ref_ids`` and of
        ``cand_ids`` (token-id arrays); later calls on texts among these reuse it (a pure cache: scores
        do not change)."""
        if self.beta == 1.0:
            return
        rows_a = self._rows(np.unique(np.concatenate([np.asarray(r, np.int64) for r in ref_ids] + [_EMPTY])))
        rows_b = self._rows(np.unique(np.concatenate([np.asarray(c, np.int64) for c in cand_ids] + [_EMPTY])))
        rows_a, rows_b = np.unique(rows_a), np.unique(rows_b)
        map_a = np.full(len(self._ids), -1, dtype=np.int64)
        map_b = np.full(len(self._ids), -1, dtype=np.int64)
        map_a[rows_a] = np.arange(len(rows_a))
        map_b[rows_b] = np.arange(len(rows_b))
        self._gram_cache.clear()
        self._prepared = (map_a, map_b, sim_sem_matrix(self._ids[rows_a], self._ids[rows_b], c=self.c))

    def _rows(self, words: np.ndarray) -> np.ndarray:
        return np.concatenate([self.senses[w] for w in words] + [_EMPTY])

    def _sense_sim(self, rows_a: np.ndarray, rows_b: np.ndarray) -> np.ndarray:
        if self._prepared is not None:
            map_a, map_b, matrix = self._prepared
            ia, ib = map_a[rows_a], map_b[rows_b]
            if (ia >= 0).all() and (ib >= 0).all():
                return matrix[np.ix_(ia, ib)]
        return sim_sem_matrix(self._ids[rows_a], self._ids[rows_b], c=self.c)

    def sim_sem(self, ref_keys: np.ndarray, cand_keys: np.ndarray) -> np.ndarray:
        """Sim_sem (Eq. 2) between the grams (rows of token ids), senses aligned per section 3.4."""
        words_a = np.unique(ref_keys[ref_keys != PAD])
        words_b = np.unique(cand_keys[cand_keys != PAD])
        rows_a, rows_b = self._rows(words_a), self._rows(words_b)
        sense_sim = self._sense_sim(rows_a, rows_b)
        chosen_a, chosen_b = align_senses(sense_sim, _spans(words_a, self.senses), _spans(words_b, self.senses))
        sense_a = dict(zip(words_a.tolist(), (None if i is None else int(rows_a[i]) for i in chosen_a)))
        sense_b = dict(zip(words_b.tolist(), (None if i is None else int(rows_b[i]) for i in chosen_b)))
        vec_a = self._gram_vectors(ref_keys, sense_a)
        vec_b = self._gram_vectors(cand_keys, sense_b)
        return sim_sem_matrix(vec_a, vec_b, c=self.c)

    def _gram_vectors(self, keys: np.ndarray, sense_of: dict) -> np.ndarray:
        """Ranked PPR vectors of the grams, cached by seed set (chosen senses + OOV stems)."""
        seeds = []
        for gram in keys.tolist():
            words = [w for w in gram if w != PAD]
            seeds.append((tuple(sorted({sense_of[w] for w in words if sense_of[w] is not None})),
                          tuple(sorted({int(self.stem[w]) for w in words if sense_of[w] is None}))))
        missing = list(dict.fromkeys(k for k in seeds if k not in self._gram_cache))
        if missing:
            local = np.unique(np.array([r for rows, _ in missing for r in rows], dtype=np.int64))
            vectors = gram_vectors(self._ids[local], self._values[local],
                                   [np.searchsorted(local, rows).tolist() for rows, _ in missing],
                                   [list(oov) for _, oov in missing], oov_offset=self.oov_offset, top=self.top)
            for key, vector in zip(missing, vectors):
                self._gram_cache[key] = vector[:, :self.top + len(key[1])]
        width = self.top + max(len(oov) for _, oov in seeds)
        out = np.full((len(seeds), self._ids.shape[1], width), -1, dtype=np.int64)
        for i, key in enumerate(seeds):
            vector = self._gram_cache[key]
            out[i, :, :vector.shape[1]] = vector
        return out


_EMPTY = np.empty(0, dtype=np.int64)


def _spans(words: np.ndarray, senses: list[np.ndarray]) -> list[np.ndarray | None]:
    """Positions of each word's senses in the concatenation of ``senses[w]`` over ``words``."""
    spans, start = [], 0
    for w in words:
        n = len(senses[w])
        spans.append(np.arange(start, start + n) if n else None)
        start += n
    return spans


def rouge_g(summaries: Sequence[str], references: Sequence[Sequence[str]], *,
            measures: Sequence[str] = ("rouge-g-1", "rouge-g-2", "rouge-g-su4"), beta: float = BETA,
            c: float = C, top: int = TOP, gloss_links: bool = True, damping: float = DAMPING,
            iterations: int = ITERATIONS, alpha: float = 0.5, matcher=greedy_match) -> pd.DataFrame:
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
        Entries kept per PPR iteration vector.
    gloss_links
        Use the gloss-enriched WordNet graph (``rougelab.semantic.wordnet_graph``).
    damping, iterations
        d and k of the personalised PageRank (Eq. 1).
    alpha
        F = P R / ((1 - alpha) P + alpha R).
    matcher
        How Sim_LS values become hits (see the module docstring); ``greedy_match`` by default.
    """
    sim, cand_ids, ref_ids = _prepare(summaries, references, measures, beta=beta, c=c, gloss_links=gloss_links,
                                      damping=damping, iterations=iterations, top=top)
    return _score(sim, cand_ids, ref_ids, measures, matcher, alpha)


def rouge_g_beta_sweep(summaries: Sequence[str], references: Sequence[Sequence[str]], betas: Sequence[float], *,
                       measures: Sequence[str] = ("rouge-g-1", "rouge-g-2", "rouge-g-su4"), c: float = C,
                       top: int = TOP, gloss_links: bool = True, alpha: float = 0.5) -> dict[float, pd.DataFrame]:
    """``rouge_g`` at each beta (Figure 1), computing each Sim_sem matrix once: ``{beta: table}``."""
    sim, cand_ids, ref_ids = _prepare(summaries, references, measures, beta=0.5, c=c, gloss_links=gloss_links,
                                      damping=DAMPING, iterations=ITERATIONS, top=top, memo=True)
    out = {}
    for beta in betas:
        if not 0.0 <= beta <= 1.0:
            raise InputError(f"beta must be in [0, 1], got {beta}")
        sim.beta = float(beta)
        out[beta] = _score(sim, cand_ids, ref_ids, measures, greedy_match, alpha)
    return out


def _prepare(summaries, references, measures, **options):
    unknown = [m for m in measures if m not in MEASURES]
    if unknown:
        raise InputError(f"unknown ROUGE-G measure(s) {unknown}; choose from {', '.join(MEASURES)}")
    from rougelab.text import tokenize

    index = TokenIndex()
    cand_ids = [index.ids(tokenize(s)) for s in summaries]
    ref_ids = [[index.ids(tokenize(r)) for r in refs] for refs in references]
    return GraphSimilarity(index.tokens, **options), cand_ids, ref_ids


def _score(sim, cand_ids, ref_ids, measures, matcher, alpha) -> pd.DataFrame:
    groups: dict[tuple, list[int]] = {}              # summaries sharing their references (one document)
    for i, refs in enumerate(ref_ids):
        groups.setdefault(tuple(r.tobytes() for r in refs), []).append(i)
    tables = []
    for members in groups.values():
        sim.prepare(ref_ids[members[0]], [cand_ids[i] for i in members])
        parts = [soft_rouge([cand_ids[i] for i in members], [ref_ids[i] for i in members], MEASURES[m], sim,
                            matcher=matcher, alpha=alpha, prefix="rougeg" + MEASURES[m].name)
                 for m in measures]
        tables.append(pd.concat(parts, axis=1).set_axis(members))
    columns = [f"rougeg{MEASURES[m].name}_{k}" for m in measures for k in "rpf"]
    if not tables:
        return pd.DataFrame(columns=columns, dtype=float)
    return pd.concat(tables).sort_index().reset_index(drop=True)


def rouge_g_metric(measure: str = "rouge-g-2", *, beta: float = BETA, c: float = C, top: int = TOP,
                   gloss_links: bool = True, name: str | None = None) -> Metric:
    """A configured ROUGE-G ``Metric``; its signature pins every option that changes a number."""
    if measure not in MEASURES:
        raise InputError(f"unknown ROUGE-G measure {measure!r}; choose from {', '.join(MEASURES)}")
    options = {"measures": [measure], "beta": beta, "c": c, "top": top, "gloss_links": gloss_links,
               "damping": DAMPING, "iterations": ITERATIONS, "wordnet": wordnet_signature(),
               "tokenize": "rouge155-stem", "multiref": "A"}
    return Metric(name or measure, _registered_scorer, primary="rougeg" + MEASURES[measure].name + "_f",
                  options=options)


def _registered_scorer(summaries, references, *, wordnet, tokenize, multiref, **options):
    return rouge_g(summaries, references, **options)


for _measure in MEASURES:
    register(_measure, functools.partial(rouge_g_metric, _measure))
