"""The cache store: deletion never leaves the cache, files keep the umask's mode, links are written through,
special files are refused, and keys follow third-party code and the code of a user's own metric."""
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from rougelab import cache_admin, fingerprint, score_cache
from rougelab.cli import main
from rougelab.metrics.registry import get_metric
from rougelab.paths import CacheError, cache_dir

LIB = Path(__file__).resolve().parents[1] / "lib"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def _user_folder(tmp_path, name="mine"):
    folder = tmp_path / name
    (folder / "sub").mkdir(parents=True)
    (folder / "notes.txt").write_text("keep me")
    (folder / "sub" / "rouge-1-0123456789abcdef01234567.npz").write_text("keep me too")
    return folder


def _untouched(folder) -> bool:
    return ((folder / "notes.txt").read_text() == "keep me"
            and (folder / "sub" / "rouge-1-0123456789abcdef01234567.npz").read_text() == "keep me too")


# --- deletion never leaves the cache ---------------------------------------------------------------------------

def test_clear_never_follows_a_link_out_of_the_cache(tmp_path):
    score_cache.cached_score(get_metric("length"), ["a b"], [["c"]])
    mine = _user_folder(tmp_path)
    (cache_dir("scores") / "linked").symlink_to(mine)
    assert main(["cache", "clear", "scores"]) == 0
    assert _untouched(mine)
    assert list(cache_dir("scores").glob("*.npy")) == []      # the cache's own entry went


def test_a_link_inside_an_entry_folder_is_not_followed(tmp_path):
    entry = cache_dir("embeddings") / "all-MiniLM-L6-v2-L4-0123456789abcdef01234567"
    entry.mkdir()
    (entry / ("ab" * 32 + ".npz")).write_bytes(b"x")
    mine = _user_folder(tmp_path)
    (entry / "linked").symlink_to(mine)
    assert cache_admin.clear(["embeddings"]) == 1
    assert _untouched(mine) and (entry / "linked").is_symlink()


def test_compiled_kernels_are_listed_and_those_of_other_code_are_stale(tmp_path):
    from rougelab._jit import NUMBA, kernel_key

    if not NUMBA:
        pytest.skip("numba is off: no kernel folder is current")
    current, old = cache_dir("numba") / kernel_key(), cache_dir("numba") / ("0" * 24)
    for folder in (current, old):
        (folder / "rouge_0123").mkdir(parents=True)
        (folder / "rouge_0123" / "batch.kernel-12.py311.nbi").write_bytes(b"i")
        (folder / "rouge_0123" / "batch.kernel-12.py311.1.nbc").write_bytes(b"c")
    (old / "rouge_0123" / "notes.txt").write_text("keep me")        # not numba's: never counted or deleted
    row = next(r for r in cache_admin.info() if r["kind"] == "numba")
    assert (row["entries"], row["files"], row["stale"]) == (2, 4, 1)
    assert cache_admin.clear(["numba"], stale_only=True) == 2
    assert sorted(p.name for p in old.rglob("*") if p.is_file()) == ["notes.txt"]
    assert len(list(current.rglob("*.nb?"))) == 2
    assert cache_admin.clear(["numba"]) == 2 and not current.exists()


def test_a_dataset_folder_that_links_to_the_users_mirror_is_not_emptied(tmp_path):
    from rougelab.data.registry import get

    dataset = get("summeval")
    mirror = tmp_path / "my-mirror"
    owner = dataset.relative_root.split("/")[0]
    for entry in dataset.files[:2]:
        path = mirror / dataset.relative_root / entry.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("the user's copy")
    (cache_dir("datasets") / owner).symlink_to(mirror / owner)
    assert main(["cache", "clear", "datasets"]) == 0
    assert all((mirror / dataset.relative_root / e.path).read_text() == "the user's copy" for e in dataset.files[:2])


def test_clear_deletes_only_what_the_cache_wrote(tmp_path):
    from rougelab.data.registry import get

    dataset = get("summeval")
    fetched = cache_dir("datasets") / dataset.relative_root / dataset.files[0].path
    fetched.parent.mkdir(parents=True)
    fetched.write_text("fetched")
    foreign = [cache_dir("datasets") / dataset.relative_root / "my-notes.txt", cache_dir("scores") / "results.csv",
               cache_dir("scores") / "summary.npz"]
    for path in foreign:
        path.write_text("mine")
    score_cache.cached_score(get_metric("length"), ["a b"], [["c"]])
    assert cache_admin.clear(["scores", "datasets"]) == 2
    assert not fetched.exists() and all(path.read_text() == "mine" for path in foreign)


