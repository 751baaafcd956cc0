"""The book builder on tiny synthetic notebooks: pages, landing page, stale reruns, refused errors."""
import os
import re

import nbformat
import pytest
from nbformat import v4
from rougelab.book import BookError, build_book, papers, stale_notebooks
from rougelab.workbook import notebook_paths


FIGURE = ("import matplotlib.pyplot as plt\nfrom rougelab.notebook import save_figure\n"
          "fig, ax = plt.subplots()\nax.plot([0, 1], [0, 1])\nax.set_title('ours against the paper')\n"
          "save_figure(fig, figures_dir, 'demo')")


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
               _write(src, "01_paper", "'text'", FIGURE, "from IPython.display import Markdown\nMarkdown('$r_i$ holds')",
                      headline=TABLE.replace("0.137]}", "0.251]}"), scorecard=CARD)]
    executed, out = tmp_path_factory.mktemp("build"), tmp_path_factory.mktemp("book")
    index = build_book(executed, out, smoke=True, sources=sources)
    return src, sources, executed, out, index


def test_one_page_per_notebook_and_a_landing_page_with_every_headline_table(book):
    _, _, _, out, index = book
    assert {"00_tour.html", "01_paper.html", "index.html", "search.html", "searchindex.js"} <= {p.name for p in out.iterdir()}
    landing = index.read_text()
    assert landing.count("<table") >= 3 and "0.251" in landing        # the pages table and two headlines
    assert 'href="01_paper.html"' in landing and "Chin-Yew Lin" in landing
    cards = landing.split('<section id="which-claims-held-the-scorecards">')[1]
    assert "Our example holds" in cards and "<strong>held</strong>" in cards
    assert "<table" in cards and "toy data</p></td>" in cards   # the scorecard's Markdown table, rendered as a table
    page = (out / "01_paper.html").read_text()
    assert "smoke run" in page and "rougelab 0.1.0" in page and "summeval" in page
    assert 'class="toctree-l1' in page and 'href="00_tour.html"' in page  # the sidebar of pages
    assert page.count('class="btn search-button-field') == 1     # one search box (the sidebar's), not a second in a top bar


def test_nothing_loads_from_the_network_and_formulas_are_mathml(book):
    _, _, _, out, _ = book
    for page in out.glob("*.html"):
        text = page.read_text()
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", text), page.name
    assert "<math" in (out / "01_paper.html").read_text() and "<msub><mi>r</mi><mi>i</mi></msub>" in \
        (out / "01_paper.html").read_text()


def test_each_page_offers_its_executed_notebook_and_its_source(book):
    src, _, _, out, _ = book
    page = (out / "01_paper.html").read_text()
    links = re.findall(r'href="([^"]+\.ipynb)"', page)
    assert links == ["_sources/01_paper.ipynb", "notebooks/01_paper.ipynb"], links
    executed = nbformat.read(out / links[0], as_version=4)
    assert executed.metadata.papermill.end_time and any(c.get("outputs") for c in executed.cells if c.cell_type == "code")
    assert (out / links[1]).read_bytes() == (src / "01_paper.ipynb").read_bytes()


def test_figures_carry_their_alt_text(book):
    _, _, _, out, _ = book
    images = re.findall(r"<img [^>]*>", (out / "01_paper.html").read_text())
    assert len(images) == 1 and 'alt="ours against the paper"' in images[0], images


def test_only_stale_notebooks_are_rerun(book):
    _, sources, executed, _, _ = book
    assert stale_notebooks(executed, sources) == []
    newer = max(p.stat().st_mtime for p in executed.glob("*.ipynb")) + 10
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
    # a page Sphinx cannot render as it stands (here: a link to no page) is refused with Sphinx's warning
    linked = [_write(tmp_path, "00_tour", "from IPython.display import Markdown\nMarkdown('[gone](99_gone.ipynb)')",
                     headline=TABLE)]
    with pytest.raises(BookError, match=r"(?s)Sphinx warned.*99_gone"):
        build_book(tmp_path / "build3", tmp_path / "book3", smoke=True, sources=linked)


def test_the_papers_come_from_the_citation_file():
    listed = papers()
    assert len(listed) == 5 and listed[0].startswith("Chin-Yew Lin (2004). *ROUGE: A Package")


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda p: p.stem)
def test_every_notebook_tags_one_headline_cell_and_selects_the_project_kernel(path):
    nb = nbformat.read(path, as_version=4)
    tagged = [c for c in nb.cells if "headline" in c.metadata.get("tags", [])]
    assert len(tagged) == 1 and tagged[0].cell_type == "code", "tag the cell showing 'ours vs the paper'"
    assert nb.metadata["kernelspec"]["name"] == "rougelab"   # `make lab` registers it


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda p: p.stem)
def test_the_code_that_writes_prose_is_folded_away_in_the_book(path):
    nb = nbformat.read(path, as_version=4)
    prose = [c for c in nb.cells if c.cell_type == "code" and re.search(r"\b(prose|Markdown)\(", c.source)]
    unfolded = [c.source.splitlines()[0] for c in prose
                if not {"hide-input", "remove-input"} & set(c.metadata.get("tags", []))]
    assert prose and not unfolded, f"tag these cells hide-input: {unfolded}"
