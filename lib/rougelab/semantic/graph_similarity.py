"""ROUGE-G's gram similarity over WordNet (ShafieiBavani et al. 2018, Eq. 5 and sections 3.1-3.5).

``Sim_LS(m, p) = beta x Count_match(m, p) + (1 - beta) x Sim_sem(m, p)`` (Eq. 5): ``Count_match`` compares
the grams' stems (ROUGE-1.5.5 ``-m``), ``Sim_sem`` the path-based similarity (Eq. 2,
``semantic_similarity``) of the grams' personalised PageRank vectors over WordNet (Eq. 1, ``pagerank``).
Word senses are chosen by alignment against the other text (section 3.4, ``align_senses``); a gram's
vector is the PPR of its words' chosen senses (``gram_vectors``), plus a mass-0.5 dimension per OOV
word (section 3.5) keyed by the word's stem. ``GraphSimilarity`` does this for a batch's vocabulary,
one document (its references x its candidates) at a time; ``rougelab.metrics.rouge_g`` scores with it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Sequence

import numpy as np

from rougelab.rouge.grams import PAD
from rougelab.scoring import InputError, count_grams
from rougelab.semantic.pagerank import DAMPING, ITERATIONS, TOP
from rougelab.semantic.gram_vectors import gram_vectors
from rougelab.semantic.semantic_similarity import C, sim_sem_blocks, sim_sem_matrix
from rougelab.semantic.sense_alignment import align_senses
from rougelab.semantic.wordnet_graph import synset_key
from rougelab.semantic.wordnet_ppr import wordnet_ppr
from rougelab.text.token_ids import TokenIndex

if TYPE_CHECKING:
    from rougelab.metrics.soft_rouge import GramSpec

BETA = 0.5
MAX_COMMON_SENSES = 5000      # 200 MB of shared sense-level Sim_sem at most
FULL_VECTOR_SENSES = 100      # with top=None, at most 100 senses per batch (88 took 4.7 GB at peak)


class GraphSimilarity:
    """The ROUGE-G gram similarity ``Sim_LS`` (Eq. 5) over one batch's vocabulary.

    ``prepare`` computes one document (its references x its candidates) for several gram kinds at
    once and returns, per kind, a :class:`DocumentSimilarity`, the gram similarity of those pairs for
    the soft-matching core. For that it computes the sense-level Sim_sem for the alignment (section
    3.4) once for all the document's words; each word's sense against each text of the other side
    (all the alignment depends on); one PPR vector per distinct seed set (chosen senses + OOV words) of
    any kind; and, per reference, one Sim_sem block (Eq. 2) between the seed sets of its grams of every
    kind and those of the candidates' grams, which holds the matrix of each of its pairs. Calling the
    ``GraphSimilarity`` itself on a pair computes the same numbers for that pair alone. Several threads may prepare
    documents at once.

    Parameters
    ----------
    tokens : list of str
        Surface token of each token id (``TokenIndex.tokens``).
    beta : float
        Weight of the exact match (Eq. 5).
    c : float
        Iteration decay of Sim_sem (Eq. 2).
    gloss_links, damping, iterations, top
        The graph and PPR setting (see ``rougelab.semantic``); ``top=None`` keeps every PPR entry (one
        dimension per connected node, section 3.1), in memory only: about 20 MB per sense, so more than
        ``FULL_VECTOR_SENSES`` senses in a batch is refused.
    cross_type_pairs : bool
        In ROUGE-SU, let a unigram pair with a skip-bigram through Sim_sem (their exact match is always
        0); False (default): a gram pairs only with grams of its own kind, as ROUGE-SU4 counts them.
    """

    def __init__(self, tokens: Sequence[str], *, beta: float = BETA, c: float = C, gloss_links: bool = True,
                 damping: float = DAMPING, iterations: int = ITERATIONS, top: int | None = TOP,
                 cross_type_pairs: bool = False) -> None:
        from rougelab.text import stem_token

        check_beta(beta)
        if top is not None and (not isinstance(top, (int, np.integer)) or top < 1):
            raise InputError(f"top must be a positive number of PPR entries or None (all of them), got {top!r}")
        if not isinstance(iterations, (int, np.integer)) or iterations < 0:
            raise InputError(f"iterations must be a whole number >= 0 (k of Eq. 1), got {iterations!r}")
        self.beta, self.c, self.top, self.cross_type_pairs = beta, c, top, cross_type_pairs
        self._last_pair: tuple = (None, None)                       # (pair, Sim_sem) of the last lone pair
        self._common = _CommonSenses(np.zeros(0, dtype=np.int64), np.zeros((0, 0)))
        stems = [stem_token(t) for t in tokens]
        self.stem = np.array(TokenIndex().id_list(stems) + [-1], dtype=np.int64)  # one id per stem; last: PAD
        if beta == 1.0:
            return  # Sim_sem has weight 0: no WordNet needed
        stored_iterations, stored_top = _stored_setting(iterations, top)
        graph, cache, wordnet = wordnet_ppr(gloss_links, damping, stored_iterations, stored_top)
        self.oov_offset = graph.n_nodes
        senses = []
        for token in tokens:
            keys = dict.fromkeys(synset_key(s) for s in wordnet.synsets(token))
            senses.append([graph.index_of(k) for k in keys])
        needed = sorted({s for word in senses for s in word})
        if top is None and len(needed) > FULL_VECTOR_SENSES:
            raise InputError(f"top=None keeps every PPR entry (about 20 MB per sense); these texts have "
                             f"{len(needed):,} senses, more than {FULL_VECTOR_SENSES}: score fewer or shorter "
                             f"texts at a time, or truncate (top=100)")
        vectors = cache.vectors(needed)
        keep = (slice(None), slice(0, iterations + 1), slice(0, top))
        self._ids, self._values = (np.ascontiguousarray(a[keep]) for a in (vectors.ids, vectors.values))
        row_of = {s: i for i, s in enumerate(needed)}
        # Word w's senses (rows of _ids, WordNet's order) are sense_rows[sense_start[w]:sense_start[w + 1]].
        self.sense_rows = np.array([row_of[s] for word in senses for s in word], dtype=np.int64)
        self.sense_start = np.cumsum([0] + [len(word) for word in senses]).astype(np.int64)

    def __call__(self, ref_keys: np.ndarray, cand_keys: np.ndarray) -> np.ndarray:
        return _sim_ls(self.stem, self.beta, ref_keys, cand_keys, self.sim_sem, self.cross_type_pairs)

    def sim_sem(self, ref_keys: np.ndarray, cand_keys: np.ndarray) -> np.ndarray:
        """Sim_sem (Eq. 2) between the grams (rows of token ids) of one pair of texts, senses aligned
        per section 3.4 against each other."""
        if len(ref_keys) == 0 or len(cand_keys) == 0:
            return np.zeros((len(ref_keys), len(cand_keys)))
        key = _pair_key(ref_keys, cand_keys)
        last = self._last_pair
        if last[0] != key:
            block, rows, columns = self._document([[ref_keys]], [[cand_keys]])[0][key]
            last = self._last_pair = (key, block[np.ix_(rows, columns)])
        return last[1]

    def prepare(self, ref_ids: Sequence[np.ndarray], cand_ids: Sequence[np.ndarray],
                specs: Sequence[GramSpec]) -> list["DocumentSimilarity"]:
        """Sim_LS of the grams of every pair of a reference in ``ref_ids`` and a candidate in ``cand_ids``
        (token-id arrays of one document), one :class:`DocumentSimilarity` per gram kind in ``specs``."""
        if self.beta == 1.0:
            return [DocumentSimilarity(self, {}, self.beta) for _ in specs]
        refs = [[count_grams(spec.grams(ids)).keys for ids in ref_ids] for spec in specs]
        cands = [[count_grams(spec.grams(ids)).keys for ids in cand_ids] for spec in specs]
        return [DocumentSimilarity(self, pairs, self.beta) for pairs in self._document(refs, cands)]

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

    def _document(self, refs: list[list[np.ndarray]], cands: list[list[np.ndarray]]) -> list[dict]:
        """Per gram kind k, ``{pair: (block, rows, columns)}`` for every pair of a reference and a candidate
        whose gram keys are in ``refs[k]`` and ``cands[k]`` (texts without grams are left out; Sim_sem of the
        pair: ``block[np.ix_(rows, columns)]``). The sense matrix is computed once for all kinds, and so is
        one Sim_sem block per reference: ROUGE-G-1's and -2's grams are among SU4's, so when all three are
        asked for, SU4's block holds the other two kinds' pairs too."""
        kinds = []
        for texts_a, texts_b in zip(refs, cands):
            kept_a = [r for r, keys in enumerate(texts_a) if len(keys)]
            kept_b = [j for j, keys in enumerate(texts_b) if len(keys)]
            kinds.append(_Kind(kept_a, kept_b, self._side([texts_a[r] for r in kept_a]),
                               self._side([texts_b[j] for j in kept_b])) if kept_a and kept_b else None)
        present = [k for k in kinds if k]
        if not present:
            return [{} for _ in kinds]
        senses_a = np.unique(np.concatenate([k.side_a.senses for k in present] + [_NONE]))
        senses_b = np.unique(np.concatenate([k.side_b.senses for k in present] + [_NONE]))
        sense_sim = self._sense_matrix(senses_a, senses_b)
        distinct, index_a, index_b = self._seed_sets(present, sense_sim, senses_a, senses_b)
        # One Sim_sem block per reference, over all kinds: the seed sets of its grams (against every candidate)
        # x those of the candidates' grams (against it). A pair's matrix is a sub-block of its reference's.
        rows, cols = [[_NONE] for _ in refs[0]], [[_NONE] for _ in refs[0]]
        for k, ia, ib in zip(present, index_a, index_b):
            for at, r in enumerate(k.kept_a):
                rows[r].append(ia[k.side_a.gram_of[at]].ravel())
                cols[r].append(ib[:, at])
        rows = [np.unique(np.concatenate(parts)) for parts in rows]
        cols = [np.unique(np.concatenate(parts)) for parts in cols]
        vectors = self._vectors(distinct)
        blocks = sim_sem_blocks(vectors, vectors, rows, cols, c=self.c)
        out, i = [], 0
        for kind, texts_a, texts_b in zip(kinds, refs, cands):
            if kind is None:
                out.append({})
                continue
            ia, ib, i = index_a[i], index_b[i], i + 1
            out.append({_pair_key(texts_a[r], texts_b[j]):
                        (blocks[r], np.searchsorted(rows[r], ia[kind.side_a.gram_of[at], bt]),
                         np.searchsorted(cols[r], ib[kind.side_b.gram_of[bt], at]))
                        for at, r in enumerate(kind.kept_a) for bt, j in enumerate(kind.kept_b)})
        return out

    def _seed_sets(self, kinds: list["_Kind"], sense_sim: np.ndarray, senses_a: np.ndarray,
                   senses_b: np.ndarray) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
        """Section 3.4 per kind: each word's sense against each text of the other side, then each gram's seed
        set. Returns the distinct seed sets of all kinds (rows, one width for all) and, per kind, the row of
        each (reference gram, candidate) and each (candidate gram, reference) seed set."""
        seeds = []
        for k in kinds:
            at_a, at_b = np.searchsorted(senses_a, k.side_a.senses), np.searchsorted(senses_b, k.side_b.senses)
            sim = sense_sim[np.ix_(at_a, at_b)]
            seeds.append(self._seeds(k.side_a, self._chosen(k.side_a, _best(sim, k.side_b.text_senses))))
            seeds.append(self._seeds(k.side_b, self._chosen(k.side_b, _best(sim.T, k.side_a.text_senses))))
        width = max(part.shape[2] // 2 for part in seeds)
        flat = [_widen(part, width).reshape(-1, 2 * width) for part in seeds]
        distinct, index = np.unique(np.concatenate(flat), axis=0, return_inverse=True)
        index = np.split(index.ravel(), np.cumsum([len(f) for f in flat])[:-1])
        return (distinct, [index[2 * i].reshape(-1, len(k.kept_b)) for i, k in enumerate(kinds)],
                [index[2 * i + 1].reshape(-1, len(k.kept_a)) for i, k in enumerate(kinds)])

    def _sense_matrix(self, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """Sim_sem between the senses ``rows`` and ``columns`` (rows of ``_ids``), common ones looked up."""
        at_a, in_a = _positions(self._common.senses, rows)
        at_b, in_b = _positions(self._common.senses, columns)
        out = np.empty((len(rows), len(columns)))
        out[np.ix_(in_a, in_b)] = self._common.sim[np.ix_(at_a[in_a], at_b[in_b])]
        out[~in_a] = sim_sem_matrix(self._ids[rows[~in_a]], self._ids[columns], c=self.c)
        out[np.ix_(in_a, ~in_b)] = sim_sem_matrix(self._ids[rows[in_a]], self._ids[columns[~in_b]], c=self.c)
        return out

    def _side(self, texts: list[np.ndarray]) -> "_Side":
        """The grams, words and senses of one side's texts (gram keys)."""
        grams, inverse = np.unique(np.concatenate(texts), axis=0, return_inverse=True)
        gram_of = np.split(inverse.ravel(), np.cumsum([len(t) for t in texts])[:-1])
        words = np.unique(grams)
        words = words[words != PAD]
        word_senses = self._senses_of(words)
        senses, position = np.unique(word_senses.rows, return_inverse=True)
        text_senses = []
        for text in gram_of:
            at = np.searchsorted(words, np.setdiff1d(grams[text], [PAD]))
            counts = word_senses.start[at + 1] - word_senses.start[at]
            text_senses.append(np.unique(position[_ranges(word_senses.start[at], counts)]))
        return _Side(grams, gram_of, words, word_senses, senses, position, text_senses)

    def _chosen(self, side: "_Side", best: np.ndarray) -> np.ndarray:
        """The sense (row of ``_ids``; ``-1``: OOV) of each word of ``side`` against each text of the
        other side, from ``best`` (distinct senses of ``side`` x texts of the other side)."""
        chosen = align_senses(best[side.position], side.word_senses.start)
        return np.where(chosen >= 0, side.word_senses.rows[np.maximum(chosen, 0)] if len(side.position) else -1, -1)

    def _senses_of(self, words: np.ndarray) -> "_Senses":
        counts = self.sense_start[words + 1] - self.sense_start[words]
        return _Senses(self.sense_rows[_ranges(self.sense_start[words], counts)],
                       np.concatenate([[0], np.cumsum(counts)]).astype(np.int64))

    def _seeds(self, side: "_Side", chosen: np.ndarray) -> np.ndarray:
        """Seed set of each gram of ``side`` against each text of the other side (``chosen``: each word's
        sense there): its words' chosen senses, then the stems of its OOV words, each sorted and ``-1``
        padded, as a ``(grams, texts, 2 x width)`` array (a row is the PPR vector's cache key)."""
        grams = side.grams
        pad = grams == PAD
        sense = np.where(pad[:, :, None], -1, chosen[np.searchsorted(side.words, np.where(pad, side.words[0], grams))])
        sense = sense.transpose(0, 2, 1)                                        # (grams, texts, width)
        oov = np.where(pad[:, None, :] | (sense >= 0), -1, self.stem[grams][:, None, :])
        g, t, w = sense.shape
        return np.concatenate([_distinct_sorted(sense.reshape(-1, w)), _distinct_sorted(oov.reshape(-1, w))],
                              axis=1).reshape(g, t, 2 * w)

    def _vectors(self, seeds: np.ndarray) -> np.ndarray:
        width = seeds.shape[1] // 2
        return gram_vectors(self._ids, self._values, seeds[:, :width], seeds[:, width:],
                            oov_offset=self.oov_offset, top=self.top)


