"""ROUGE-G (ShafieiBavani et al. 2018, Eqs. 4-5) on the soft-matching core."""
import random

import numpy as np
import pytest

from rougelab.metrics.base import InputError
from rougelab.metrics.registry import get_metric
from rougelab.metrics.rouge_g import GraphSimilarity, rouge_g
from rougelab.semantic.wordnet_graph import WordNetMissing, wordnet_dir

try:
    wordnet_dir()
    HAS_WORDNET = True
except WordNetMissing:
    HAS_WORDNET = False
needs_wordnet = pytest.mark.skipif(not HAS_WORDNET, reason="apt-get install wordnet-base wordnet-sense-index")
FAST = {"gloss_links": False}   # the plain graph builds in seconds; the default (gloss) one is tested in the notebook

WORDS = "the a cat cats dog dogs sat sits on mat mats running runs ran house houses city town walk".split()


def _text(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def test_beta_one_is_rouge_155():
    # beta = 1 leaves only Count_match: ROUGE-1.5.5 with -m and -f A, computed by rougelab.rouge
    from rougelab.rouge import rouge

    rng = random.Random(7)
    summaries = [_text(rng, rng.randint(1, 14)) for _ in range(25)]
    references = [[_text(rng, rng.randint(1, 14)) for _ in range(rng.randint(1, 3))] for _ in range(25)]
    ours = rouge_g(summaries, references, beta=1.0)
    classic = rouge(summaries, references, measures=["rouge-1", "rouge-2", "rouge-su4"], stem=True,
                    multiref="A", perl_round_before_f=False)
    for measure, col in (("rouge1", "rougeg1"), ("rouge2", "rougeg2"), ("rougesu4", "rougegsu4")):
        for k in "rpf":
            np.testing.assert_allclose(ours[f"{col}_{k}"], classic[f"{measure}_{k}"], atol=1e-12)


@needs_wordnet
def test_paper_example_gains_over_rouge_and_stays_in_unit_interval():
    # section 1: "They strolled around the city." vs "They took a walk to explore the town."
    peer, model = "They strolled around the city.", "They took a walk to explore the town."
    semantic = rouge_g([peer], [[model]], measures=["rouge-g-1", "rouge-g-2"], **FAST).iloc[0]
    lexical = rouge_g([peer], [[model]], measures=["rouge-g-1", "rouge-g-2"], beta=1.0).iloc[0]
    assert lexical["rougeg1_r"] == pytest.approx(2 / 8)      # "they", "the"
    assert lexical["rougeg2_r"] == 0.0
    for col in ("rougeg1_r", "rougeg1_p", "rougeg2_r", "rougeg2_p"):
        assert lexical[col] < semantic[col] <= 1.0


@needs_wordnet
def test_identical_and_empty_texts():
    text = "The cat sat on the mat near the city hall."
    table = rouge_g([text, "", text], [[text], [text], [""]], **FAST)
    np.testing.assert_allclose(table.iloc[0].to_numpy(), 1.0)   # identical: Sim_LS = 1 for every pair
    np.testing.assert_allclose(table.iloc[1].to_numpy(), 0.0)   # empty summary scores 0
    np.testing.assert_allclose(table.iloc[2].to_numpy(), 0.0)   # empty reference scores 0


@needs_wordnet
def test_oov_words_match_only_themselves():
    # "zorbl" and "quaxt" are not in WordNet: each is one extra dimension of mass 0.5 (section 3.5)
    same = rouge_g(["zorbl"], [["zorbl"]], measures=["rouge-g-1"], **FAST).iloc[0]
    other = rouge_g(["zorbl"], [["quaxt"]], measures=["rouge-g-1"], **FAST).iloc[0]
    mixed = rouge_g(["zorbl city"], [["zorbl town"]], measures=["rouge-g-2"], **FAST).iloc[0]
    assert same["rougeg1_f"] == pytest.approx(1.0)
    assert other["rougeg1_f"] == 0.0
    assert 0.0 < mixed["rougeg2_f"] < 1.0                  # bigrams share the OOV word and related nouns


@needs_wordnet
def test_sim_ls_matrix_is_beta_mix_and_symmetric_in_sim_sem():
    tokens = ["city", "town", "dress", "zorbl"]
    sim = GraphSimilarity(tokens, beta=0.5, **FAST)
    keys = np.array([[0], [1], [2], [3]])
    sem = sim.sim_sem(keys, keys)
    np.testing.assert_allclose(sem, sem.T, atol=1e-12)
    np.testing.assert_allclose(np.diag(sem), 1.0)
    assert ((sem >= 0) & (sem <= 1)).all()
    assert sem[0, 1] > sem[0, 2]                            # city ~ town more than city ~ dress
    np.testing.assert_allclose(sim(keys, keys), 0.5 * np.eye(4) + 0.5 * sem)


@needs_wordnet
def test_registry_and_signature():
    metric = get_metric("rouge-g-2")
    assert metric.primary == "rougeg2_r"                    # Eq. 4 is a recall; F has its own name
    assert get_metric("rouge-g-2-f").primary == "rougeg2_f" and "cross_type_pairs:False" in metric.signature
    for option in ("beta:0.5", "c:0.7", "top:100", "gloss_links:True", "wordnet:3.0-"):
        assert option in metric.signature
    table = metric.score(["the city"], [["the city"]])
    assert list(table.columns) == ["rougeg2_r", "rougeg2_p", "rougeg2_f"]
    assert table.iloc[0]["rougeg2_f"] == pytest.approx(1.0)


def test_bad_options_raise():
    with pytest.raises(InputError, match="beta"):
        rouge_g(["a"], [["a"]], beta=1.5)
    with pytest.raises(InputError, match="unknown ROUGE-G measure"):
        rouge_g(["a"], [["a"]], measures=["rouge-g-3"])
    with pytest.raises(InputError, match="references"):
        get_metric("rouge-g-1").score(["a", "b"], [["a"]])


@needs_wordnet
def test_beta_sweep_equals_separate_runs():
    from rougelab.metrics.rouge_g import rouge_g_beta_sweep

    summaries = ["They strolled around the city.", "A dog sat on the mat."]
    references = [["They took a walk to explore the town."], ["The cat sat on a rug.", "A dog lay there."]]
    sweep = rouge_g_beta_sweep(summaries, references, [0.0, 0.5, 1.0], measures=["rouge-g-1", "rouge-g-2"], **FAST)
    for beta, table in sweep.items():
        alone = rouge_g(summaries, references, beta=beta, measures=["rouge-g-1", "rouge-g-2"], **FAST)
        np.testing.assert_allclose(table.to_numpy(), alone.to_numpy(), atol=1e-12)


@needs_wordnet
def test_path_based_similarity_of_synsets():
    from rougelab.semantic.synsets import synset_similarity

    table = synset_similarity([("city.n.01", "city.n.01"), ("city.n.01", "town.n.01"), ("city.n.01", "dress.n.01")],
                              **FAST)
    assert table["sim_sem"].iloc[0] == pytest.approx(1.0) and table["rw_final"].iloc[0] == pytest.approx(1.0)
    assert table["sim_sem"].iloc[1] > table["sim_sem"].iloc[2] >= 0.0


def _sim_sem_pair_by_definition(sim, ref_keys, cand_keys):
    """Sim_sem of one pair of texts, straightforwardly (sections 3.4-3.5, Eq. 2): each word of one text
    takes its sense most similar to any sense of the other text; a gram's seed set is its words' chosen
    senses plus its OOV words' stems; Sim_sem compares the seed sets' PPR vectors."""
    from rougelab.rouge.grams import PAD
    from rougelab.semantic.gram_vectors import gram_vectors
    from rougelab.semantic.semantic_similarity import sim_sem_matrix

    def senses(word):
        return [int(s) for s in sim.sense_rows[sim.sense_start[word]:sim.sense_start[word + 1]]]

    def chosen(keys, other_keys):
        other = sorted({s for w in other_keys.ravel() if w != PAD for s in senses(w)})
        out = {}
        for w in {int(w) for w in keys.ravel() if w != PAD}:
            if senses(w):
                best = [sim_sem_matrix(sim._ids[[s]], sim._ids[other]).max(initial=0.0) for s in senses(w)]
                out[w] = senses(w)[best.index(max(best))]
        return out

    def vectors(keys, choice):
        seeds = [sorted({choice[w] for w in gram if w in choice}) for gram in keys.tolist()]
        oov = [sorted({int(sim.stem[w]) for w in gram if w != PAD and w not in choice}) for gram in keys.tolist()]
        width = keys.shape[1]
        pad = [[-1] * (width - len(s)) + s for s in seeds], [[-1] * (width - len(o)) + o for o in oov]
        return gram_vectors(sim._ids, sim._values, pad[0], pad[1], oov_offset=sim.oov_offset, top=sim.top)

    return sim_sem_matrix(vectors(ref_keys, chosen(ref_keys, cand_keys)),
                          vectors(cand_keys, chosen(cand_keys, ref_keys)), c=sim.c)


@needs_wordnet
def test_prepared_documents_equal_pair_by_pair_definition():
    # Sim_sem of one document's gram pairs, prepared for all kinds at once with the sense-level entries
    # of senses common to many documents shared, equals the pair-by-pair definition bit for bit.
    from rougelab.metrics.soft_rouge import GramSpec
    from rougelab.scoring import count_grams
    from rougelab.text.token_ids import TokenIndex
    from rougelab.text import tokenize

    rng = random.Random(3)
    index = TokenIndex()
    ids = [index.ids(tokenize(_text(rng, rng.randint(2, 12)) + " zorbl" * (i % 2))) for i in range(7)]
    ids.append(index.ids(tokenize("cat")))                    # no bigram: left out of the bigram pairs
    refs, cands = ids[:3], ids[3:]
    specs = [GramSpec(n=1), GramSpec(n=2), GramSpec(skip=4, unigrams=True)]
    sim = GraphSimilarity(index.tokens, **FAST)
    sim.share_common_senses([ids] * 10)
    assert len(sim._common.senses) > 0                         # the shared path is the one exercised
    for spec, prepared in zip(specs, sim.prepare(refs, cands, specs)):
        keys = [count_grams(spec.grams(t)).keys for t in ids]
        for i in range(3):
            for j in range(3, 8):
                if len(keys[i]) and len(keys[j]):
                    expected = _sim_sem_pair_by_definition(sim, keys[i], keys[j])
                    assert np.array_equal(prepared.sim_sem(keys[i], keys[j]), expected)
                    assert np.array_equal(sim.sim_sem(keys[i], keys[j]), expected)   # the pair alone
                    np.testing.assert_array_equal(prepared(keys[i], keys[j]), sim(keys[i], keys[j]))


@needs_wordnet
def test_scores_do_not_depend_on_threads():
    import numba

    rng = random.Random(5)
    summaries = [_text(rng, rng.randint(3, 12)) for _ in range(12)]
    references = [[_text(rng, 9), _text(rng, 7)] if i % 3 else [_text(rng, 5)] for i in range(12)]
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        alone = rouge_g(summaries, references, **FAST)
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(rouge_g(summaries, references, **FAST).to_numpy(), alone.to_numpy())


@needs_wordnet
def test_measures_in_one_call_equal_each_alone():
    # In one call the three kinds share each reference's Sim_sem block (SU4's grams hold ROUGE-G-1's and
    # -2's); every score equals the one computed with its kind alone, bit for bit.
    rng = random.Random(7)
    summaries = [_text(rng, rng.randint(1, 12)) + " zorbl" * (i % 3 == 0) for i in range(8)]
    references = [[_text(rng, 9), _text(rng, 1), "cat"]] * 4 + [[_text(rng, 6), _text(rng, 11)]] * 4
    together = rouge_g(summaries, references, **FAST)
    for measure in ("rouge-g-1", "rouge-g-2", "rouge-g-su4"):
        alone = rouge_g(summaries, references, measures=[measure], **FAST)
        assert np.array_equal(together[alone.columns].to_numpy(), alone.to_numpy())


@needs_wordnet
def test_su4_pairs_like_with_like_unless_cross_type_pairs():
    from rougelab.rouge.grams import PAD

    tokens = ["city", "town", "hall"]
    keys_ref = np.array([[0, PAD], [1, 2]])                   # unigram "city", skip-bigram "town hall"
    keys_cand = np.array([[1, PAD], [0, 2]])                  # unigram "town", skip-bigram "city hall"
    like = GraphSimilarity(tokens, **FAST)(keys_ref, keys_cand)
    cross = GraphSimilarity(tokens, cross_type_pairs=True, **FAST)(keys_ref, keys_cand)
    assert like[0, 1] == like[1, 0] == 0.0 and cross[0, 1] > 0 and cross[1, 0] > 0
    np.testing.assert_array_equal(np.diag(like), np.diag(cross))
    rng = random.Random(3)
    summaries = [_text(rng, rng.randint(2, 6)) for _ in range(12)]
    references = [[_text(rng, rng.randint(2, 6))] for _ in range(12)]
    default = rouge_g(summaries, references, measures=["rouge-g-su4"], **FAST)
    assert default.equals(rouge_g(summaries, references, measures=["rouge-g-su4"], cross_type_pairs=False, **FAST))
    crossed = rouge_g(summaries, references, measures=["rouge-g-su4"], cross_type_pairs=True, **FAST)
    assert (crossed != default).any(axis=None)


@needs_wordnet
def test_full_vectors_give_eq2_on_the_untruncated_walks():
    # top=None: Sim_sem of two senses is Eq. 2 over their complete PPR vectors, written out here with dense
    # vectors from personalized_pagerank and RW (Eq. 3) of each iteration; the truncated default differs.
    from rougelab.semantic.pagerank import personalized_pagerank, seed_matrix, transition_matrix
    from rougelab.semantic.semantic_similarity import iteration_weights, rank_and_weight, sim_sem_matrix
    from rougelab.semantic.wordnet_graph import synset_key
    from rougelab.semantic.wordnet_ppr import wordnet_ppr

    graph, full, wordnet = wordnet_ppr(False, top=None)
    senses = [graph.index_of(synset_key(wordnet.synset(name))) for name in ("city.n.01", "town.n.01")]
    walks = [list(personalized_pagerank(transition_matrix(graph.adjacency), seed_matrix([[s]], graph.n_nodes)))
             for s in senses]
    weights = iteration_weights(len(walks[0]) - 1)
    expected = sum(w * rank_and_weight(a[:, 0], b[:, 0]) for w, a, b in zip(weights, *walks))
    vectors = full.vectors(senses).ids
    assert sim_sem_matrix(vectors[:1], vectors[1:])[0, 0] == pytest.approx(expected, rel=1e-9)
    truncated = wordnet_ppr(False)[1].vectors(senses).ids
    assert sim_sem_matrix(truncated[:1], truncated[1:])[0, 0] != pytest.approx(expected, rel=1e-3)
    exact = rouge_g(["city"], [["town"]], measures=["rouge-g-1"], top=None, **FAST)["rougeg1_r"].item()
    cut = rouge_g(["city"], [["town"]], measures=["rouge-g-1"], **FAST)["rougeg1_r"].item()
    assert 0 < exact < 1 and exact != cut
    with pytest.raises(InputError, match="top=None keeps every PPR entry"):
        rouge_g(["they took a walk to explore the town and the city"], [["a run set take"]], top=None, **FAST)
    with pytest.raises(InputError, match="top must be"):
        rouge_g(["a"], [["a"]], top=0, **FAST)


@needs_wordnet
def test_smaller_top_or_fewer_iterations_read_the_default_cache(tmp_path):
    # top < TOP and iterations < ITERATIONS slice the default's vectors: the same numbers as their own cache
    from rougelab.semantic.pagerank import PPRCache, transition_matrix
    from rougelab.semantic.wordnet_ppr import wordnet_ppr

    graph = wordnet_ppr(False)[0]
    tokens = ["city", "town", "walk", "xyzzy"]
    for i, options in enumerate(({"top": 40}, {"iterations": 7}, {"top": 25, "iterations": 12})):
        sliced = GraphSimilarity(tokens, **options, **FAST)
        (tmp_path / str(i)).mkdir()
        own = PPRCache(transition_matrix(graph.adjacency), "test", top=options.get("top", 100),
                       iterations=options.get("iterations", 20), folder=tmp_path / str(i))
        direct = own.vectors(sorted(set(_senses(graph, tokens))))   # GraphSimilarity's rows: the senses, sorted
        np.testing.assert_array_equal(sliced._ids, direct.ids)
        np.testing.assert_array_equal(sliced._values, direct.values)
    with pytest.raises(InputError, match="iterations"):
        rouge_g(["a"], [["a"]], iterations=-1, **FAST)


def _senses(graph, tokens):
    from rougelab.semantic.wordnet_graph import load_wordnet, synset_key

    wordnet = load_wordnet()
    return [graph.index_of(synset_key(s)) for t in tokens for s in wordnet.synsets(t)]
