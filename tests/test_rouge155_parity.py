"""Byte-for-byte parity with ROUGE-1.5.5's official sample outputs (sample-output/ of its release).

Each official command runs from inside the cached ``sample-test/`` folder and its printed report must
equal the official file exactly, bootstrap confidence intervals included. The official outputs are read
from the data cache (``rougelab data fetch``), never from the repository. All 17 official runs are
listed: the 13 ROUGE-N/L/W/S runs and the 4 Basic Element (``-3``) runs.
"""
import contextlib
import io
from pathlib import Path

import pytest

# (official output file, ROUGE-1.5.5 options): from ../shared/data/rouge155-sample-commands.tsv
OFFICIAL = [
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a.out", "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a ROUGE-test.xml"),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m.out", "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m ROUGE-test.xml"),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m-s.out",
     "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m -s ROUGE-test.xml"),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a.out",
     "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -l 10 -a ROUGE-test.xml"),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a-m.out",
     "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -l 10 -a -m ROUGE-test.xml"),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a-m-s.out",
     "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -l 10 -a -m -s ROUGE-test.xml"),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a.out",
     "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -b 75 -a ROUGE-test.xml"),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a-m.out",
     "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -b 75 -a -m ROUGE-test.xml"),
    ("ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out",
     "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -b 75 -a -m -s ROUGE-test.xml"),
    ("verify-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out", "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -b 75 -a -m -s verify.xml"),
    ("verify-spl-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out",
     "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -b 75 -a -m -s verify-spl.xml"),
    ("DUC2002-ROUGE.in.26.spl.lst.out", "-n 4 -z SPL DUC2002-ROUGE.in.26.spl.lst 26"),
    ("DUC2002-ROUGE.in.26.spl.out", "-n 4 DUC2002-ROUGE.in.26.spl.xml 26"),
    ("DUC2002-BE-F.in.26.lst.out", "-3 HM -z SIMPLE DUC2002-BE-F.in.26.lst 26"),
    ("DUC2002-BE-F.in.26.simple.out", "-3 HM DUC2002-BE-F.in.26.simple.xml 26"),
    ("DUC2002-BE-L.in.26.lst.out", "-3 HM -z SIMPLE DUC2002-BE-L.in.26.lst 26"),
    ("DUC2002-BE-L.in.26.simple.out", "-3 HM DUC2002-BE-L.in.26.simple.xml 26"),
]


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


def test_the_list_matches_the_official_command_table():
    table = Path(__file__).resolve().parents[2] / "shared" / "data" / "rouge155-sample-commands.tsv"
    if not table.exists():
        pytest.skip(f"{table} is not on this machine")
    rows = [line.split("\t") for line in table.read_text().splitlines() if line.strip()]
    assert sorted(OFFICIAL) == sorted((name, options) for name, options in rows)


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