class DocumentSimilarity:
    """``Sim_LS`` (Eq. 5) between the grams of the prepared (reference, candidate) pairs of one document,
    from :meth:`GraphSimilarity.prepare`: a gram similarity for the soft-matching core. Pairs it was
    not prepared for are computed alone by its ``GraphSimilarity``."""

    def __init__(self, graph: GraphSimilarity, pairs: dict, beta: float) -> None:
        check_beta(beta)
        self.graph, self.pairs, self.beta = graph, pairs, beta

    def with_beta(self, beta: float) -> "DocumentSimilarity":
        """The same pairs with another exact-match weight (Eq. 5)."""
        return DocumentSimilarity(self.graph, self.pairs, beta)

    def __call__(self, ref_keys: np.ndarray, cand_keys: np.ndarray) -> np.ndarray:
        return _sim_ls(self.graph.stem, self.beta, ref_keys, cand_keys, self.sim_sem, self.graph.cross_type_pairs)

    def sim_sem(self, ref_keys: np.ndarray, cand_keys: np.ndarray) -> np.ndarray:
        """Sim_sem (Eq. 2) between the grams of one pair of texts (see ``GraphSimilarity.sim_sem``)."""
        found = self.pairs.get(_pair_key(ref_keys, cand_keys))
        if found is None:
            return self.graph.sim_sem(ref_keys, cand_keys)
        block, rows, columns = found
        return block[np.ix_(rows, columns)]


