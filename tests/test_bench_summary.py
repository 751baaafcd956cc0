"""`make bench`'s last step keeps every row with a target, and judges it by the figure before the target."""
import importlib.util
from pathlib import Path

SPEC = importlib.util.spec_from_file_location("summary", Path(__file__).resolve().parents[1] / "benchmarks" / "summary.py")
summary = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(summary)

OUTPUT = """## benchmarks/bench_a.py
some prose | with a bar

| batch | path | seconds | ratio | target |
|---|---|---:|---:|---|
| 20,000 pairs | registry | 1.2 (1.1-1.3) | 1.04 (1.01-1.2)x its time | <= 1.1x |
| 20,000 pairs | Dask | 9.7 | 0.43 (0.4-0.5)x its throughput | >= 0.8x |
| 20,000 pairs | no target here | 1.0 | 1x | |
## benchmarks/bench_b.py
| command | wall s | target | peak RSS MB | target |
|---|---:|---|---:|---|
| `rougelab score` | 0.9 (0.8-1.0) | < 1 s | 1,249 | < 200 MB |
| a cold start | 160.3 s | | | < 5 s |

| table | value |
|---|---|
| without a target column | 1 |
"""


def test_rows_with_a_target_are_kept_with_their_verdicts():
    tables = list(summary.target_rows(OUTPUT.splitlines()))
    assert [(bench, header[0]) for bench, header, _ in tables] == [("benchmarks/bench_a.py", "batch"),
                                                                   ("benchmarks/bench_b.py", "command")]
    assert [(row[1], verdicts) for row, verdicts in tables[0][2]] == [("registry", ["met"]), ("Dask", ["missed"])]
    assert [verdicts for _, verdicts in tables[1][2]] == [["met", "missed"], ["missed"]]


def test_a_target_without_a_comparison_gets_no_verdict():
    assert summary.verdict("2.1x faster", "same splits") == ""
    assert summary.verdict("1.5e+03 ms", "< 2,000 ms") == "met"
