"""The classroom: student copies of the notebooks without their solutions, and a grader that scores a copy.

Conventions in a notebook (nbgrader's markers, without nbgrader):

* a solution sits between a ``# BEGIN SOLUTION`` and an ``# END SOLUTION`` line of a code cell; the student copy
  replaces it with ``raise NotImplementedError(...)`` at the same indentation;
* the exercises are the cells from the one cell tagged ``exercises`` to the end of the notebook, and use no
  variable of the cells above them, so they run (and are graded) in seconds, without the data;
* each check cell carries ``{"rougelab": {"exercise": name, "points": n}}`` in its metadata and shows a
  ``CheckResult`` (``rougelab.exercises``): full points when it passed, none otherwise.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rougelab.extras import require

BEGIN, END = "# BEGIN SOLUTION", "# END SOLUTION"
EXERCISES_TAG = "exercises"
STUB = 'raise NotImplementedError("write your solution here")'
_STATUS = re.compile(r": (passed|failed|not attempted yet)\.")


class GradingError(ValueError):
    """A notebook the classroom tools cannot use as it stands (markers unbalanced, no exercises)."""


def strip_solution(source: str, where: str = "cell") -> str:
    """``source`` with every solution region replaced by the stub, indented like the region's first line."""
    out, inside, indent = [], False, ""
    for line in source.splitlines():
        marker = line.strip()
        if marker == BEGIN:
            if inside:
                raise GradingError(f"{where}: {BEGIN!r} inside a solution")
            inside, indent = True, line[:len(line) - len(line.lstrip())]
            out.append(indent + STUB)
        elif marker == END:
            if not inside:
                raise GradingError(f"{where}: {END!r} without {BEGIN!r}")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise GradingError(f"{where}: {BEGIN!r} without {END!r}")
    return "\n".join(out)


def student_notebook(nb, name: str = "notebook"):
    """A copy of ``nb`` (nbformat) with the solutions stripped; refuses a notebook without exercises."""
    exercises_start(nb, name)
    copy = nb.copy()
    copy.cells = [c.copy() for c in nb.cells]
    for i, cell in enumerate(copy.cells):
        if cell.cell_type == "code":
            cell.source = strip_solution(cell.source, f"{name} cell {i}")
    return copy


def exercises_start(nb, name: str = "notebook") -> int:
    """Index of the cell tagged ``exercises``."""
    found = [i for i, c in enumerate(nb.cells) if EXERCISES_TAG in c.get("metadata", {}).get("tags", [])]
    if len(found) != 1:
        raise GradingError(f"{name}: {len(found)} cells tagged {EXERCISES_TAG!r}; tag the one cell that opens "
                           "the exercises")
    return found[0]


def write_student_copies(paths: list[Path], output_dir: str | Path) -> list[Path]:
    """Write the student copy of each notebook that has exercises into ``output_dir``; return their paths."""
    require("nbformat", extra="lab", needed_for="student copies of the notebooks")
    import nbformat

    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        if not any(EXERCISES_TAG in c.get("metadata", {}).get("tags", []) for c in nb.cells):
            continue
        out = output_dir / path.name
        nbformat.write(student_notebook(nb, path.name), out)
        written.append(out)
    return written


@dataclass(frozen=True)
class Mark:
    """One exercise's grade: ``points`` of ``out_of``, and the check's status (or the error that stopped it)."""

    exercise: str
    points: float
    out_of: float
    status: str


def grade(path: str | Path, *, timeout: int = 300) -> list[Mark]:
    """Execute the exercise cells of the notebook at ``path`` (errors do not stop the run) and mark each check."""
    require("nbformat", "nbclient", extra="lab", needed_for="grading a notebook")
    import nbformat
    from nbclient import NotebookClient

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    start = exercises_start(nb, path.name)
    part = nb.copy()
    part.cells = [c.copy() for c in nb.cells[start:]]
    part.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(part, timeout=timeout, allow_errors=True, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    marks = [_mark(cell) for cell in part.cells if cell.get("metadata", {}).get("rougelab", {}).get("exercise")]
    if not marks:
        raise GradingError(f"{path.name}: no check cell (metadata rougelab.exercise) after the exercises tag")
    return marks


def _mark(cell) -> Mark:
    info = cell.metadata["rougelab"]
    points = float(info["points"])
    errors = [o for o in cell.outputs if o.output_type == "error"]
    if errors:
        return Mark(info["exercise"], 0.0, points, f"error: {errors[0].ename}: {errors[0].evalue}")
    texts = [o.get("data", {}).get("text/plain", "") for o in cell.outputs if o.output_type == "execute_result"]
    texts += [o.get("text", "") for o in cell.outputs if o.output_type == "stream"]
    found = [m.group(1) for text in texts for m in [_STATUS.search(text)] if m]
    status = found[0] if found else "no check result shown"
    return Mark(info["exercise"], points if status == "passed" else 0.0, points, status)


def marks_table(marks: list[Mark]) -> str:
    """Points per exercise and the total, as a GitHub-style table."""
    from tabulate import tabulate

    rows = [(m.exercise, f"{m.points:g} / {m.out_of:g}", m.status) for m in marks]
    rows.append(("total", f"{sum(m.points for m in marks):g} / {sum(m.out_of for m in marks):g}", ""))
    return tabulate(rows, headers=["exercise", "points", "check"], tablefmt="github")