def _sim_ls(stem: np.ndarray, beta: float, ref_keys: np.ndarray, cand_keys: np.ndarray, sim_sem,
            cross_type_pairs: bool = False) -> np.ndarray:
    """``beta x Count_match + (1 - beta) x Sim_sem`` (Eq. 5) between the grams; ``Count_match`` compares stems
    (position by position: no (m, c, width) array). Unless ``cross_type_pairs``, a unigram of ROUGE-SU (its
    second position ``PAD``) and a skip-bigram have Sim_LS 0."""
    ref_stems, cand_stems = stem[ref_keys], stem[cand_keys]
    exact = ref_stems[:, None, 0] == cand_stems[None, :, 0]
    for k in range(1, ref_keys.shape[1]):
        exact &= ref_stems[:, None, k] == cand_stems[None, :, k]
    if beta == 1.0 or len(ref_keys) == 0 or len(cand_keys) == 0:
        return exact.astype(np.float64)
    sim = beta * exact + (1.0 - beta) * sim_sem(ref_keys, cand_keys)
    if not cross_type_pairs and ref_keys.shape[1] == 2:
        sim[(ref_keys[:, None, 1] == PAD) != (cand_keys[None, :, 1] == PAD)] = 0.0
    return sim


def _stored_setting(iterations: int, top: int | None) -> tuple[int, int | None]:
    """The PPR setting whose vectors to read for ``iterations`` and ``top``: a vector stopped after fewer
    iterations than ``ITERATIONS`` is a prefix of the default's along the iterations (each iteration is
    exact), and one cut to fewer entries than ``TOP`` is a prefix along the entries (ranked by mass, ties
    by node id), so those settings read the default's cache and slice it instead of computing their own."""
    if top is None:
        return iterations, None
    return max(iterations, ITERATIONS), max(top, TOP)


