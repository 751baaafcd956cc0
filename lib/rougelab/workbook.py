"""Run the workbook's notebooks with papermill, passing parameters (``smoke`` for a quick slice)."""
from __future__ import annotations

from pathlib import Path

from rougelab.paths import _CHECKOUT

NOTEBOOK_DIR = _CHECKOUT / "notebooks"


def notebook_paths(names: list[str] | None = None) -> list[Path]:
    """The workbook's notebooks in order, or those named (by file name or stem)."""
    if not NOTEBOOK_DIR.is_dir():
        raise FileNotFoundError(f"no notebooks folder at {NOTEBOOK_DIR}: run from a rougelab checkout")
    found = sorted(NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"))
    if not names:
        return found
    by_name = {p.name: p for p in found} | {p.stem: p for p in found}
    unknown = [n for n in names if Path(n).name not in by_name]
    if unknown:
        raise FileNotFoundError(f"unknown notebook(s) {', '.join(unknown)}; the workbook has "
                                f"{', '.join(p.name for p in found)}")
    return [by_name[Path(n).name] for n in names]


def run_notebook(path: Path, output_dir: Path, *, smoke: bool = False, figures_dir: Path | None = None,
                 parameters: dict | None = None) -> Path:
    """Execute one notebook top to bottom (cwd = notebooks/); return the executed copy's path."""
    import papermill

    output_dir = Path(output_dir).resolve()
    output_dir.mkdir(parents=True, exist_ok=True)
    params = {"smoke": smoke, **(parameters or {})}
    if figures_dir is not None:
        Path(figures_dir).mkdir(parents=True, exist_ok=True)
        params["figures_dir"] = str(Path(figures_dir).resolve())
    out = output_dir / path.name
    papermill.execute_notebook(str(path), str(out), parameters=params, cwd=str(path.parent),
                               kernel_name="python3", progress_bar=False)
    return out


def run_workbook(names: list[str] | None = None, *, smoke: bool = False, output_dir: str | Path = "build",
                 figures_dir: str | Path = "figures", parameters: dict | None = None) -> list[Path]:
    """Execute the named notebooks (default: all) in order; return the executed copies."""
    return [run_notebook(p, Path(output_dir), smoke=smoke, figures_dir=Path(figures_dir),
                         parameters=parameters) for p in notebook_paths(names)]
