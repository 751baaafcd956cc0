"""The book as a reader meets it: every page of ``build/book`` opened in headless Chromium, and every file of
the site read for what no page may hold.

Run by ``make test-book``, which first executes the notebooks in smoke mode into ``build/smoke`` and
builds the book from them (``ROUGELAB_BOOK`` / ``ROUGELAB_BOOK_EXECUTED`` name other folders). Each page
must show all its figures (loaded, with alt text) and tables, raise no console error, request nothing
beyond the machine, link only to files that exist, and carry the run's facts; the search box must find
pages, the download menu must hand out the notebooks, and at 800 px a wide table must scroll rather than
be cut. Screenshots land in ``build/book/screens/``.
"""
import json
import os
import re
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlparse

import nbformat
import pytest
from chromium import CHROMIUM

from rougelab.paths import cache_dir

ROOT = Path(__file__).resolve().parents[1]
BOOK = Path(os.environ.get("ROUGELAB_BOOK", ROOT / "build" / "book"))
EXECUTED = Path(os.environ.get("ROUGELAB_BOOK_EXECUTED", ROOT / "build" / "smoke"))

pytestmark = pytest.mark.book

PAGES = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (`make system` installs Debian's chromium); the book's browser "
                    "test did not run")
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


def _open(browser, page: str, shot: str | None = None) -> dict:
    found = browser.open((BOOK / page).resolve().as_uri())
    browser.screenshot(BOOK / "screens" / f"{shot or Path(page).stem}.png")
    return found


def _target(href: str, page: str) -> Path:
    """The file a relative link of ``page`` points at."""
    return (BOOK / page).parent / unquote(urlparse(href).path)


def _check_page(found: dict, page: str) -> None:
    """Links resolve, the run facts are there, nothing failed and nothing left the machine."""
    for href in found["links"]:
        if urlparse(href).path and not re.match(r"^(https?:|mailto:|javascript:)", href):
            assert _target(href, page).is_file(), f"{page} links to {href}, which is not in the book"
    facts = found["footer"]
    assert facts.startswith("rougelab ") and " UTC" in facts, facts
    assert re.search(r"summeval \S+/\S+@[0-9a-f]{12}", facts), facts
    assert found["errors"] == [], f"{page}: console errors {found['errors']}"
    away = [url for url in found["requests"] if not url.startswith(("file:", "data:", "about:"))]
    assert away == [], f"{page} asked the network for {away}"


@pytest.mark.parametrize("notebook", PAGES, ids=lambda n: n[:2])
def test_notebook_page_shows_its_figures_and_tables(browser, notebook):
    page = notebook.replace(".ipynb", ".html")
    found = _open(browser, page)
    figures, tables = _expected(notebook)
    assert len(found["images"]) == figures and all(i["loaded"] for i in found["images"]), found["images"]
    for image in found["images"]:   # alt text says what the figure shows, not where its file is
        assert len(image["alt"]) > 10 and not image["alt"].startswith("_images/"), image
    assert found["tables"] >= tables, f"{page}: {found['tables']} tables on the page, {tables} in the notebook"
    assert tables == 0 or found["tables"] > 0
    _check_page(found, page)
    assert {n.replace(".ipynb", ".html") for n in PAGES} - {notebook.replace(".ipynb", ".html")} <= set(found["links"])


def test_landing_page_has_the_tour_papers_and_every_headline_table(browser):
    found = _open(browser, "index.html")
    _check_page(found, "index.html")
    # the pages table, then one headline table per notebook
    assert found["tables"] >= 1 + len(PAGES)
    assert all(i["loaded"] for i in found["images"])
    text = (BOOK / "index.html").read_text()
    assert "The papers" in text and "ShafieiBavani" in text and "The tour" in text
    assert "Which claims held" in text


