"""The notebook runner: names, progress on tiny synthetic notebooks, failures named by cell, a summary."""
import nbformat
import pytest
from nbformat import v4
from rougelab.workbook import notebook_paths, run_workbook, summary_table


def test_notebooks_by_stem_or_file_name():
    assert notebook_paths(["00_tour"]) == notebook_paths(["00_tour.ipynb"])


def test_unknown_notebook_names_the_known_ones():
    with pytest.raises(FileNotFoundError, match="unknown notebook.*00_tour.ipynb"):
        notebook_paths(["99_nothing"])


def _write(folder, name, *sources):
    params = v4.new_code_cell("smoke = False\nfigures_dir = 'figures'", metadata={"tags": ["parameters"]})
    nb = v4.new_notebook(cells=[v4.new_markdown_cell(f"# {name}"), params, *map(v4.new_code_cell, sources)])
    nb.metadata["kernelspec"] = {"name": "rougelab", "display_name": "Python (rougelab)", "language": "python"}
    nbformat.write(nb, folder / f"{name}.ipynb")


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("notebooks")
    _write(folder, "01_first", "x = 2", "print(x * 21)")
    _write(folder, "02_broken", "y = 1", "raise ValueError('the data are not there')", "print('never')")
    _write(folder, "03_after", "print('smoke' if smoke else 'full')")
    lines = []
    runs = run_workbook(smoke=True, output_dir=tmp_path_factory.mktemp("build"),
                        figures_dir=tmp_path_factory.mktemp("figures"), folder=folder, log=lines.append)
    return runs, lines


def test_a_failing_notebook_is_named_with_its_cell_and_error_and_the_others_still_run(tiny_run):
    runs, lines = tiny_run
    assert [(r.name, r.ok) for r in runs] == [("01_first", True), ("02_broken", False), ("03_after", True)]
    broken = runs[1].error
    assert "cell 4" in broken and "raise ValueError" in broken and "ValueError: the data are not there" in broken
    assert lines[0].startswith("01_first: ok in ") and lines[1].startswith("02_broken: FAILED in ")
    executed = nbformat.read(runs[2].output, as_version=4)
    assert executed.cells[-1].outputs[0]["text"] == "smoke\n"   # the parameters reached the last notebook


def test_the_record_holds_no_progress_bar_and_no_folder_of_this_machine(tmp_path, monkeypatch):
    (tmp_path / "notebooks").mkdir()
    _write(tmp_path / "notebooks", "01_bar", "from rougelab.progress import bar\nfor _ in bar(range(3)): pass",
           "print(figures_dir)")
    monkeypatch.chdir(tmp_path)   # a checkout
    run = run_workbook(output_dir="build", figures_dir="build/figures", folder=tmp_path / "notebooks")[0]
    executed = nbformat.read(run.output, as_version=4)
    assert executed.cells[-2].outputs == []       # rougelab's bar (a tqdm notebook widget): off in the kernel
    assert executed.cells[-1].outputs[0]["text"] == "../build/figures\n"
    assert executed.metadata.papermill.input_path == "notebooks/01_bar.ipynb"
    assert str(tmp_path) not in run.output.read_text()


def test_the_summary_table_has_one_row_per_notebook_and_a_total(tiny_run):
    runs, _ = tiny_run
    table = summary_table(runs).splitlines()
    assert [c.strip() for c in table[0].split("|")[1:4]] == ["notebook", "minutes", "status"]
    assert "| 02_broken " in table[3] and "FAILED: cell 4" in table[3]
    assert table[-1].startswith("| total") and "2/3 ok" in table[-1]


def test_progress_bars_show_and_kernel_warnings_do_not(tmp_path, capfd):
    _write(tmp_path, "01_one", "1 + 1")
    run_workbook(output_dir=tmp_path / "build", figures_dir=tmp_path / "figures", folder=tmp_path, log=print)
    out, err = capfd.readouterr()
    assert "01_one" in err and "cell" in err          # tqdm's bar: the notebook's name, cells done
    assert "without encryption" not in err + out
    assert "01_one: ok in" in out


def test_the_notebooks_are_those_of_the_checkout_the_command_runs_in(tmp_path, monkeypatch):
    from rougelab.workbook import notebook_paths

    checkout = tmp_path / "my-clone"
    (checkout / "notebooks").mkdir(parents=True)
    (checkout / "pyproject.toml").write_text('[project]\nname = "rougelab"\n')
    (checkout / "notebooks" / "00_mine.ipynb").write_text("{}")
    (checkout / "lib").mkdir()
    monkeypatch.chdir(checkout / "lib")  # a subfolder: its parent is the checkout
    assert notebook_paths() == [checkout / "notebooks" / "00_mine.ipynb"]
