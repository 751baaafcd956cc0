"""Every benchmark row that has a target, beside its target: the end of ``make bench``.

Reads the markdown the benchmarks printed (``make bench`` keeps it in ``build/bench.md``; a line
``## benchmarks/bench_x.py`` starts each script's output) and prints, for each table with a ``target``
column, its header and the rows whose target is filled in, with a verdict: the leading number of the
last filled cell before the target (the figure the target is about: a median, a ratio) checked against the
target's first comparison (``>= 1.5x``, ``<= 1.1x``, ``< 1024 MiB``); no verdict where the target has
none. Usage: ``python benchmarks/summary.py build/bench.md``.
"""
from __future__ import annotations

import re
import sys

COMPARISON = re.compile(r"(>=|<=|<|>)\s*([0-9][0-9,]*\.?[0-9]*)")
NUMBER = re.compile(r"^\s*([0-9][0-9,]*\.?[0-9]*(?:e[+-]?[0-9]+)?)")
CHECKS = {">=": lambda v, t: v >= t, "<=": lambda v, t: v <= t, "<": lambda v, t: v < t, ">": lambda v, t: v > t}


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def verdict(value: str, target: str) -> str:
    """"met" or "missed" when ``target`` holds a comparison and ``value`` starts with a number, else ""."""
    comparison, number = COMPARISON.search(target), NUMBER.match(value)
    if not (comparison and number):
        return ""
    measured, bound = float(number[1].replace(",", "")), float(comparison[2].replace(",", ""))
    return "met" if CHECKS[comparison[1]](measured, bound) else "missed"


def target_rows(lines: list[str]):
    """(benchmark, header cells, [(row cells, verdicts)]) for each table with a ``target`` column."""
    benchmark, header, rows = "", None, []
    for line in [*lines, ""]:
        if not line.startswith("|"):
            if header and rows:
                yield benchmark, header, rows
            header, rows = None, []
            if line.startswith("## "):
                benchmark = line[3:].strip()
            continue
        row = cells(line)
        if header is None:
            header = row if "target" in row else []
        elif header and not set(line) <= set("|-: "):
            targets = [i for i, name in enumerate(header) if name == "target" and i < len(row) and row[i]]
            if targets:
                rows.append((row, [verdict(next((c for c in row[i - 1::-1] if c), ""), row[i]) for i in targets]))


def main(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    print("# Every row with a target\n")
    for benchmark, header, rows in target_rows(lines):
        print(f"{benchmark}\n\n| {' | '.join(header)} | verdict |\n|{'---|' * (len(header) + 1)}")
        for row, verdicts in rows:
            print(f"| {' | '.join(row)} | {', '.join(v or '-' for v in verdicts)} |")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
