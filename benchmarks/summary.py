"""Every benchmark row that has a target, beside its target: the end of ``make bench``.

Reads the markdown the benchmarks printed (``make bench`` keeps it in ``build/bench.md``; a line
``## benchmarks/bench_x.py`` starts each script's output) and prints, for each table with a ``target``
column, its header and the rows whose target is filled in, with a verdict: the figure the target is about
(the cell just before the target, a median or a ratio; when that cell is empty, the row's first figure with
a unit, as in ``589 (589-601) MiB``) checked against the target's first comparison (``>= 1.5x``,
``<= 1.1x``, ``< 1024 MiB``, ``< 4 min``) in the target's unit (``53 s`` meets ``< 4 min``); no verdict where
the target has no comparison or the units measure different things. Usage:
``python benchmarks/summary.py build/bench.md``.
"""
from __future__ import annotations

import re
import sys

# A unit's dimension and size in that dimension's base unit (seconds, MB, a ratio).
UNITS = {"ms": ("time", 1e-3), "s": ("time", 1.0), "min": ("time", 60.0), "h": ("time", 3600.0),
         "MB": ("memory", 1.0), "MiB": ("memory", 1.048576), "GB": ("memory", 1e3), "GiB": ("memory", 1073.741824),
         "x": ("ratio", 1.0)}
_UNIT = "|".join(sorted(UNITS, key=len, reverse=True))
COMPARISON = re.compile(rf"(>=|<=|<|>)\s*([0-9][0-9,]*\.?[0-9]*)\s*({_UNIT})?(?![A-Za-z])")
NUMBER = re.compile(r"^\s*([0-9][0-9,]*\.?[0-9]*(?:e[+-]?[0-9]+)?)")
# A figure: a number, perhaps its range in brackets or more numbers after "/", then a unit
# ("589 (589-601) MiB", "1.04x", "53 s", "1.14 / 1.58 GiB").
FIGURE = re.compile(rf"^\s*[0-9][0-9,.e+-]*\s*(?:\([^)]*\))?(?:\s*/\s*[0-9][0-9,.e+-]*)*\s*({_UNIT})(?![A-Za-z])")
CHECKS = {">=": lambda v, t: v >= t, "<=": lambda v, t: v <= t, "<": lambda v, t: v < t, ">": lambda v, t: v > t}


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def verdict(value: str, target: str) -> str:
    """"met" or "missed" when ``target`` holds a comparison and ``value`` starts with a number (or several,
    "a / b", each judged), in the target's unit or one of the same dimension; else ""."""
    comparison = COMPARISON.search(target)
    numbers = [NUMBER.match(part) for part in value.split(" / ")]  # "1.14 / 1.58 GiB": each must meet it
    if not (comparison and all(numbers)):
        return ""
    bound, scale = float(comparison[2].replace(",", "")), 1.0
    unit, target_unit = (FIGURE.match(value) or [None, None])[1], comparison[3]
    if unit and target_unit:
        if UNITS[unit][0] != UNITS[target_unit][0]:
            return ""
        scale = UNITS[unit][1] / UNITS[target_unit][1]
    met = all(CHECKS[comparison[1]](float(n[1].replace(",", "")) * scale, bound) for n in numbers)
    return "met" if met else "missed"


def judged_figure(row: list[str], target: int) -> str:
    """The cell a target judges: the one just before it, or, when that is empty, the row's first figure."""
    if row[target - 1]:
        return row[target - 1]
    return next((c for c in row[1:target] if FIGURE.match(c)), "")


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
                rows.append((row, [verdict(judged_figure(row, i), row[i]) for i in targets]))


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
