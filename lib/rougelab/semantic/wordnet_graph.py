"""WordNet 3.0 as an undirected graph over synsets (ShafieiBavani et al. 2018, section 3.1).

WordNet is read with NLTK's ``WordNetCorpusReader`` from the Debian packages ``wordnet-base``
and ``wordnet-sense-index`` (``/usr/share/wordnet``; ``$ROUGELAB_WORDNET`` or ``dict_dir``
point elsewhere). Debian ships no ``lexnames`` file, which NLTK needs; ours sits next to this
module, written from the WordNet ``lexnames(5WN)`` specification.

Nodes are synsets, keyed ``"<8-digit offset>-<pos>"`` with pos in ``n v a r`` (adjective
satellites under ``a``, as in the ``data.adj`` file they live in). Edges: every semantic and
lexical pointer of every type, made undirected and unweighted (section 3.1: "we do not use these
types"). Optional gloss links stand in for the disambiguated-gloss enrichment of Pilehvar and
Navigli (2015), whose corpus is not available here: each content word of a synset's definition
(ROUGE tokenisation, SMART stopwords removed) links the synset to the word's most frequent sense
over all parts of speech, by the tagged counts of ``index.sense`` (ties and untagged words: the
first sense in WordNet's order, nouns before verbs, adjectives, adverbs).

The graph is built once (about 10 s without gloss links) and stored as a sparse matrix in
``paths.cache_dir("wordnet")``, an entry of the cache store (``rougelab.cache_store``) keyed by the SHA-256
of the WordNet files, the options, this module's code and the versions of ``PACKAGES``.
"""
from __future__ import annotations

import functools
import hashlib
import io
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from rougelab.cache_store import Maker, entry_file, save
from rougelab.fingerprint import file_digest
from rougelab.paths import cache_dir
from rougelab.warn import warn

WORDNET_PACKAGES = ("wordnet-base", "wordnet-sense-index")
DEFAULT_DICT_DIR = Path("/usr/share/wordnet")
LEXNAMES = Path(__file__).with_name("lexnames")
# Bump when the graph built from the same files would change.
GRAPH_FORMAT = "rougelab-wordnet-graph-2"
_NEEDED_FILES = ("data.noun", "data.verb", "data.adj", "data.adv", "index.noun", "index.verb",
                 "index.adj", "index.adv", "index.sense", "cntlist.rev", "noun.exc", "verb.exc",
                 "adj.exc", "adv.exc")
_FILE_POS = {"n": "n", "v": "v", "a": "a", "s": "a", "r": "r"}
PACKAGES = ("nltk", "numpy", "scipy")  # third-party code that reads WordNet and builds the graph


class WordNetMissing(FileNotFoundError):
    """The WordNet 3.0 database is not where we looked."""


def wordnet_dir(dict_dir: str | os.PathLike | None = None) -> Path:
    """The WordNet dict folder: ``dict_dir``, else ``$ROUGELAB_WORDNET``, else Debian's."""
    path = Path(dict_dir or os.environ.get("ROUGELAB_WORDNET") or DEFAULT_DICT_DIR)
    missing = [name for name in _NEEDED_FILES if not (path / name).is_file()]
    if missing:
        raise WordNetMissing(
            f"WordNet 3.0 files missing in {path}: {', '.join(missing)}. Install them with "
            f"`apt-get install -y {' '.join(WORDNET_PACKAGES)}` (Debian/Ubuntu), or point "
            "$ROUGELAB_WORDNET (or dict_dir=) at a WordNet 3.0 'dict' folder.")
    return path


def _reader_class():
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class DebianWordNetReader(WordNetCorpusReader):
        """NLTK's reader, with our ``lexnames`` and without the OMW version mapping."""

        def open(self, file):
            if file == "lexnames":
                return io.open(LEXNAMES, encoding="utf8")
            return super().open(file)

        def map_wn(self, version="wordnet"):
            return None  # we are WordNet 3.0; the mapping only serves multilingual (OMW) data

    return DebianWordNetReader


@functools.lru_cache(maxsize=4)
def load_wordnet(dict_dir: str | os.PathLike | None = None):
    """NLTK's ``WordNetCorpusReader`` over the WordNet 3.0 dict folder (see ``wordnet_dir``)."""
    import nltk.data

    path = wordnet_dir(dict_dir)
    # NLTK only opens files under its data path: authorise the WordNet folder explicitly.
    if str(path) not in nltk.data.path:
        nltk.data.path.append(str(path))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The multilingual functions")
        return _reader_class()(str(path), None)


def synset_key(synset) -> str:
    """Our node key of an NLTK synset: ``"<offset:08d>-<pos>"`` (satellites under ``a``)."""
    return f"{synset.offset():08d}-{_FILE_POS[synset.pos()]}"


