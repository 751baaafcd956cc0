"""``benchmarks/bench_scale_out.py``'s step-by-step breakdown of a partition runs on the score cache's current
private helpers (it calls them to time each step alone), on a few pairs of real article spans."""
import sys
from pathlib import Path

import pytest

from rougelab.paths import cache_dir

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
bench_scale_out = pytest.importorskip("bench_scale_out")


def test_the_breakdown_times_each_step_and_writes_the_three_entries(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUGELAB_CACHE", str(cache_dir()))  # the breakdown points it at a folder of its own
    bench_scale_out.make_data(tmp_path, pairs=60, registry_pairs=10, partition=30)
    result = bench_scale_out.breakdown(tmp_path, 30)
    assert result["rows"] == 30
    assert all(seconds >= 0 for seconds in result["steps"].values()) and len(result["steps"]) == 6
    written = sorted(p.name.split("-")[:2] for p in (tmp_path.glob("cache-*/scores/*.npy")))
    assert [name for name, _ in written] == ["rouge"] * 3 and len({tuple(n) for n in written}) == 3
