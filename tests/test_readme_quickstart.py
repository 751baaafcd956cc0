"""The README's quick start, run verbatim: each code block followed by a ``text`` block is run (a Python
block in a fresh interpreter, a bash block with the installed ``rougelab`` first on the PATH) and must print
the numbers shown. A shown signature may leave parts out as ``...``; the parts shown must appear in order.

``quickstart_examples`` and ``check_output`` are also used by tests/test_install.py, which runs the same
blocks in a fresh virtual environment holding the bare package.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
_BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.S)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def quickstart_examples(readme: Path = README) -> list[tuple[str, str, str]]:
    """(language, code, shown output) of each block of the quick start that is followed by its output."""
    text = readme.read_text(encoding="utf-8")
    section = text[text.index("## Quick start"):text.index("\n## ", text.index("## Quick start") + 1)]
    blocks = [(m.group(1), m.group(2)) for m in _BLOCK.finditer(section)]
    return [(lang, code, shown) for (lang, code), (next_lang, shown) in zip(blocks, blocks[1:])
            if lang in ("python", "bash") and next_lang == "text"]


def run_example(language: str, code: str, bin_dir: Path, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    env = {**env, "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"}
    argv = [str(bin_dir / "python"), "-c", code] if language == "python" else ["bash", "-e", "-c", code]
    return subprocess.run(argv, capture_output=True, text=True, cwd=cwd, env=env, check=False)


def check_output(printed: str, shown: str) -> None:
    """The printed lines carry the shown lines' numbers; signature lines match their shown parts in order."""
    printed_lines, shown_lines = printed.strip("\n").splitlines(), shown.strip("\n").splitlines()
    assert len(printed_lines) == len(shown_lines), printed
    for got, expected in zip(printed_lines, shown_lines):
        if expected.startswith("signature: "):
            at = 0
            for part in expected.split("..."):
                found = got.find(part, at)
                assert found >= at, f"{part!r} not in the printed signature {got!r}"
                at = found + len(part)
        else:
            assert _NUMBER.findall(got) == _NUMBER.findall(expected), (got, expected)
            assert got.split() == expected.split() or _words(got) == _words(expected), (got, expected)


def _words(line: str) -> list[str]:
    return [w for w in re.split(r"[\s,:=(){}\[\]']+", _NUMBER.sub("#", line)) if w]


def test_the_quick_start_has_python_and_command_line_examples():
    languages = [lang for lang, _, _ in quickstart_examples()]
    assert "python" in languages and "bash" in languages
    assert any("rougelab score" in code for lang, code, _ in quickstart_examples() if lang == "bash")


@pytest.mark.parametrize("index", range(len(quickstart_examples())))
def test_quick_start_example_prints_what_the_readme_shows(index, tmp_path):
    language, code, shown = quickstart_examples()[index]
    env = dict(os.environ)
    lib = str(Path(__file__).resolve().parents[1] / "lib")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (lib, env.get("PYTHONPATH")) if p)
    done = run_example(language, code, Path(sys.executable).parent, tmp_path, env)
    assert done.returncode == 0, done.stderr
    check_output(done.stdout, shown)