def test_info_survives_dangling_links_and_broken_entries(capsys):
    score_cache.cached_score(get_metric("length"), ["a b"], [["c"]])
    (cache_dir("scores") / "gone").symlink_to(cache_dir() / "nowhere")
    entry = cache_dir("wordnet") / "ppr-0123456789abcdef01234567"
    entry.mkdir()
    (entry / "_meta.json").write_text("{not json")
    (entry / "batch-0123456789abcdef.npz").symlink_to(cache_dir() / "nowhere")
    assert main(["cache", "info"]) == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()[1:]}
    assert rows["scores"][1:3] == ["1", "1"] and rows["wordnet"][1:3] == ["1", "0"]
    assert main(["cache", "clear"]) == 0 and (cache_dir("scores") / "gone").is_symlink()


def test_an_uncreatable_cache_names_the_variable(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ROUGELAB_CACHE", "/proc/rougelab-cache")
    with pytest.raises(CacheError, match=r"\$ROUGELAB_CACHE=/proc/rougelab-cache"):
        cache_dir("scores")
    assert main(["cache", "info"]) == 2
    err = capsys.readouterr().err
    assert "$ROUGELAB_CACHE=/proc/rougelab-cache" in err and err.count("\n") == 1


# --- output files: links, special files, modes -----------------------------------------------------------------

def _score_args(tmp_path, out):
    summaries = tmp_path / "s.txt"
    summaries.write_text("the cat sat\n")
    references = tmp_path / "r.txt"
    references.write_text("a cat\n")
    return ["score", "--metric", "length", "--per-summary", "--summaries", str(summaries),
            "--references", str(references), "--out", str(out)]


def test_out_through_a_link_writes_its_target(tmp_path):
    target = tmp_path / "results" / "scores.csv"
    target.parent.mkdir()
    target.write_text("old\n")
    link = tmp_path / "latest.csv"
    link.symlink_to(target)
    assert main(_score_args(tmp_path, link)) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text().splitlines() == ["length", "3.0"]


def test_out_refuses_a_fifo_and_writes_standard_output_for_a_dash(tmp_path, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert main(_score_args(tmp_path, fifo)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "named pipe (FIFO)" in err and "--out -" in err
    assert stat.S_ISFIFO(fifo.lstat().st_mode)                   # still the FIFO
    assert main(_score_args(tmp_path, "-")) == 0
    assert capsys.readouterr().out.splitlines() == ["length", "3.0"] and not Path("-").exists()


def test_the_writer_refuses_devices_and_folders(tmp_path):
    from rougelab.safe_write import SpecialFileError, write_atomic

    with pytest.raises(SpecialFileError, match="character device"):
        write_atomic("/dev/null", b"x")
    with pytest.raises(SpecialFileError, match="is a folder"):
        write_atomic(tmp_path, b"x")


def test_a_write_through_a_link_keeps_the_link_and_the_mode_of_its_end(tmp_path):
    from rougelab.safe_write import write_atomic

    end = tmp_path / "end.csv"
    end.write_bytes(b"old")
    os.chmod(end, 0o600)
    link = tmp_path / "link.csv"
    link.symlink_to(end)
    assert write_atomic(link, b"new") == end
    assert link.is_symlink() and end.read_bytes() == b"new" and stat.S_IMODE(end.stat().st_mode) == 0o600


def test_files_get_the_umasks_mode(tmp_path, umask_022):
    out = tmp_path / "scores.csv"
    assert main(_score_args(tmp_path, out)) == 0
    score_cache.cached_score(get_metric("length"), ["a b"], [["c"]])
    from rougelab.metrics.widar.cache import ItemCache
    widar = ItemCache("toy", {"a": 1})
    widar.put("k", 1)
    widar.save()
    cached = [p for p in cache_dir().rglob("*") if p.is_file()]
    assert len(cached) == 4       # a score table, a WIDAR file, a record beside each
    assert {stat.S_IMODE(p.stat().st_mode) for p in [out, *cached]} == {0o644}
    os.chmod(out, 0o640)          # an existing file keeps its mode
    assert main(_score_args(tmp_path, out)) == 0 and stat.S_IMODE(out.stat().st_mode) == 0o640


def test_a_killed_writer_leaves_a_recognisable_file_that_clear_removes(tmp_path):
    entry = cache_dir("scores") / "length-0123456789abcdef01234567.npy"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    partial = entry.with_name(f"{entry.name}.rougelab-partial-{dead}-abcd")
    running = entry.with_name(f"{entry.name}.rougelab-partial-{os.getpid()}-abcd")
    partial.write_bytes(b"half")
    running.write_bytes(b"being written")
    cache_admin.clear(["scores"])
    assert not partial.exists() and running.exists()


# --- keys follow third-party code -------------------------------------------------------------------------------

SUMMARIES = ["the generously funded runners were running happily"]
REFERENCES = [["a generous fund paid the runner who runs happily"]]


@pytest.fixture
def nltk_upgraded(monkeypatch, request):
    """What an nltk upgrade allowed by ``nltk~=3.10`` could do: another version, a Porter stemmer that stems
    differently (here it keeps the first four letters)."""
    from nltk.stem.porter import PorterStemmer

    from rougelab.text.tokenizers import get_stemmer

    real = getattr(fingerprint, "package_version", None)
    monkeypatch.setattr(fingerprint, "package_version", lambda name: "3.99.0" if name == "nltk" else real(name),
                        raising=False)
    monkeypatch.setattr(PorterStemmer, "stem", lambda self, word, to_lowercase=True: word[:4])
    get_stemmer.cache_clear()
    request.addfinalizer(get_stemmer.cache_clear)


def test_a_warm_cache_misses_after_nltk_changes(request):
    metric = get_metric("rouge1-stem")
    warm = score_cache.cached_score(metric, SUMMARIES, REFERENCES)["rouge1_f"][0]
    assert score_cache.cached_score(metric, SUMMARIES, REFERENCES)["rouge1_f"][0] == warm
    request.getfixturevalue("nltk_upgraded")
    fresh = get_metric("rouge1-stem").score(SUMMARIES, REFERENCES)["rouge1_f"][0]
    assert fresh != warm                                               # the new stemmer gives another number
    assert score_cache.cached_score(get_metric("rouge1-stem"), SUMMARIES, REFERENCES)["rouge1_f"][0] == fresh
    assert len(list(cache_dir("scores").glob("*.npy"))) == 2
    assert cache_admin.info()[0]["stale"] == 1                        # the old entry names the old nltk


def test_a_metric_names_only_the_packages_whose_code_makes_its_numbers(monkeypatch):
    names = ("rouge-1", "rouge1-stem", "bleu", "rouge-g-1", "widar-1", "bertscore", "anc-rouge-1", "length")
    before = {name: get_metric(name).signature for name in names}
    assert "nltk=" in before["rouge1-stem"] and "sacrebleu=" in before["bleu"] and "torch=" in before["bertscore"]
    real = fingerprint.package_version
    monkeypatch.setattr(fingerprint, "package_version", lambda name: "9.9" if name == "torch" else real(name))
    changed = {name for name in names if get_metric(name).signature != before[name]}
    assert changed == {"bertscore", "anc-rouge-1"}


def test_intermediate_caches_follow_their_packages(monkeypatch):
    import scipy.sparse as sp

    from rougelab.metrics.widar.cache import ItemCache
    from rougelab.semantic.pagerank import PPRCache

    widar, ppr = ItemCache("toy", {}).path, PPRCache(sp.csr_matrix((2, 2)), "g").folder
    real = fingerprint.package_version
    monkeypatch.setattr(fingerprint, "package_version", lambda name: "9.9" if name == "scipy" else real(name))
    assert ItemCache("toy", {}).path == widar                          # WIDAR does not use scipy
    assert PPRCache(sp.csr_matrix((2, 2)), "g").folder != ppr


# --- a user's own metric is fingerprinted by its code ------------------------------------------------------------

PROTO = '''
import pandas as pd
from proto_helpers import WEIGHT
from rougelab.metrics.base import Metric

def score(summaries, references):
    return pd.DataFrame({"proto": [WEIGHT * 0.25 for _ in summaries]})

def make():
    return Metric("proto", score, primary="proto"{pins})
'''
SCORE_PROTO = """
import sys
sys.path.insert(0, sys.argv[1])
import proto
from rougelab.metrics.registry import get_metric, register
from rougelab.score_cache import cached_score
register("proto", proto.make)
print(cached_score(get_metric("proto"), ["a b"], [["c"]])["proto"][0])
"""


def _proto_score(folder: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(LIB)}
    done = subprocess.run([sys.executable, "-c", SCORE_PROTO, str(folder)], env=env, capture_output=True,
                          text=True, check=True)
    return float(done.stdout.strip())


def test_a_registered_metric_edited_gives_new_numbers_in_a_new_process(tmp_path):
    (tmp_path / "proto.py").write_text(PROTO.replace("{pins}", ""))
    (tmp_path / "proto_helpers.py").write_text("WEIGHT = 1\n")
    assert _proto_score(tmp_path) == 0.25
    (tmp_path / "proto.py").write_text(PROTO.replace("{pins}", "").replace("0.25", "0.5"))
    assert _proto_score(tmp_path) == 0.5                              # the scorer was edited
    (tmp_path / "proto_helpers.py").write_text("WEIGHT = 2\n")
    assert _proto_score(tmp_path) == 1.0                              # a module of the user's it imports


def test_a_registered_metric_can_be_pinned_by_hand(tmp_path):
    (tmp_path / "proto_helpers.py").write_text("WEIGHT = 1\n")
    (tmp_path / "proto.py").write_text(PROTO.replace("{pins}", ', pins={"code": "v1"}'))
    assert _proto_score(tmp_path) == 0.25
    (tmp_path / "proto.py").write_text(PROTO.replace("{pins}", ', pins={"code": "v1"}').replace("0.25", "0.5"))
    assert _proto_score(tmp_path) == 0.25                             # pinned: the cache is trusted
    (tmp_path / "proto.py").write_text(PROTO.replace("{pins}", ', pins={"code": "v2"}').replace("0.25", "0.5"))
    assert _proto_score(tmp_path) == 0.5


def test_scorers_without_a_source_file_are_fingerprinted_by_their_code():
    first, second = ({"__name__": "__main__"} for _ in range(2))
    exec(compile("def f(s, r): return 1", "<typed>", "exec"), first)
    exec(compile("def f(s, r): return 2", "<typed>", "exec"), second)
    assert fingerprint.scorer_fingerprint(first["f"]) != fingerprint.scorer_fingerprint(second["f"])
    assert fingerprint.scorer_fingerprint(get_metric("rouge-1").scorer) is None    # our code: code_fingerprint


# --- more of the same kinds ---------------------------------------------------------------------------------------

def test_out_follows_a_chain_of_links_and_creates_a_dangling_links_target(tmp_path, capsys):
    target = tmp_path / "final.csv"
    (tmp_path / "second").symlink_to(target)        # dangling until written
    (tmp_path / "first").symlink_to(tmp_path / "second")
    assert main(_score_args(tmp_path, tmp_path / "first")) == 0
    assert target.read_text().splitlines() == ["length", "3.0"] and (tmp_path / "first").is_symlink()
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    (tmp_path / "to-pipe").symlink_to(fifo)
    assert main(_score_args(tmp_path, tmp_path / "to-pipe")) == 2
    assert "named pipe (FIFO)" in capsys.readouterr().err and stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_fifo_where_a_cache_file_belongs_is_refused_not_read():
    metric = get_metric("length")
    path = score_cache.cache_path(metric, ["a b"], [["c"]])
    os.mkfifo(path)
    with pytest.raises(ValueError, match=r"named pipe \(FIFO\), not a regular file"):
        score_cache.cached_score(metric, ["a b"], [["c"]])
    assert stat.S_ISFIFO(path.lstat().st_mode)


def test_a_kind_folder_that_is_a_link_is_neither_listed_nor_cleared(tmp_path, monkeypatch):
    mine = _user_folder(tmp_path)
    (cache_dir() / "widar").symlink_to(mine, target_is_directory=True)
    assert cache_admin.entries("widar") == [] and cache_admin.clear(["widar"]) == 0
    assert _untouched(mine)


def test_a_cache_under_a_dangling_link_says_so(tmp_path, monkeypatch, capsys):
    (tmp_path / "gone").symlink_to(tmp_path / "nowhere")
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path / "gone" / "cache"))
    assert main(["cache", "info"]) == 2
    err = capsys.readouterr().err
    assert "$ROUGELAB_CACHE=" in err and f"{tmp_path / 'gone'} is a symbolic link to nothing" in err


def test_a_helper_typed_into_a_notebook_cell_is_part_of_the_scorers_fingerprint():
    def cell(body):
        namespace = {"__name__": "__main__"}
        exec(compile(body + "\ndef scorer(s, r):\n    return helper(s)\n", "<cell>", "exec"), namespace)
        return fingerprint.scorer_fingerprint(namespace["scorer"])

    assert cell("def helper(s):\n    return 1") != cell("def helper(s):\n    return 2")
    assert cell("def helper(s):\n    return 1") == cell("def helper(s):\n    return 1")


def test_partials_that_differ_only_in_a_bound_argument_get_different_keys():
    """A ``functools.partial``'s bound arguments are settings: they are in the scorer's fingerprint, the
    metric's signature and so the score cache's key, for the user's scorers and rougelab's alike."""
    import functools

    import numpy as np

    from rougelab.metrics.base import Metric
    from rougelab.rouge import rouge

    scope = {"__name__": "__main__"}
    exec(compile("def weighted(s, r, weight):\n    return weight", "<typed>", "exec"), scope)
    one, two = (functools.partial(scope["weighted"], weight=w) for w in (1, 2))
    assert fingerprint.scorer_fingerprint(one) != fingerprint.scorer_fingerprint(two)
    assert fingerprint.scorer_fingerprint(one) == fingerprint.scorer_fingerprint(
        functools.partial(scope["weighted"], weight=1))                       # the same setting, the same key
    ours = [functools.partial(rouge, measures=[m]) for m in ("rouge-1", "rouge-2")]
    assert fingerprint.scorer_fingerprint(ours[0]) != fingerprint.scorer_fingerprint(ours[1]) is not None
    arrays = [functools.partial(scope["weighted"], np.array([1.0, w])) for w in (2.0, 3.0)]
    assert fingerprint.scorer_fingerprint(arrays[0]) != fingerprint.scorer_fingerprint(arrays[1])
    pinned = [Metric("bound", functools.partial(scope["weighted"], weight=w), primary="x", pins={"code": "v1"})
              for w in (1, 2)]
    assert pinned[0].signature != pinned[1].signature                       # pinned code, bound settings still count
    assert score_cache.cache_path(pinned[0], ["a"], [["a"]]) != score_cache.cache_path(pinned[1], ["a"], [["a"]])


def test_an_entry_is_stale_when_a_resource_link_is_pointed_at_other_content(tmp_path):
    """The record names a resource file as the metric reads it, through its link: pointing the link at a file
    with other content makes the entry stale (a record of the link's old target called it fresh)."""
    from rougelab.cache_store import Maker, is_stale

    (tmp_path / "old.txt").write_text("stems, first edition")
    (tmp_path / "new.txt").write_text("stems, second edition")
    link = tmp_path / "stems.txt"
    link.symlink_to(tmp_path / "old.txt")
    record = Maker("m", resources=(link,)).record()
    assert not is_stale(record)
    link.unlink()
    link.symlink_to(tmp_path / "new.txt")
    assert is_stale(record)


def test_a_key_part_cannot_pass_for_a_separator():
    """``Maker.key`` tells its parts apart whatever they hold: with \\x1e after each part, the content
    ``x\\x1ey`` and the contents ``x``, ``y`` gave one key, and so did a signature ending in \\x1e and the
    code fingerprint, and that signature's head with the fingerprint passed as content."""
    from rougelab.cache_store import Maker

    code = fingerprint.code_fingerprint()
    assert Maker("s").key("x\x1ey") != Maker("s").key("x", "y")
    assert Maker(f"s\x1e{code}").key() != Maker("s").key(code)
