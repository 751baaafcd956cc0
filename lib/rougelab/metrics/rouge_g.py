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
from typing import NamedTuple, Sequence

import numpy as np
import pandas as pd

from rougelab.metrics.base import InputError, Metric, register
from rougelab.metrics.soft_rouge import PAD, GramSpec, TokenIndex, count_grams, greedy_match, soft_rouge
from rougelab.semantic.pagerank import DAMPING, ITERATIONS, TOP
from rougelab.semantic.semantic_similarity import C, align_senses, gram_vectors, sim_sem_matrix
from rougelab.semantic.wordnet_graph import synset_key, wordnet_signature
from rougelab.semantic.wordnet_ppr import wordnet_ppr

BETA = 0.5
MAX_COMMON_SENSES = 5000      # 200 MB of shared sense-level Sim_sem at most
MEASURES = {
    "rouge-g-1": GramSpec(n=1),
    "rouge-g-2": GramSpec(n=2),
    "rouge-g-su4": GramSpec(skip=4, unigrams=True),
}


class GraphSimilarity:
    """The ROUGE-G gram similarity ``Sim_LS`` for the soft-matching core (Eq. 5).

    ``prepare`` computes, for one document, Sim_sem between the grams of every (reference,
    candidate) pair of texts in one go: the sense-level similarities for the alignment (section 3.4)
    once for all the document's words, then one PPR vector per distinct seed set (chosen senses +
    OOV words) and one Sim_sem matrix between the distinct seed sets of the two sides. Calls on
    pairs it has not prepared compute the same numbers for that pair alone.

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
        Keep every prepared document, so rescoring the same texts with another ``beta`` is cheap.
    """

    def __init__(self, tokens: Sequence[str], *, beta: float = BETA, c: float = C, gloss_links: bool = True,
                 damping: float = DAMPING, iterations: int = ITERATIONS, top: int = TOP,
                 memo: bool = False) -> None:
        from rougelab.text import stem_token

        if not 0.0 <= beta <= 1.0:
            raise InputError(f"beta must be in [0, 1], got {beta}")
        self.beta, self.c, self.top, self.memo = beta, c, top, memo
        self._pairs: dict[tuple, tuple[int, np.ndarray, np.ndarray]] = {}   # pair -> (document, rows, columns)
        self._sem: list[np.ndarray] = []                                      # per document
        self._common = _CommonSenses(np.zeros(0, dtype=np.int64), np.zeros((0, 0)))
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
        # Word w's senses (rows of _ids, WordNet's order) are sense_rows[sense_start[w]:sense_start[w + 1]].
        self.sense_rows = np.array([row_of[s] for word in senses for s in word], dtype=np.int64)
        self.sense_start = np.cumsum([0] + [len(word) for word in senses]).astype(np.int64)

    def __call__(self, ref_keys: np.ndarray, cand_keys: np.ndarray) -> np.ndarray:
        exact = (self.stem[ref_keys][:, None, :] == self.stem[cand_keys][None, :, :]).all(axis=-1)
        if self.beta == 1.0 or len(ref_keys) == 0 or len(cand_keys) == 0:
            return exact.astype(np.float64)
        return self.beta * exact + (1.0 - self.beta) * self.sim_sem(ref_keys, cand_keys)

    def prepare(self, ref_ids: Sequence[np.ndarray], cand_ids: Sequence[np.ndarray], spec: GramSpec) -> None:
        """Compute Sim_sem for the ``spec`` grams of every pair of a reference in ``ref_ids`` and a
        candidate in ``cand_ids`` (token-id arrays); later calls on these pairs look it up (a pure
        cache: scores do not change)."""
        if self.beta == 1.0:
            return
        refs = [count_grams(spec.grams(ids)).keys for ids in ref_ids]
        cands = [count_grams(spec.grams(ids)).keys for ids in cand_ids]
        refs, cands = [r for r in refs if len(r)], [c for c in cands if len(c)]
        if all(_pair_key(r, c) in self._pairs for r in refs for c in cands):
            return
        if not self.memo:
            self._pairs.clear()
            self._sem.clear()
        self._add_document(refs, cands)

    def sim_sem(self, ref_keys: np.ndarray, cand_keys: np.ndarray) -> np.ndarray:
        """Sim_sem (Eq. 2) between the grams (rows of token ids), senses aligned per section 3.4."""
        found = self._pairs.get(_pair_key(ref_keys, cand_keys))
        if found is None:
            if not self.memo:
                self._pairs.clear()
                self._sem.clear()
            self._add_document([ref_keys], [cand_keys])
            found = self._pairs[_pair_key(ref_keys, cand_keys)]
        document, rows, columns = found
        return self._sem[document][np.ix_(rows, columns)]

    def _add_document(self, refs: list[np.ndarray], cands: list[np.ndarray]) -> None:
        """Sim_sem of the grams of every (reference, candidate) pair: ``refs``/``cands`` are gram keys."""
        words_a, senses_a = self._word_senses(refs)
        words_b, senses_b = self._word_senses(cands)
        distinct_a, row_a = np.unique(senses_a.rows, return_inverse=True)
        distinct_b, row_b = np.unique(senses_b.rows, return_inverse=True)
        sense_sim = self._sense_matrix(distinct_a, distinct_b)
        sides_a = [_TextSenses.of(ref, words_a, senses_a) for ref in refs]
        sides_b = [_TextSenses.of(cand, words_b, senses_b) for cand in cands]
        seeds_a, seeds_b, spans = [], [], []
        for ref, (in_a, pick_a, starts_a) in zip(refs, sides_a):
            for cand, (in_b, pick_b, starts_b) in zip(cands, sides_b):
                chosen_a, chosen_b = align_senses(sense_sim[np.ix_(row_a[pick_a], row_b[pick_b])],
                                                  starts_a, starts_b)
                seeds_a.append(self._seeds(ref, in_a, _chosen_rows(senses_a.rows, pick_a, chosen_a)))
                seeds_b.append(self._seeds(cand, in_b, _chosen_rows(senses_b.rows, pick_b, chosen_b)))
                spans.append(_pair_key(ref, cand))
        distinct_seeds_a, index_a = _distinct_rows(seeds_a)
        distinct_seeds_b, index_b = _distinct_rows(seeds_b)
        self._sem.append(sim_sem_matrix(self._vectors(distinct_seeds_a), self._vectors(distinct_seeds_b), c=self.c))
        document = len(self._sem) - 1
        for key, rows, columns in zip(spans, index_a, index_b):
            self._pairs[key] = (document, rows, columns)

    def share_common_senses(self, documents: Sequence[Sequence[np.ndarray]]) -> None:
        """Compute once Sim_sem between the senses found in many of ``documents`` (each a list of
        token-id arrays): a document then takes those entries of its sense matrix from here (a pure
        cache: scores do not change). "Many" is at least a tenth of the documents and at least 10 (the
        ``MAX_COMMON_SENSES`` most frequent of them); on SummEval's 100 documents that is 3,659 senses
        and spares a third of the sense-level work."""
        if self.beta == 1.0 or not documents:
            return
        seen = np.zeros(len(self._ids), dtype=np.int64)
        for texts in documents:
            words = np.unique(np.concatenate([np.asarray(t, dtype=np.int64) for t in texts] + [_NONE]))
            seen[np.unique(self._senses_of(words).rows)] += 1
        common = np.flatnonzero(seen >= max(10, len(documents) // 10))
        common = np.sort(common[np.argsort(-seen[common], kind="stable")[:MAX_COMMON_SENSES]])
        self._common = _CommonSenses(common, sim_sem_matrix(self._ids[common], self._ids[common], c=self.c))

    def _sense_matrix(self, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """Sim_sem between the senses ``rows`` and ``columns`` (rows of ``_ids``), common ones looked up."""
        at_a, in_a = _positions(self._common.senses, rows)
        at_b, in_b = _positions(self._common.senses, columns)
        out = np.empty((len(rows), len(columns)))
        out[np.ix_(in_a, in_b)] = self._common.sim[np.ix_(at_a[in_a], at_b[in_b])]
        out[~in_a] = sim_sem_matrix(self._ids[rows[~in_a]], self._ids[columns], c=self.c)
        out[np.ix_(in_a, ~in_b)] = sim_sem_matrix(self._ids[rows[in_a]], self._ids[columns[~in_b]], c=self.c)
        return out

    def _word_senses(self, grams: list[np.ndarray]) -> tuple[np.ndarray, "_Senses"]:
        """The distinct words of ``grams`` and their senses (rows of ``_ids``), grouped by word."""
        words = np.unique(np.concatenate([g.ravel() for g in grams]))
        words = words[words != PAD]
        return words, self._senses_of(words)

    def _senses_of(self, words: np.ndarray) -> "_Senses":
        counts = self.sense_start[words + 1] - self.sense_start[words]
        return _Senses(self.sense_rows[_ranges(self.sense_start[words], counts)],
                       np.concatenate([[0], np.cumsum(counts)]).astype(np.int64))

    def _seeds(self, grams: np.ndarray, words: np.ndarray, chosen: np.ndarray) -> np.ndarray:
        """Seed set of each gram: its words' chosen senses, then the stems of its OOV words, each
        sorted and ``-1`` padded, as one ``(g, 2 x width)`` row (the PPR vector's cache key)."""
        pad = grams == PAD
        sense = np.where(pad, -1, chosen[np.searchsorted(words, np.where(pad, words[0], grams))])
        oov = np.where(pad | (sense >= 0), -1, self.stem[grams])
        return np.hstack([_distinct_sorted(sense), _distinct_sorted(oov)])

    def _vectors(self, seeds: np.ndarray) -> np.ndarray:
        width = seeds.shape[1] // 2
        return gram_vectors(self._ids, self._values, seeds[:, :width], seeds[:, width:],
                            oov_offset=self.oov_offset, top=self.top)


class _CommonSenses(NamedTuple):
    """Senses shared by many documents (sorted rows of ``_ids``) and Sim_sem between them."""

    senses: np.ndarray
    sim: np.ndarray


class _Senses(NamedTuple):
    """Senses of a list of words: word ``i`` has rows ``rows[start[i]:start[i + 1]]``."""

    rows: np.ndarray
    start: np.ndarray

    def of(self, words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Positions in ``rows`` of the senses of ``words`` (indices into this list), and their bounds."""
        counts = self.start[words + 1] - self.start[words]
        return _ranges(self.start[words], counts), np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)


class _TextSenses(NamedTuple):
    """One text's distinct words, the positions of their senses in its side's ``_Senses``, and bounds."""

    words: np.ndarray
    picked: np.ndarray
    start: np.ndarray

    @classmethod
    def of(cls, grams: np.ndarray, side_words: np.ndarray, side: _Senses) -> "_TextSenses":
        words = np.unique(grams)
        words = words[words != PAD]
        return cls(words, *side.of(np.searchsorted(side_words, words)))


def _positions(sorted_values: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each of ``values`` is in ``sorted_values``, and whether it is there at all."""
    at = np.searchsorted(sorted_values, values)
    found = at < len(sorted_values)
    found[found] = sorted_values[at[found]] == values[found]
    return at, found


def _ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``concatenate([arange(s, s + n) for s, n in zip(starts, counts)])``."""
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(counts)
    return np.arange(total, dtype=np.int64) - np.repeat(ends - counts - starts, counts)


def _chosen_rows(rows: np.ndarray, picked: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """Sense row chosen for each word (``-1``: OOV) from the aligner's positions in ``picked``."""
    return np.where(chosen >= 0, rows[picked[np.maximum(chosen, 0)]] if len(picked) else -1, -1)


def _distinct_sorted(x: np.ndarray) -> np.ndarray:
    """Each row's distinct non-negative values, ascending, ``-1`` first in place of the rest."""
    x = np.sort(x, axis=1)
    repeated = np.zeros_like(x, dtype=bool)
    repeated[:, 1:] = x[:, 1:] == x[:, :-1]
    x[repeated] = -1
    return np.sort(x, axis=1)


def _distinct_rows(blocks: list[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The distinct rows of all ``blocks`` and, per block, the index of each of its rows among them."""
    distinct, inverse = np.unique(np.concatenate(blocks), axis=0, return_inverse=True)
    bounds = np.cumsum([0] + [len(b) for b in blocks])
    inverse = inverse.ravel()
    return distinct, [inverse[lo:hi] for lo, hi in zip(bounds[:-1], bounds[1:])]


_NONE = np.zeros(0, dtype=np.int64)


def _pair_key(ref_keys: np.ndarray, cand_keys: np.ndarray) -> tuple:
    return ref_keys.shape[1], ref_keys.tobytes(), cand_keys.tobytes()


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
    sim.share_common_senses([[*ref_ids[m[0]], *(cand_ids[i] for i in m)] for m in groups.values()])
    tables = []
    for members in groups.values():
        parts = []
        for m in measures:
            sim.prepare(ref_ids[members[0]], [cand_ids[i] for i in members], MEASURES[m])
            parts.append(soft_rouge([cand_ids[i] for i in members], [ref_ids[i] for i in members], MEASURES[m],
                                    sim, matcher=matcher, alpha=alpha, prefix="rougeg" + MEASURES[m].name))
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
