"""The book in a real browser: every page of ``build/book`` opened in headless Chromium.

Run by ``make test-book``, which first executes the notebooks in smoke mode into ``build/smoke`` and
builds the book from them (``ROUGELAB_BOOK`` / ``ROUGELAB_BOOK_EXECUTED`` name other folders). Each page
must show all its figures (natural width > 0) and tables, raise no console error, link only to pages
that exist, and carry the run's facts; a screenshot of each lands in ``build/book/screens/``.
"""
import os
import re
from pathlib import Path

import nbformat
import pytest
from chromium import CHROMIUM

ROOT = Path(__file__).resolve().parents[1]
BOOK = Path(os.environ.get("ROUGELAB_BOOK", ROOT / "build" / "book"))
EXECUTED = Path(os.environ.get("ROUGELAB_BOOK_EXECUTED", ROOT / "build" / "smoke"))

pytestmark = [pytest.mark.book,
              pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (`make system` installs "
                                                          "Debian's chromium); the book's browser test did not run")]

PAGES = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.fixture(scope="module")
def browser():
    from chromium import Browser

    if not (BOOK / "index.html").exists():
        pytest.fail(f"no book at {BOOK}: `make test-book` builds it from a smoke run of the workbook")
    (BOOK / "screens").mkdir(exist_ok=True)
    opened = Browser()
    yield opened
    opened.close()


def _expected(notebook: str) -> tuple[int, int]:
    """(figures, output tables) the executed notebook shows."""
    nb = nbformat.read(EXECUTED / notebook, as_version=4)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    figures = sum("image/png" in o.get("data", {}) for o in outputs)
    tables = sum(o.get("data", {}).get("text/html", "").count("<table") for o in outputs)
    return figures, tables


def _open(browser, page: str) -> dict:
    found = browser.open((BOOK / page).resolve().as_uri())
    browser.screenshot(BOOK / "screens" / f"{Path(page).stem}.png")
    return found


def _check_links_and_facts(found: dict, page: str) -> None:
    for href in found["links"]:
        if not re.match(r"^(#|https?:|mailto:)", href):
            assert (BOOK / href.split("#")[0]).is_file(), f"{page} links to {href}, which is not in the book"
    footer = found["footer"]
    assert footer.startswith("rougelab ") and " UTC" in footer, footer
    assert re.search(r"summeval \S+/\S+@[0-9a-f]{12}", footer), footer
    assert found["errors"] == [], f"{page}: console errors {found['errors']}"


@pytest.mark.parametrize("notebook", PAGES, ids=lambda n: n[:2])
def test_notebook_page_shows_its_figures_and_tables(browser, notebook):
    page = notebook.replace(".ipynb", ".html")
    found = _open(browser, page)
    figures, tables = _expected(notebook)
    assert len(found["images"]) == figures and all(i["loaded"] for i in found["images"]), found["images"]
    assert found["tables"] >= tables, f"{page}: {found['tables']} tables on the page, {tables} in the notebook"
    assert tables == 0 or found["tables"] > 0
    _check_links_and_facts(found, page)
    assert {"index.html"} | {n.replace(".ipynb", ".html") for n in PAGES} <= set(found["links"])


def test_landing_page_has_the_tour_papers_and_every_headline_table(browser):
    found = _open(browser, "index.html")
    _check_links_and_facts(found, "index.html")
    # the pages table, then one headline table per notebook
    assert found["tables"] >= 1 + len(PAGES)
    assert all(i["loaded"] for i in found["images"])
    text = (BOOK / "index.html").read_text()
    assert "The papers" in text and "ShafieiBavani" in text and "The tour" in text
