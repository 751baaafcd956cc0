"""Fetching: from a mirror or over HTTP, every SHA-256 verified, failures named in one line.

Each test uses its own empty cache ($ROUGELAB_CACHE in tmp_path). The shared data mirror
(``tests/mirror.py``) is the thing the registry's hashes are checked against.
"""
import functools
import hashlib
import os
import http.server
import shutil
import threading
from pathlib import Path

import pytest

from rougelab.data import DataError, dataset_path, fetch, load_dataset
from rougelab.data import registry
from rougelab.data.fetch import read_verified
from rougelab.rouge.rouge155.sample import official_runs
from mirror import MIRROR

SUMMEVAL = registry.get("summeval")
PKL = "SUM/SummEval/data.pkl"


@pytest.fixture(autouse=True)
def empty_cache(tmp_path, monkeypatch):
    if not MIRROR.is_dir():
        pytest.fail(f"data mirror {MIRROR} not found: set ROUGELAB_DATA_MIRROR")
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("ROUGELAB_DATA_MIRROR", raising=False)
    return tmp_path / "cache" / "datasets"


def _partial_mirror(tmp_path, dataset=SUMMEVAL):
    """A copy of the files of ``dataset`` from the shared mirror, to damage at will."""
    base = tmp_path / "mirror"
    for entry in dataset.files:
        source = MIRROR / dataset.relative_root / entry.path
        target = base / dataset.relative_root / entry.path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    return base


def test_every_registered_file_matches_the_shared_mirror(empty_cache):
    roots = fetch(mirror=MIRROR, progress=False)
    assert set(roots) == set(registry.names())
    n = 0
    for dataset in registry.DATASETS.values():
        for entry in dataset.files:
            cached = empty_cache / dataset.relative_root / entry.path
            original = (MIRROR / dataset.relative_root / entry.path).read_bytes()
            assert cached.read_bytes() == original
            assert hashlib.sha256(original).hexdigest() == entry.sha256
            n += 1
        assert dataset_path(dataset.name) == roots[dataset.name]
    assert n == 903  # 893 distinct mirror files (19 of them the ROUGE-WE release); BARTScore's LICENSE and README are in 6 entries
    assert not [p for p in empty_cache.rglob("*.tmp")]  # atomic writes leave no temp files


def test_rouge155_sample_lists_every_release_file():
    dataset = registry.get("rouge155-sample")
    release = MIRROR / dataset.relative_root / "ROUGE-RELEASE-1.5.5"
    on_disk = {p.relative_to(release.parent).as_posix() for p in release.rglob("*") if p.is_file()}
    assert {e.path for e in dataset.files} == on_disk
    assert len(on_disk) == 766


def test_rouge155_sample_path_has_release_layout():
    root = fetch("rouge155-sample", mirror=MIRROR, progress=False)["rouge155-sample"]
    assert root == dataset_path("rouge155-sample")
    assert {p.name for p in root.iterdir()} >= {"sample-test", "sample-output", "data"}
    outputs = [name for name, _ in official_runs()]
    assert len(outputs) == 17
    assert all((root / "sample-output" / name).is_file() for name in outputs)
    assert (root / "data" / "smart_common_words.txt").is_file()
    assert (root / "sample-test" / "ROUGE-test.xml").is_file()


def test_second_fetch_skips_verified_files(tmp_path, capsys):
    fetch("summeval", mirror=MIRROR)
    assert "3 fetched, 0 already cached" in capsys.readouterr().err
    empty_mirror = tmp_path / "empty"
    empty_mirror.mkdir()
    fetch("summeval", mirror=empty_mirror)  # nothing is read from the mirror now
    assert "0 fetched, 3 already cached" in capsys.readouterr().err


def test_mirror_from_environment(monkeypatch):
    monkeypatch.setenv("ROUGELAB_DATA_MIRROR", str(MIRROR))
    assert fetch("newsroom", progress=False)["newsroom"] == dataset_path("newsroom")


def test_wrong_hash_in_mirror_is_refused_and_not_written(tmp_path, empty_cache):
    mirror = _partial_mirror(tmp_path)
    bad = mirror / SUMMEVAL.relative_root / PKL
    data = bytearray(bad.read_bytes())
    data[1000] ^= 0xFF  # same size, one flipped byte
    bad.write_bytes(bytes(data))
    with pytest.raises(DataError) as err:
        fetch("summeval", mirror=mirror, progress=False)
    message = str(err.value)
    assert "\n" not in message and str(bad) in message and "SHA-256" in message
    assert not (empty_cache / SUMMEVAL.relative_root / PKL).exists()


def test_missing_file_in_mirror_is_named(tmp_path):
    mirror = _partial_mirror(tmp_path)
    (mirror / SUMMEVAL.relative_root / PKL).unlink()
    with pytest.raises(DataError, match=r"data\.pkl is missing from the mirror"):
        fetch("summeval", mirror=mirror, progress=False)


def test_missing_mirror_folder(tmp_path):
    with pytest.raises(DataError, match="does not exist"):
        fetch("summeval", mirror=tmp_path / "nowhere", progress=False)