def test_the_search_box_finds_pages(browser):
    browser.open((BOOK / "index.html").resolve().as_uri())
    browser.evaluate("document.querySelector('button.search-button-field').click()")   # opens the search box
    found = browser.type_and_enter("#pst-search-dialog input[name=q]", "Kendall")
    assert urlparse(browser.evaluate("location.href")).path.endswith("/search.html")
    hits = browser.wait_until("document.querySelectorAll('#search-results ul.search li').length")
    browser.screenshot(BOOK / "screens" / "search.png")
    assert hits >= 2, "a word every paper page uses should find several pages"
    assert found["errors"] == [] and all(u.startswith(("file:", "data:")) for u in found["requests"])
    first = browser.evaluate("document.querySelector('#search-results ul.search li a').getAttribute('href')")
    assert _target(first, "search.html").is_file(), first


def test_each_page_offers_its_executed_notebook_and_its_source(browser):
    page = "01_rouge_lin2004.html"
    browser.open((BOOK / page).resolve().as_uri())
    links = browser.evaluate("[...document.querySelectorAll('.dropdown-download-buttons a')]"
                             ".map(a => [a.textContent.trim(), a.getAttribute('href')])")
    downloads = {text: href for text, href in links if href and href.endswith(".ipynb")}
    assert set(downloads) == {"executed .ipynb", "source .ipynb"}, links
    executed = nbformat.read(_target(downloads["executed .ipynb"], page), as_version=4)
    assert executed.metadata.papermill.end_time and any(c.get("outputs") for c in executed.cells if c.cell_type == "code")
    source = _target(downloads["source .ipynb"], page)
    assert source.read_bytes() == (ROOT / "notebooks" / "01_rouge_lin2004.ipynb").read_bytes()


def test_at_800_px_wide_tables_scroll_instead_of_being_cut(browser):
    browser.resize(800)
    try:
        for notebook in PAGES:
            page = notebook.replace(".ipynb", ".html")
            found = browser.open((BOOK / page).resolve().as_uri())
            wide = browser.evaluate("""[...document.querySelectorAll('.cell_output table')].map(t => {
                const box = t.closest('.output');
                return {wider: t.scrollWidth > box.clientWidth + 1, scrolls: getComputedStyle(box).overflowX};
              }).filter(t => t.wider)""")
            if wide:
                browser.screenshot(BOOK / "screens" / f"{Path(page).stem}-800px.png")
                assert all(t["scrolls"] in ("auto", "scroll") for t in wide), (page, wide)
                assert browser.evaluate("document.documentElement.scrollWidth") <= 800, f"{page} spills over at 800 px"
                assert found["errors"] == []
                return
        pytest.fail("no page has a table wider than 800 px: nothing to check")
    finally:
        browser.resize(1280)


def _machine_paths() -> list[str]:
    """Folders of the machine that built the book, which no page or download may name."""
    return sorted({str(ROOT) + "/", str(Path.home()) + "/", str(cache_dir().resolve()) + "/",
                   str(Path(tempfile.gettempdir()).resolve()) + "/"})


def test_no_page_holds_a_warning_or_a_path_of_this_machine():
    if not (BOOK / "index.html").exists():
        pytest.fail(f"no book at {BOOK}: `make test-book` builds it from a smoke run of the workbook")
    files = [p for p in BOOK.rglob("*") if p.suffix in (".html", ".ipynb", ".js") and "_static" not in p.parts]
    assert any(p.suffix == ".ipynb" for p in files)
    found = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        found += [f"{path.relative_to(BOOK)}: {folder}" for folder in _machine_paths() if folder in text]
        if path.suffix == ".html":
            found += [f"{path.relative_to(BOOK)}: a stderr output" for _ in re.findall(r'class="output stderr"', text)]
        if path.suffix == ".ipynb":
            nb = json.loads(text)
            found += [f"{path.relative_to(BOOK)} cell {i}: {o.get('name') or o['output_type']}: "
                      f"{''.join(o.get('text', o.get('evalue', '')))[:200]}"
                      for i, c in enumerate(nb["cells"]) for o in c.get("outputs", [])
                      if o["output_type"] == "error" or o.get("name") == "stderr"]
    assert found == [], "\n".join(found)
