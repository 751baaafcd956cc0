"""Byte-for-byte parity with ROUGE-1.5.5's official sample outputs (sample-output/ of its release).

Each official command runs from inside the cached ``sample-test/`` folder and its printed report must
equal the official file exactly, bootstrap confidence intervals included. The official outputs are read
from the data cache (``rougelab data fetch``), never from the repository. All 17 official runs are
listed: the 13 ROUGE-N/L/W/S runs and the 4 Basic Element (``-3``) runs.
"""
import contextlib
import io
import re
from pathlib import Path

import pytest

from rougelab.rouge.rouge155.sample import official_runs

OFFICIAL = official_runs()


def sample_root() -> Path:
    """The cached ROUGE-RELEASE-1.5.5 folder (skips the test if the data are not fetched)."""
    from rougelab.data import dataset_path
    from rougelab.data.registry import DataError
    try:
        return dataset_path("rouge155-sample")
    except DataError as exc:
        pytest.skip(str(exc))


def sample_test_dir() -> Path:
    return sample_root() / "sample-test"


def run_in(folder: Path, argv: list[str]) -> tuple[int, str, str]:
    """Run ``rougelab rouge155 ARGV`` inside ``folder``; (exit status, stdout, stderr)."""
    from rougelab.rouge.rouge155.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(folder), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def _documented_runs(readme: str) -> dict[str, list[str]]:
    """The runs the release's README.txt spells out: output file -> sorted option tokens (``-e data`` dropped)."""
    runs, pending_output, pending_command = {}, None, None
    for line in readme.splitlines():
        line = line.strip()
        command = re.match(r"(?:command)?>\s*ROUGE-1\.5\.4\.pl\s+(.*)", line)
        output = re.match(r"(?:output:\s*)?(\S+\.out)$", line)
        if command:
            pending_command = command[1].replace("-e data ", "").split()
            if pending_output:  # "<file>.out" above its command (ROUGE-test runs)
                runs[pending_output], pending_output, pending_command = sorted(pending_command), None, None
        elif output:
            if pending_command:  # "output: <file>" below its command (DUC2002 runs)
                runs[output[1]], pending_command = sorted(pending_command), None
            else:
                pending_output = output[1]
    return runs


def test_the_runs_are_those_the_release_documents():
    documented = _documented_runs((sample_root() / "README.txt").read_text(encoding="latin-1"))
    assert len(documented) == 15  # the README leaves out the two verify*.out runs
    ours = dict(OFFICIAL)
    assert {name: sorted(ours[name].split()) for name in documented} == documented
    outputs = {p.name for p in (sample_root() / "sample-output").iterdir()}
    assert set(ours) == outputs and len(OFFICIAL) == 17


@pytest.mark.parametrize("name, options", OFFICIAL, ids=[name for name, _ in OFFICIAL])
def test_official_output_byte_for_byte(name, options):
    root = sample_root()
    expected = (root / "sample-output" / name).read_bytes().decode("ascii")
    status, out, err = run_in(root / "sample-test", options.split())
    assert status == 0, err
    assert out == expected


def test_rougelab_command_line_dispatches_to_rouge155():
    # the installed `rougelab` console script, as a user runs it, against an official output
    import shutil
    import subprocess
    import sys
    root = sample_root()
    exe = shutil.which("rougelab", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("the rougelab console script is not installed next to this Python")
    name, options = OFFICIAL[11]           # the -z file-list run
    proc = subprocess.run([exe, "rouge155", *options.split()], cwd=root / "sample-test",
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (root / "sample-output" / name).read_text()