def test_unknown_dataset_fails_before_fetching_anything(empty_cache):
    with pytest.raises(DataError, match="unknown dataset 'summevl'; known: summeval"):
        fetch(["summeval", "summevl"], mirror=MIRROR, progress=False)
    assert not (empty_cache / SUMMEVAL.relative_root).exists()


def test_not_fetched_says_what_to_do():
    with pytest.raises(DataError, match="run `rougelab data fetch`"):
        dataset_path("summeval")
    with pytest.raises(DataError, match="run `rougelab data fetch`"):
        load_dataset("pyrxsum")


def test_corrupt_cache_is_detected_and_repaired(empty_cache):
    fetch("summeval", mirror=MIRROR, progress=False)
    cached = empty_cache / SUMMEVAL.relative_root / PKL
    data = bytearray(cached.read_bytes())
    data[500] ^= 0xFF
    cached.write_bytes(bytes(data))
    with pytest.raises(DataError, match="cache is corrupt"):
        load_dataset("summeval")
    cached.write_bytes(bytes(data[:-10]))  # truncated: dataset_path's size check sees it
    with pytest.raises(DataError, match="cache is corrupt"):
        dataset_path("summeval")
    fetch("summeval", mirror=MIRROR, progress=False)  # re-fetches the bad file only
    assert read_verified("summeval", PKL) == (MIRROR / SUMMEVAL.relative_root / PKL).read_bytes()


@pytest.fixture
def http_mirror(tmp_path, monkeypatch):
    """Serve a folder over HTTP on localhost and point the registry's upstream at it."""
    root = tmp_path / "served"
    root.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setattr(registry, "UPSTREAM", f"http://127.0.0.1:{server.server_port}/")
    yield root
    server.shutdown()
    server.server_close()


def test_download_over_http(http_mirror, empty_cache):
    shutil.copytree(_partial_mirror(http_mirror.parent / "src"), http_mirror, dirs_exist_ok=True)
    root = fetch("summeval", progress=False)["summeval"]
    assert root == dataset_path("summeval")
    assert len(load_dataset("summeval")) == 1600


def test_http_404_names_the_url(http_mirror):
    with pytest.raises(DataError, match=r"HTTP 404.*use a mirror"):
        fetch("summeval", progress=False)


def test_unreachable_host(monkeypatch):
    import socket
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(registry, "UPSTREAM", f"http://127.0.0.1:{port}/")
    with pytest.raises(DataError, match=r"cannot reach http://127\.0\.0\.1:\d+/neulab/BARTScore/.*"
                                        r"LICENSE .*use a mirror"):
        fetch("summeval", progress=False)


def test_unwritable_cache_is_named(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("ROUGELAB_CACHE", str(blocker / "cache"))
    with pytest.raises(DataError, match=r"a-file/cache.*a-file is a file, not a folder .set ROUGELAB_CACHE"):
        fetch("summeval", mirror=MIRROR, progress=False)


NEWSROOM = registry.get("newsroom")
_STALL_WRITES = """
import os, sys, time
os.replace = lambda *args: time.sleep(600)  # hang after writing the first temporary file
from rougelab.data import fetch
fetch("newsroom", mirror=sys.argv[1], progress=False)
"""


def test_a_killed_fetch_leaves_recognisable_files_that_the_next_fetch_removes(empty_cache):
    import signal
    import subprocess
    import sys
    import time

    folder = empty_cache / NEWSROOM.relative_root
    child = subprocess.Popen([sys.executable, "-c", _STALL_WRITES, str(MIRROR)], env=os.environ.copy())
    try:
        deadline = time.monotonic() + 60
        while not list(folder.rglob("*.rougelab-partial-*")) and time.monotonic() < deadline:
            time.sleep(0.05)
        partial = list(folder.rglob("*.rougelab-partial-*"))
        assert len(partial) == 1 and partial[0].name.startswith(Path(NEWSROOM.files[0].path).name)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert partial[0].exists()
    fetch("newsroom", mirror=MIRROR, progress=False)
    assert not list(folder.rglob("*.rougelab-partial-*"))
    assert dataset_path("newsroom").is_dir()


def test_a_running_fetchs_temporary_file_is_left_alone_and_old_hidden_ones_removed(empty_cache):
    folder = empty_cache / NEWSROOM.relative_root
    folder.mkdir(parents=True)
    ours = folder / f"x.json.rougelab-partial-{os.getpid()}-abcd1234"  # this process is running
    old = folder / ".x.json.k3j_9xq2.tmp"                              # rougelab <= 0.1.0's name
    for path in (ours, old):
        path.write_bytes(b"half")
    fetch("newsroom", mirror=MIRROR, progress=False)
    assert ours.exists() and not old.exists()


def test_cache_path_that_is_a_file_is_a_clear_error(tmp_path, monkeypatch, capsys):
    from rougelab.cli import main

    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("ROUGELAB_CACHE", str(blocker))
    assert main(["data", "fetch", "newsroom", "--mirror", str(MIRROR)]) != 0
    err = capsys.readouterr().err
    assert f"{blocker} is a file, not a folder" in err and "Traceback" not in err
