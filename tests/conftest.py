"""Says in the report why the `book` tests did not run (they are deselected by default: see pyproject.toml)."""
import shutil


def pytest_terminal_summary(terminalreporter, config):
    if "not book" in (config.getoption("markexpr") or ""):
        why = "" if shutil.which("chromium") else "; Chromium is not installed here (`make system` installs it)"
        terminalreporter.write_line("book tests (the book in headless Chromium, the package in a fresh venv) "
                                    f"were not run: `make test-book` runs them{why}")
