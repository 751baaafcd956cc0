"""The book builder on tiny synthetic notebooks: pages, landing page, stale reruns, refused errors."""
import os

import nbformat
import pytest
from nbformat import v4
from rougelab.book import BookError, build_book, papers, stale_notebooks
from rougelab.workbook import notebook_paths


def _write(folder, name, *sources, headline=None, scorecard=None):
    cells = [v4.new_markdown_cell(f"# {name} title"),
             v4.new_code_cell("smoke = False\nfigures_dir = 'figures'", metadata={"tags": ["parameters"]}),
             v4.new_code_cell("import pandas as pd")]
    cells += [v4.new_code_cell(s) for s in sources]
    if headline:
        cells.append(v4.new_code_cell(headline, metadata={"tags": ["headline"]}))
    if scorecard:
        cells.append(v4.new_code_cell(scorecard, metadata={"tags": ["scorecard"]}))
    path = folder / f"{name}.ipynb"
    nb = v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "rougelab", "display_name": "Python (rougelab)", "language": "python"}
    nbformat.write(nb, path)
    return path


CARD = ("from rougelab.scorecard import Scorecard, exact\n"
        "card = Scorecard('Paper', {'c': ('Our example holds', 'Section 2')})\ncard.show()\n"
        "card.add('c', exact('toy data', 'worked example', 0.0, threshold=0.0005, side='<'))")
TABLE = "pd.DataFrame({'ours': [0.137], 'paper': [0.137]}, index=['rouge-1'])"


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    src = tmp_path_factory.mktemp("notebooks")
    sources = [_write(src, "00_tour", "print('hello')", headline=TABLE),
               _write(src, "01_paper", "'text'", headline=TABLE.replace("0.137]}", "0.251]}"), scorecard=CARD)]
    executed, out = tmp_path_factory.mktemp("build"), tmp_path_factory.mktemp("book")
    index = build_book(executed, out, smoke=True, sources=sources)
    return src, sources, executed, out, index


def test_one_page_per_notebook_and_a_landing_page_with_every_headline_table(book):
    _, _, _, out, index = book
    assert sorted(p.name for p in out.iterdir()) == ["00_tour.html", "01_paper.html", "index.html"]
    landing = index.read_text()
    assert landing.count("<table") >= 3 and "0.251" in landing        # the pages table and two headlines
    assert 'href="01_paper.html"' in landing and "Chin-Yew Lin" in landing
    assert "Which claims held" in landing and "Our example holds" in landing and "<strong>held</strong>" in landing
    page = (out / "01_paper.html").read_text()
    assert "smoke run" in page and "rougelab 0.1.0" in page and "summeval" in page
    assert 'rel="prev"' in page and "<script src=" not in page    # nothing loads from the network


def test_only_stale_notebooks_are_rerun(book):
    _, sources, executed, _, _ = book
    assert stale_notebooks(executed, sources) == []
    newer = executed.joinpath("00_tour.ipynb").stat().st_mtime + 10
    os.utime(sources[1], (newer, newer))
    assert stale_notebooks(executed, sources) == [sources[1]]
    # an interrupted run leaves a copy without papermill's end time: rerun it too
    tour = nbformat.read(executed / "00_tour.ipynb", as_version=4)
    tour.metadata.papermill.end_time = None
    nbformat.write(tour, executed / "00_tour.ipynb")
    assert stale_notebooks(executed, sources) == sources


def test_a_failing_run_an_error_output_or_a_missing_headline_stops_the_build(tmp_path):
    tour = _write(tmp_path, "00_tour", headline=TABLE)
    broken = [tour, _write(tmp_path, "01_broken", "1/0", headline=TABLE)]
    with pytest.raises(BookError, match=r"runs failed:\n  01_broken: cell 4 .*ZeroDivisionError"):
        build_book(tmp_path / "build", tmp_path / "book", smoke=True, sources=broken)
    # a finished executed copy that shows an error output is refused, not rendered
    shown = _write(tmp_path, "01_shown", "1/0", headline=TABLE)
    nb = nbformat.read(shown, as_version=4)
    nb.cells[3].outputs = [v4.new_output("error", ename="ZeroDivisionError", evalue="division by zero", traceback=[])]
    nb.metadata["papermill"] = {"end_time": "2026-11-24T12:00:00", "exception": None}  # e.g. run with allow-errors
    nbformat.write(nb, tmp_path / "build" / "01_shown.ipynb")
    with pytest.raises(BookError, match="01_shown.ipynb: cell 3: ZeroDivisionError"):
        build_book(tmp_path / "build", tmp_path / "book", smoke=True, sources=[tour, shown])
    plain = [_write(tmp_path, "00_tour", "1")]
    with pytest.raises(BookError, match="00_tour.ipynb: 0 cells tagged 'headline'"):
        build_book(tmp_path / "build2", tmp_path / "book2", smoke=True, sources=plain)


def test_the_papers_come_from_the_citation_file():
    listed = papers()
    assert len(listed) == 5 and listed[0].startswith("Chin-Yew Lin (2004). *ROUGE: A Package")


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda p: p.stem)
def test_every_notebook_tags_one_headline_cell_and_selects_the_project_kernel(path):
    nb = nbformat.read(path, as_version=4)
    tagged = [c for c in nb.cells if "headline" in c.metadata.get("tags", [])]
    assert len(tagged) == 1 and tagged[0].cell_type == "code", "tag the cell showing 'ours vs the paper'"
    assert nb.metadata["kernelspec"]["name"] == "rougelab"   # `make lab` registers it


def test_tex_becomes_mathml_outside_code_spans():
    from rougelab.book import tex_to_mathml

    out = tex_to_mathml("`$HOME` holds $r_i$; $$f(k) = k^2$$ and it costs $5 or $6")
    assert out.startswith("`$HOME` holds <math") and out.count("<math") == 2
    assert '<msub><mi>r</mi><mi>i</mi></msub>' in out and 'display="block"' in out
    assert out.endswith("and it costs $5 or $6")
