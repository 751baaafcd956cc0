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


def pytest_configure(config):
    """Compile every kernel on its first call, and fix the folder of the compiled kernels
    (``rougelab._jit.kernel_cache``) from the session's ``ROUGELAB_CACHE`` before a test points that at a
    temporary folder: otherwise the process whose first kernel is decorated inside such a test would compile
    every kernel again, there."""
    from rougelab import _jit

    if _jit.NUMBA:
        _jit.kernel_cache()
    # The tests check the compiled kernels: each compiles on its first call, however small the batch. A small
    # first call runs the kernels' Python sources otherwise (``_jit.compiled_or_python``): a fresh environment's
    # test run would then check those alone. tests/test_first_call.py checks that route, in fresh processes.
    _jit.COMPILE_SECONDS = 0.0


def pytest_terminal_summary(terminalreporter, config):
    if "not book" in (config.getoption("markexpr") or ""):
        why = "" if shutil.which("chromium") else "; Chromium is not installed here (`make system` installs it)"
        terminalreporter.write_line("book tests (the book in headless Chromium, the package in a fresh venv) "
                                    f"were not run: `make test-book` runs them{why}")