def check_beta(beta: float) -> None:
    if not 0.0 <= beta <= 1.0:
        raise InputError(f"beta must be in [0, 1], got {beta}")


class _CommonSenses(NamedTuple):
    """Senses shared by many documents (sorted rows of ``_ids``) and Sim_sem between them."""

    senses: np.ndarray
    sim: np.ndarray


class _Senses(NamedTuple):
    """Senses of a list of words: word ``i`` has rows ``rows[start[i]:start[i + 1]]``."""

    rows: np.ndarray
    start: np.ndarray


class _Kind(NamedTuple):
    """One gram kind of a document: the references and candidates with grams of that kind, and both sides."""

    kept_a: list[int]             # references with grams (their positions in the document)
    kept_b: list[int]             # candidates with grams
    side_a: "_Side"
    side_b: "_Side"


class _Side(NamedTuple):
    """One side (references or candidates) of a document."""

    grams: np.ndarray             # distinct grams of its texts (rows of token ids)
    gram_of: list[np.ndarray]     # per text, the row in ``grams`` of each of its grams
    words: np.ndarray             # distinct words, ascending
    word_senses: _Senses          # their senses, grouped by word
    senses: np.ndarray            # distinct senses (rows of ``_ids``), ascending: the sense matrix's axis
    position: np.ndarray          # position in ``senses`` of each of ``word_senses.rows``
    text_senses: list[np.ndarray]  # per text, the positions in ``senses`` of its words' senses


