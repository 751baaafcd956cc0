"""The WordNet 3.0 synset graph (ShafieiBavani et al. 2018, section 3.1) and our lexnames file."""
import pytest

from rougelab.semantic import wordnet_graph as wg


def _has_wordnet() -> bool:
    try:
        wg.wordnet_dir()
        return True
    except wg.WordNetMissing:
        return False


needs_wordnet = pytest.mark.skipif(not _has_wordnet(), reason="apt-get install wordnet-base wordnet-sense-index")


def test_lexnames_follows_the_wordnet_spec():
    # lexnames(5WN): 45 files numbered 00-44, three tab-separated fields, category 1-4 by name
    lines = wg.LEXNAMES.read_text().splitlines()
    assert len(lines) == 45
    category = {"noun": "1", "verb": "2", "adj": "3", "adv": "4"}
    for i, line in enumerate(lines):
        number, name, cat = line.split("\t")
        assert number == f"{i:02d}" and cat == category[name.split(".")[0]]
    assert lines[3].split("\t")[1] == "noun.Tops" and lines[44].split("\t")[1] == "adj.ppl"


def test_missing_wordnet_names_the_packages(tmp_path):
    with pytest.raises(wg.WordNetMissing, match="wordnet-base wordnet-sense-index"):
        wg.wordnet_dir(tmp_path)


@needs_wordnet
def test_nltk_reader_reads_debian_wordnet():
    wn = wg.load_wordnet()
    dog = wn.synset("dog.n.01")
    assert dog.lexname() == "noun.animal"                 # through our lexnames file
    assert wn.get_version() == "3.0"
    assert wg.synset_key(dog) == "02084071-n"               # the offset WordNet 3.0 gives dog.n.01


@needs_wordnet
def test_most_frequent_sense_by_sense_index_counts():
    wn = wg.load_wordnet()
    counts = wg._sense_counts(wg.wordnet_dir())
    assert wg.most_frequent_sense(wn, "dog", counts).name() == "dog.n.01"
    assert wg.most_frequent_sense(wn, "walked", counts).pos() == "v"   # verb senses outnumber nouns
    assert wg.most_frequent_sense(wn, "qwzx", counts) is None


@needs_wordnet
def test_graph_without_gloss_links():
    graph = wg.load_graph(gloss_links=False)
    wn = wg.load_wordnet()
    a = graph.adjacency
    assert a.shape == (117659, 117659)
    assert (a != a.T).nnz == 0 and a.diagonal().sum() == 0          # undirected, no self loops
    dog, canine = graph.index_of("02084071-n"), graph.index_of(wg.synset_key(wn.synset("canine.n.02")))
    assert a[dog, canine] == 1                                        # hypernymy
    good, bad = (graph.index_of(wg.synset_key(wn.synset(s))) for s in ("good.a.01", "bad.a.01"))
    assert a[good, bad] == 1                                          # antonymy (a lexical pointer)
    again = wg.load_graph(gloss_links=False)                         # from the cache
    assert (again.adjacency != a).nnz == 0 and (again.nodes == graph.nodes).all()


@pytest.mark.slow
@needs_wordnet
def test_gloss_links_only_add_edges():
    plain = wg.load_graph(gloss_links=False).adjacency
    enriched = wg.load_graph(gloss_links=True).adjacency
    assert (plain.multiply(enriched) != plain).nnz == 0
    assert enriched.nnz > 3 * plain.nnz
    assert wg.load_graph(gloss_links=True).signature != wg.load_graph(gloss_links=False).signature


def test_the_wordnet_hash_tells_file_contents_from_file_names(tmp_path):
    """data.noun ``ndata.verbx`` with an empty data.verb, and data.noun ``n`` with data.verb ``xdata.verb``,
    are different WordNets; hashing each name and its bytes end to end gave both the bytes
    ``data.noun ndata.verbx data.verb`` (without spaces), so one hash."""
    one, two = tmp_path / "one", tmp_path / "two"
    for folder in (one, two):
        folder.mkdir()
        for name in wg._NEEDED_FILES:
            (folder / name).write_bytes(b"")
    (one / "data.noun").write_bytes(b"ndata.verbx")
    (two / "data.noun").write_bytes(b"n")
    (two / "data.verb").write_bytes(b"xdata.verb")
    assert wg._files_hash(one) != wg._files_hash(two)
