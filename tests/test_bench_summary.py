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
## benchmarks/bench_c.py
| batch | path | ours | compared with | its | ratio | target |
|---|---|---:|---|---:|---:|---|
| 1,000,000 pairs | peak RSS of the largest worker | 589 (589-601) MiB | one process | 5,066 MiB | | < 1024 MiB |
| 1,000,000 pairs | Dask | 12.9 s | one process | 19.6 s | 1.52 (1.5-1.55)x its throughput | >= 0.8x |
| SummEval | encode, cold | 53 s | | | | < 4 min |
| SummEval | peak memory after encoding / after scoring | 1.14 / 5.2 GiB | | | | < 4 GiB |
"""


def test_rows_with_a_target_are_kept_with_their_verdicts():
    tables = list(summary.target_rows(OUTPUT.splitlines()))
    assert [(bench, header[0]) for bench, header, _ in tables] == [("benchmarks/bench_a.py", "batch"),
                                                                   ("benchmarks/bench_b.py", "command"),
                                                                   ("benchmarks/bench_c.py", "batch")]
    assert [(row[1], verdicts) for row, verdicts in tables[0][2]] == [("registry", ["met"]), ("Dask", ["missed"])]
    assert [verdicts for _, verdicts in tables[1][2]] == [["met", "missed"], ["missed"]]


def test_an_empty_cell_before_the_target_judges_the_rows_first_figure_in_the_targets_unit():
    """A row without a ratio is judged by its own figure (589 MiB), not by the peer's beside it (5,066 MiB);
    53 s meets "< 4 min" (judged as 53 against 4, it missed); of "a / b", each figure is judged."""
    table = list(summary.target_rows(OUTPUT.splitlines()))[2]
    assert table[0] == "benchmarks/bench_c.py"
    assert [verdicts for _, verdicts in table[2]] == [["met"], ["met"], ["met"], ["missed"]]  # 5.2 GiB > 4


def test_a_target_without_a_comparison_gets_no_verdict():
    assert summary.verdict("2.1x faster", "same splits") == ""
    assert summary.verdict("1.5e+03 ms", "< 2,000 ms") == "met"
    assert summary.verdict("2.5 s", "< 2,000 ms") == "missed"
    assert summary.verdict("1,100 MiB", "< 1 GiB") == "missed"
    assert summary.verdict("3 s", "< 4 MiB") == ""  # a time against a memory bound: no verdict
