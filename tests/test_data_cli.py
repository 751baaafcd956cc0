"""`rougelab data fetch` / `rougelab data list`, through the real command-line entry point."""
from pathlib import Path

import pytest

from rougelab.cli import main
from rougelab.data import describe, registry
from mirror import MIRROR


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGELAB_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("ROUGELAB_DATA_MIRROR", raising=False)
    return tmp_path / "cache" / "datasets"


def test_fetch_named_datasets_from_mirror(empty_cache, capsys):
    assert main(["data", "fetch", "--mirror", str(MIRROR), "summeval", "pyrxsum"]) == 0
    err = capsys.readouterr().err
    assert "summeval: 3 files verified (3 fetched" in err and "pyrxsum: 28 files verified" in err
    summeval = registry.get("summeval")
    assert (empty_cache / summeval.relative_root / "SUM/SummEval/data.pkl").is_file()
    assert not (empty_cache / registry.get("rouge155-sample").relative_root).exists()


def test_fetch_error_is_one_line_with_exit_code(empty_cache, tmp_path, capsys):
    assert main(["data", "fetch", "--mirror", str(tmp_path), "summeval"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert err.startswith("rougelab data fetch: error: ")
    assert "LICENSE is missing from the mirror" in err
    assert main(["data", "fetch", "--quiet", "no-such-set"]) == 1
    assert "unknown dataset 'no-such-set'" in capsys.readouterr().err


def test_list_before_and_after_fetch(empty_cache, capsys):
    assert main(["data", "list"]) == 0
    before = capsys.readouterr().out
    assert before.count("is not fetched") == len(registry.names())
    assert before.count("run `rougelab data fetch`") == len(registry.names())
    main(["data", "fetch", "--quiet", "--mirror", str(MIRROR)])
    assert main(["data", "list"]) == 0
    after = capsys.readouterr().out
    assert after == describe() + "\n"
    for name in registry.names():
        assert f"\n{name}: " in "\n" + after
    for line in ["1,600 rows = 100 docs x 16 systems; references per doc: 11; human columns: "
                 "coherence,", "2,500 rows = 100 docs x 25 systems",
                 "420 rows = 60 docs x 7 systems", "1,000 rows = 100 docs x 10 systems",
                 "2,400 rows = 100 docs x 24 systems", "a folder (see dataset_path), not a table",
                 "CC BY 4.0", "USC/ISI", "https://raw.githubusercontent.com/neulab/BARTScore/"
                 "248f511cb34ae3753fc81f7d7a945de5bfe33458/SUM/SummEval/"]:
        assert line in after


def test_path_prints_the_cached_folder_or_says_to_fetch(empty_cache, capsys):
    assert main(["data", "path", "summeval"]) == 1
    assert "rougelab data fetch" in capsys.readouterr().err
    main(["data", "fetch", "--quiet", "--mirror", str(MIRROR), "summeval"])
    assert main(["data", "path", "summeval"]) == 0
    printed = Path(capsys.readouterr().out.strip())
    assert (printed / "data.pkl").is_file() and printed.is_relative_to(empty_cache / registry.get("summeval").relative_root)
