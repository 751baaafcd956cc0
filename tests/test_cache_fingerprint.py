"""Caches follow the code: the code fingerprint and resource digests are in every key; `rougelab cache`."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from rougelab import cache_admin, cache_store, fingerprint, score_cache
from rougelab.cli import main
from rougelab.metrics.base import InputError, Metric
from rougelab.metrics.registry import get_metric
from rougelab.paths import CacheError, cache_dir

LIB = Path(__file__).resolve().parents[1] / "lib"
SCORE_ONE = """
from rougelab.metrics.registry import get_metric
from rougelab.score_cache import cached_score
table = cached_score(get_metric("rouge-1"), ["the cat sat on the mat"], [["the cat lay on a mat"]])
print(repr(float(table["rouge1_f"][0])))
"""
# The last step of R/P/F (``rougelab.scoring.with_f``, which the compiled kernels call too): F rounded.
KERNEL_LINE = "round_decimals(f, round_digits) if round_digits is not None else f"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path / "cache"))


def _score_with(lib: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(lib), "ROUGELAB_NO_NUMBA": "1"}
    done = subprocess.run([sys.executable, "-c", SCORE_ONE], env=env, capture_output=True, text=True, check=True)
    return float(done.stdout.strip())


def test_an_edited_kernel_misses_the_cache(tmp_path):
    copy = tmp_path / "lib"
    shutil.copytree(LIB, copy, ignore=shutil.ignore_patterns("__pycache__"))
    kernels = [p for p in copy.rglob("*.py") if KERNEL_LINE in p.read_text()]
    assert len(kernels) == 1, kernels
    kernels[0].write_text(kernels[0].read_text().replace(KERNEL_LINE, f"0.5 * ({KERNEL_LINE})"))

    original = _score_with(LIB)
    files = sorted(cache_dir("scores").glob("*.npy"))
    assert original == 0.66667 and len(files) == 1   # R = P = 4/6 (the, cat, on, mat), 5 decimals
    assert _score_with(LIB) == original and sorted(cache_dir("scores").glob("*.npy")) == files  # a hit
    assert _score_with(copy) == pytest.approx(original / 2)       # the edited code misses, new number
    assert len(list(cache_dir("scores").glob("*.npy"))) == 2
    assert cache_admin.info()[0]["stale"] == 1  # the edited copy made one entry this code would not


def test_signature_names_code_and_resources():
    signature = get_metric("rouge-2").signature
    assert f"code:{fingerprint.code_fingerprint()}" in signature
    assert "resources:rouge155@" in signature
    assert "resources:" not in get_metric("length").signature


def test_a_changed_resource_changes_the_signature(tmp_path, monkeypatch):
    words = tmp_path / "words.txt"
    words.write_text("a\nthe\n")
    monkeypatch.setitem(fingerprint_resources(), "toy", lambda: [words])
    metric = Metric("m", lambda s, r: pd.DataFrame({"x": [0.0] * len(s)}), primary="x", resources=("toy",))
    before = metric.signature
    words.write_text("a\nan\n")
    os.utime(words, ns=(1, 1))  # a new mtime: the digest is recomputed
    assert metric.signature != before


def test_a_rouge155_file_edited_in_place_misses_the_cache(tmp_path, monkeypatch):
    """The data files' names are found once a process (``rouge155_data_files``); their content is digested for
    every key (``file_digest``: again whenever the file's inode, size or mtime_ns changes), so an edit misses."""
    from rougelab import resources

    home = tmp_path / "RELEASE-1.5.5"
    shutil.copytree(resources.rouge155_home() / "data", home / "data")
    monkeypatch.setattr(resources, "rouge155_home", lambda: home)
    resources.rouge155_data_files.cache_clear()
    try:
        metric, summaries, references = get_metric("rouge-1"), ["the cat sat"], [["the cat lay"]]
        score_cache.cached_score(metric, summaries, references)
        before = score_cache.cache_path(metric, summaries, references)
        assert before.is_file()
        words = home / "data" / "smart_common_words.txt"
        assert words in resources.rouge155_data_files()
        with open(words, "ab") as handle:
            handle.write(b"zyzzyva\n")
        after = score_cache.cache_path(metric, summaries, references)
        assert after != before and not after.is_file()
    finally:
        resources.rouge155_data_files.cache_clear()


def fingerprint_resources():
    from rougelab.resources import RESOURCE_FILES
    return RESOURCE_FILES


def test_every_cache_key_has_the_code_fingerprint(monkeypatch):
    from rougelab.metrics.widar import cache as widar_cache
    from rougelab.semantic import pagerank
    import scipy.sparse as sp

    first = widar_cache.ItemCache("toy", {"a": 1}).path
    ppr = pagerank.PPRCache(sp.csr_matrix((2, 2)), "g").folder
    monkeypatch.setattr(cache_store, "code_fingerprint", lambda *modules: "other")
    assert widar_cache.ItemCache("toy", {"a": 1}).path != first
    assert pagerank.PPRCache(sp.csr_matrix((2, 2)), "g").folder != ppr


CLOSURE_OF = """
from rougelab.fingerprint import code_fingerprint
print(code_fingerprint(), code_fingerprint("rougelab.semantic.wordnet_ppr"))
"""


def _fingerprints(lib: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(lib)}
    return subprocess.run([sys.executable, "-c", CLOSURE_OF], env=env, capture_output=True, text=True,
                          check=True).stdout.split()


def test_the_pagerank_cache_follows_only_the_code_that_computes_it(tmp_path):
    closure = {p.relative_to(LIB / "rougelab").as_posix()
               for p in fingerprint.module_closure("rougelab.semantic.wordnet_ppr")}
    assert {"semantic/wordnet_ppr.py", "semantic/pagerank.py", "semantic/wordnet_graph.py",
            "semantic/__init__.py", "__init__.py"} <= closure
    assert "text/tokenize.py" in closure      # imported inside a function (the gloss links' tokens)
    assert not closure & {"semantic/semantic_similarity.py", "metrics/rouge_g.py", "rouge/core.py"}

    copies = {}
    for name, module in (("scoring", "semantic/semantic_similarity.py"), ("gloss", "text/tokenize.py"),
                         ("lazy", "__init__.py"), ("style", "book/static/book.css"), ("lexnames", "semantic/lexnames")):
        copy = copies[name] = tmp_path / name
        shutil.copytree(LIB, copy, ignore=shutil.ignore_patterns("__pycache__"))
        with open(copy / "rougelab" / module, "a", encoding="utf-8") as f:
            f.write("\n# edited\n")
    whole, ppr = _fingerprints(LIB)
    scoring, gloss, lazy, style, lexnames = (_fingerprints(copies[name]) for name in copies)
    assert scoring[0] != whole and scoring[1] == ppr    # the similarity code changed: PageRank stays warm
    assert gloss[0] != whole and gloss[1] != ppr        # the graph's tokenizer changed: PageRank misses
    assert lazy[1] != ppr                               # a package __init__ runs on import: it counts
    assert style[0] != whole and style[1] == ppr        # the book's style sheet is no part of PageRank
    assert lexnames[1] != ppr                           # the graph's own data file is


def test_every_package_data_file_is_read_by_a_module_of_its_folder():
    # what lets a closure's fingerprint take only the data files beside its modules
    package = LIB / "rougelab"
    data = [p for p in package.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts]
    assert data
    for path in data:
        readers = [m for m in path.parent.rglob("*.py") if path.name in m.read_text(encoding="utf-8")]
        if path.parent.name in ("static", "templates"):      # the book's theme files, named by book/__init__.py
            readers = [m for m in path.parent.parent.glob("*.py") if path.parent.name in m.read_text(encoding="utf-8")]
        assert readers, f"{path.relative_to(package)} is read by no module of its folder"


def test_closures_refuse_modules_outside_the_package():
    with pytest.raises(ValueError, match="not a module of the rougelab package"):
        fingerprint.code_fingerprint("numpy")
    with pytest.raises(ValueError, match="not a module"):
        fingerprint.module_closure("rougelab.no_such_module")


def test_a_record_names_the_modules_it_was_fingerprinted_by(tmp_path):
    entry = tmp_path / "entry.npz"
    entry.write_bytes(b"x")
    cache_store.write_meta(entry, cache_store.Maker("sig", modules=("rougelab.semantic.pagerank",)))
    record = cache_store.read_meta(entry)
    assert record["modules"] == ["rougelab.semantic.pagerank"]
    assert record["code"] == fingerprint.code_fingerprint("rougelab.semantic.pagerank") != fingerprint.code_fingerprint()
    assert not cache_store.is_stale(record)
    assert cache_store.is_stale({**record, "modules": []})   # the whole package's digest differs


def test_info_counts_stale_entries_and_clear_removes_them(capsys):
    metric = get_metric("length")
    score_cache.cached_score(metric, ["a b"], [["c"]])
    score_cache.cached_score(metric, ["a b c"], [["c"]])
    old = next(cache_dir("scores").glob("*.npy"))
    meta = cache_store.meta_path(old)
    meta.write_text(meta.read_text().replace(fingerprint.code_fingerprint(), "0" * 12))
    (cache_dir("scores") / "length-0123456789abcdef01234567.npy").write_bytes(b"x")  # made before records
    assert main(["cache", "info"]) == 0
    scores_row = capsys.readouterr().out.splitlines()[1].split()
    assert scores_row[:3] == ["scores", "3", "3"] and scores_row[-2] == "2"
    assert main(["cache", "clear", "--stale", "scores"]) == 0
    assert "removed 2" in capsys.readouterr().out
    assert [e.stale for e in cache_admin.entries("scores")] == [False]
    assert main(["cache", "clear", "--older-than", "1"]) == 0   # younger than a day: kept
    assert len(cache_admin.entries("scores")) == 1
    assert main(["cache", "clear"]) == 0 and cache_admin.entries("scores") == []


def test_clear_refuses_unknown_kinds_and_negative_days(capsys):
    assert main(["cache", "clear", "vectors"]) == 2
    assert "unknown cache kind(s) vectors" in capsys.readouterr().err
    assert main(["cache", "clear", "--older-than", "-1"]) == 2


def test_a_cache_path_that_is_a_file_is_a_clear_error(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("ROUGELAB_CACHE", str(blocker))
    with pytest.raises(CacheError, match="is a file, not a folder"):
        cache_dir("scores")
    assert main(["cache", "info"]) == 2
    assert f"{blocker} is a file" in capsys.readouterr().err


@pytest.mark.parametrize("summaries, references, sources, message", [
    (["a"], None, None, "references must be a list of reference lists, not NoneType"),
    ((s for s in ["a"]), [["b"]], None, "materialise a generator"),
    (["a"], [(r for r in ["b"])], None, r"references\[0\] must be a list"),
    (["a\ud800"], [["b"]], None, r"summaries\[0\] is not valid Unicode text: .* U\+D800"),
    (["a"], [["b", "\udfff"]], None, r"references\[0\]\[1\] is not valid Unicode"),
    (["a"], [["b"]], [None], r"sources\[0\] is NoneType, not str \(does this dataset have source"),
])
def test_bad_python_input_is_an_input_error(summaries, references, sources, message):
    with pytest.raises(InputError, match=message):
        get_metric("rouge-1").score(summaries, references, sources)
    if sources is not None:  # a metric that reads the source, on a dataset without one
        with pytest.raises(InputError, match=message):
            score_cache.cached_score(get_metric("widar-1"), summaries, references, sources)
