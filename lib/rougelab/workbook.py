"""Run the workbook's notebooks with papermill, passing parameters (``smoke`` for a quick slice).

``run_workbook`` shows, per notebook, a progress bar over its cells with the elapsed time and ok/failed,
keeps going past a failing notebook (naming the cell and the error), and ends with a summary table.
"""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from rougelab.extras import require
from rougelab.paths import checkout_root

# The kernel's own start-up log (e.g. ipykernel's "running over TCP without encryption" warning) is noise
# to a reader of the run; errors inside cells still reach the executed notebook and the summary.
KERNEL_QUIET = ["--IPKernelApp.log_level=ERROR"]


def notebook_paths(names: list[str] | None = None, folder: Path | None = None) -> list[Path]:
    """The workbook's notebooks in order (default: those of ``checkout_root()``), or those named (by file
    name or stem)."""
    folder = checkout_root() / "notebooks" if folder is None else Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"no notebooks folder at {folder}: run from a rougelab checkout")
    found = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    if not names:
        return found
    by_name = {p.name: p for p in found} | {p.stem: p for p in found}
    unknown = [n for n in names if Path(n).name not in by_name]
    if unknown:
        raise FileNotFoundError(f"unknown notebook(s) {', '.join(unknown)}; the workbook has "
                                f"{', '.join(p.name for p in found)}")
    return [by_name[Path(n).name] for n in names]


def run_notebook(path: Path, output_dir: Path, *, smoke: bool = False, figures_dir: Path | None = None,
                 parameters: dict | None = None, progress: bool = False) -> Path:
    """Execute one notebook top to bottom (cwd = its folder); return the executed copy's path.

    The executed copy names ``figures_dir`` relative to the notebook's folder, and papermill's record of
    its input and output relative to the current directory when they lie in it (a checkout), not by where
    this machine keeps them; it shows no progress bars (a bar frozen in a record tells a reader nothing). A failing cell raises
    papermill's ``PapermillExecutionError`` (the executed copy is still written).
    """
    require("papermill", extra="lab", needed_for="running the notebooks")
    import papermill

    from rougelab.progress import quiet

    output_dir = Path(output_dir).resolve()
    output_dir.mkdir(parents=True, exist_ok=True)
    params = {"smoke": smoke, **(parameters or {})}
    if figures_dir is not None:
        Path(figures_dir).mkdir(parents=True, exist_ok=True)
        params["figures_dir"] = os.path.relpath(Path(figures_dir).resolve(), path.parent.resolve())
    out = output_dir / path.name
    bar = {"desc": path.stem, "file": sys.stderr, "mininterval": 1.0, "leave": True} if progress else False
    with quiet():   # TQDM_DISABLE for the kernel, which inherits this process's environment
        papermill.execute_notebook(_from_here(path), _from_here(out), parameters=params,
                                   cwd=str(path.parent), kernel_name="python3", progress_bar=bar,
                                   extra_arguments=KERNEL_QUIET)
    return out


def _from_here(path: Path) -> str:
    """``path`` relative to the current directory if it lies in it, else absolute."""
    path = Path(path).resolve()
    return str(path.relative_to(Path.cwd())) if path.is_relative_to(Path.cwd()) else str(path)


@dataclass
class NotebookRun:
    """One notebook's outcome: where its executed copy is, how long it took, and the error if it failed."""
    name: str
    output: Path
    seconds: float
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def describe_failure(exc: Exception) -> str:
    """One line naming the failing cell (index, execution count, first source line) and the error."""
    from papermill.exceptions import PapermillExecutionError

    if isinstance(exc, PapermillExecutionError):
        first_line = next((line for line in exc.source.splitlines() if line.strip()), "")
        return (f"cell {exc.cell_index} (In [{exc.exec_count}]: {first_line.strip()[:60]}): "
                f"{exc.ename}: {exc.evalue}")
    return f"{type(exc).__name__}: {exc}"


def run_workbook(names: list[str] | None = None, *, smoke: bool = False, output_dir: str | Path = "build",
                 figures_dir: str | Path = "figures", parameters: dict | None = None,
                 folder: Path | None = None, progress: bool = True, log=print) -> list[NotebookRun]:
    """Execute the named notebooks (default: all) in order, each whatever the others did; return one
    ``NotebookRun`` per notebook. With ``progress``, ``log`` receives each notebook's outcome line."""
    paths = notebook_paths(names, folder)
    require("papermill", extra="lab", needed_for="running the notebooks")  # before the first notebook
    runs = []
    for path in paths:
        start = time.perf_counter()
        try:
            out = run_notebook(path, Path(output_dir), smoke=smoke, figures_dir=Path(figures_dir),
                               parameters=parameters, progress=progress)
            error = None
        except Exception as exc:  # noqa: BLE001 - any failure of one notebook is reported; the others still run
            out, error = Path(output_dir).resolve() / path.name, describe_failure(exc)
        run = NotebookRun(path.stem, out, time.perf_counter() - start, error)
        runs.append(run)
        if progress:
            log(f"{run.name}: {'ok' if run.ok else 'FAILED'} in {run.seconds / 60:.1f} min"
                + ("" if run.ok else f" at {run.error}"))
    return runs


def summary_table(runs: list[NotebookRun]) -> str:
    """The end-of-run table: notebook, minutes, status (the error for a failed one)."""
    from tabulate import tabulate

    rows = [(r.name, f"{r.seconds / 60:.1f}", "ok" if r.ok else f"FAILED: {r.error}") for r in runs]
    total = sum(r.seconds for r in runs) / 60
    rows.append(("total", f"{total:.1f}", f"{sum(r.ok for r in runs)}/{len(runs)} ok"))
    return tabulate(rows, headers=["notebook", "minutes", "status"], tablefmt="github")
