"""The word-vector conversion cache is keyed by the file's hash and the code fingerprint, with a record."""
from rougelab import cache_admin, cache_store
from rougelab.semantic import word_vectors
from rougelab.semantic.word_vectors import load_word_vectors


def test_conversion_cache_follows_the_code(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "glove.txt"
    path.write_text("rain 1.0 2.0\n")
    load_word_vectors(path)
    folders = list((tmp_path / "cache" / "word_vectors").iterdir())
    assert len(folders) == 1 and (folders[0] / "_meta.json").exists()
    assert [e.stale for e in cache_admin.entries("word_vectors")] == [False]
    word_vectors._from_path.cache_clear()
    monkeypatch.setattr(cache_store, "code_fingerprint", lambda *modules: "other-code")
    assert load_word_vectors(path).lookup(["rain"])[0].tolist() == [[1.0, 2.0]]
    assert len(list((tmp_path / "cache" / "word_vectors").iterdir())) == 2   # other code: converted again
    word_vectors._from_path.cache_clear()