def _best(sense_sim: np.ndarray, texts: list[np.ndarray]) -> np.ndarray:
    """Per sense (row) and text of the other side: the largest Sim_sem to any sense of that text (0 if none)."""
    return np.stack([sense_sim[:, senses].max(axis=1, initial=0.0) for senses in texts], axis=1)


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


def _widen(seeds: np.ndarray, width: int) -> np.ndarray:
    """Seed sets ``(..., 2 w)`` (senses, then OOV stems, each half ``-1`` first) as ``(..., 2 x width)``: each half
    padded with ``-1`` in front, so one seed set has one row whatever its kind's gram width."""
    half = seeds.shape[-1] // 2
    pad = np.full(seeds.shape[:-1] + (width - half,), -1, dtype=np.int64)
    return np.concatenate([pad, seeds[..., :half], pad, seeds[..., half:]], axis=-1)


def _distinct_sorted(x: np.ndarray) -> np.ndarray:
    """Each row's distinct non-negative values, ascending, ``-1`` first in place of the rest."""
    x = np.sort(x, axis=1)
    repeated = np.zeros_like(x, dtype=bool)
    repeated[:, 1:] = x[:, 1:] == x[:, :-1]
    x[repeated] = -1
    return np.sort(x, axis=1)


_NONE = np.zeros(0, dtype=np.int64)


def _pair_key(ref_keys: np.ndarray, cand_keys: np.ndarray) -> tuple:
    return ref_keys.shape[1], ref_keys.tobytes(), cand_keys.tobytes()

