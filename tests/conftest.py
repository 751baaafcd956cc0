"""Shared test set-up: the SummEval table, and a report line saying why the `book` tests did not run (they are
deselected by default: see pyproject.toml)."""
import shutil

import pytest


@pytest.fixture(scope="session")
def summeval_table():
    """SummEval as ``rougelab.load_dataset`` gives it (``make test`` fetches the data first; without it the
    loader's error says how to fetch them)."""
    import rougelab

    return rougelab.load_dataset("summeval")


def pytest_terminal_summary(terminalreporter, config):
    if "not book" in (config.getoption("markexpr") or ""):
        why = "" if shutil.which("chromium") else "; Chromium is not installed here (`make system` installs it)"
        terminalreporter.write_line("book tests (the book in headless Chromium, the package in a fresh venv) "
                                    f"were not run: `make test-book` runs them{why}")