def _files_hash(path: Path) -> str:
    """SHA-256 over each WordNet file's name and digest (64 hex digits: one file cannot run into the next)."""
    digest = hashlib.sha256()
    for name in _NEEDED_FILES:
        digest.update(name.encode() + b"\0" + file_digest(path / name).encode())
    digest.update(file_digest(LEXNAMES).encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class WordNetGraph:
    """Undirected synset graph: ``adjacency`` is a symmetric 0/1 CSR matrix over ``nodes``."""

    adjacency: sp.csr_matrix
    nodes: np.ndarray
    gloss_links: bool
    wordnet_hash: str
    _index: dict = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "_index", {key: i for i, key in enumerate(self.nodes.tolist())})

    @property
    def n_nodes(self) -> int:
        return self.adjacency.shape[0]

    @property
    def n_edges(self) -> int:
        return int(self.adjacency.nnz // 2)

    def index_of(self, key: str) -> int:
        """Row of the node with key ``"<offset>-<pos>"`` (``KeyError`` if absent)."""
        return self._index[key]

    @property
    def signature(self) -> str:
        return f"wordnet:3.0-{self.wordnet_hash[:12]}|gloss:{self.gloss_links}|{GRAPH_FORMAT}"


def wordnet_signature(dict_dir=None) -> str:
    """Pins the WordNet files (content hash) and the graph format, for metric signatures."""
    return f"wordnet:3.0-{_files_hash(wordnet_dir(dict_dir))[:12]}|{GRAPH_FORMAT}"


def _sense_counts(path: Path) -> dict[str, int]:
    """Tagged count of each sense key, from ``index.sense`` (its fourth field)."""
    counts = {}
    with open(path / "index.sense", encoding="utf8") as handle:
        for line in handle:
            fields = line.split()
            counts[fields[0]] = int(fields[3])
    return counts


def most_frequent_sense(wordnet, word: str, counts: dict[str, int]):
    """The synset of ``word`` (any part of speech, inflections through NLTK's morphy) whose lemma for
    the word has the highest ``index.sense`` count.

    Ties, including words with no tagged sense, go to the first in WordNet's order (nouns, verbs,
    adjectives, adverbs; sense numbers ascending). ``None`` for a word WordNet lacks.
    """
    forms = {word} | {wordnet.morphy(word, pos) for pos in "nvar"}
    best, best_count = None, -1
    for synset in wordnet.synsets(word):
        count = max((counts.get(lemma.key(), 0) for lemma in synset.lemmas() if lemma.name().lower() in forms),
                    default=0)
        if count > best_count:
            best, best_count = synset, count
    return best


def _gloss_words(definition: str) -> list[str]:
    from rougelab.text import tokenize

    return tokenize(definition, stem=False, stopwords=True)


def build_graph(wordnet=None, *, gloss_links: bool = True, dict_dir=None) -> WordNetGraph:
    """Build the synset graph from a WordNet reader (``load_wordnet(dict_dir)`` by default)."""
    path = wordnet_dir(dict_dir)
    wordnet = wordnet or load_wordnet(dict_dir)
    synsets = list(wordnet.all_synsets())
    keys = [synset_key(s) for s in synsets]
    index = {key: i for i, key in enumerate(keys)}
    rows, cols = [], []
    for i, synset in enumerate(synsets):
        targets = set()
        for pointers in synset._pointers.values():  # semantic pointers, every type
            targets.update(pointers)
        for pointers in synset._lemma_pointers.values():  # lexical pointers, every type
            targets.update((pos, offset) for pos, offset, _ in pointers)
        for pos, offset in targets:
            rows.append(i)
            cols.append(index[f"{offset:08d}-{_FILE_POS[pos]}"])
    if gloss_links:
        counts = _sense_counts(path)
        sense_of = {}
        for i, synset in enumerate(synsets):
            for word in set(_gloss_words(synset.definition())):
                if word not in sense_of:
                    sense_of[word] = most_frequent_sense(wordnet, word, counts)
                if sense_of[word] is not None:
                    rows.append(i)
                    cols.append(index[synset_key(sense_of[word])])
    n = len(keys)
    edges = sp.coo_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(n, n))
    adjacency = (edges + edges.T).tocsr()
    adjacency.setdiag(0)
    adjacency.eliminate_zeros()
    adjacency.data[:] = 1.0
    adjacency.sort_indices()
    return WordNetGraph(adjacency, np.array(keys), gloss_links, _files_hash(path))


def load_graph(*, gloss_links: bool = True, dict_dir=None) -> WordNetGraph:
    """The cached graph (built and stored on first use; later loads take well under a second)."""
    path = wordnet_dir(dict_dir)
    wordnet_hash = _files_hash(path)
    maker = Maker(f"wordnet:{wordnet_hash[:12]}|gloss:{gloss_links}|{GRAPH_FORMAT}", modules=(__name__,),
                  packages=PACKAGES, resources=(*(path / name for name in _NEEDED_FILES), LEXNAMES))
    target = entry_file(cache_dir("wordnet"), "graph", maker, ".npz")
    if target.exists():
        try:
            with np.load(target, allow_pickle=False) as stored:
                n = len(stored["nodes"])
                adjacency = sp.csr_matrix(
                    (np.ones(len(stored["indices"]), dtype=np.float32), stored["indices"], stored["indptr"]),
                    shape=(n, n))
                return WordNetGraph(adjacency, stored["nodes"], gloss_links, wordnet_hash)
        except (OSError, ValueError, KeyError) as error:
            warn(f"rebuilding the WordNet graph: cached {target} is unreadable ({error})")
    graph = build_graph(load_wordnet(dict_dir), gloss_links=gloss_links, dict_dir=dict_dir)
    save(target, lambda out: np.savez(out, indptr=graph.adjacency.indptr, indices=graph.adjacency.indices,
                                      nodes=graph.nodes), maker)
    return graph
