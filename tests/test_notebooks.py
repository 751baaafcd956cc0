"""Every notebook is committed clean, has a `parameters` cell, and runs top to bottom in smoke mode."""
import ast

import nbformat
import pytest

from rougelab.workbook import notebook_paths, run_notebook

NOTEBOOKS = notebook_paths()


def _parameters_cell(nb):
    tagged = [c for c in nb.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1, "exactly one cell must carry the `parameters` tag"
    return tagged[0]


def test_the_workbook_has_its_tour():
    assert NOTEBOOKS and NOTEBOOKS[0].name == "00_tour.ipynb"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_committed_clean_with_parameters(path):
    nb = nbformat.read(path, as_version=4)
    assert nb.cells[0].cell_type == "markdown", "the first cell says which paper and section it follows"
    params = _parameters_cell(nb)
    assert nb.cells.index(params) == 1, "the parameters cell follows the opening cell"
    assigned = {t.id for node in ast.parse(params.source).body if isinstance(node, ast.Assign)
                for t in node.targets if isinstance(t, ast.Name)}
    assert {"smoke", "figures_dir"} <= assigned
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, "commit notebooks with outputs stripped"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_in_smoke_mode(path, tmp_path):
    out = run_notebook(path, tmp_path / "build", smoke=True, figures_dir=tmp_path / "figures")
    executed = nbformat.read(out, as_version=4)
    errors = [o for c in executed.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    assert any(c.outputs for c in executed.cells if c.cell_type == "code"), "a notebook shows something"
