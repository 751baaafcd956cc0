"""Start-up cost: wall time and peak memory of `import rougelab` and of `rougelab score --metric rouge-1` on one pair.

Each command runs in a fresh process, ``--runs`` times after one unmeasured warm-up run (which fills numba's
cache of compiled kernels and the operating system's file cache); the table gives the median with the range
over the runs, beside the targets (under 1 s and under 200 MB for scoring one pair). Peak memory is the
child's maximum resident set size (``wait4``). The commands run twice: in this environment (the workbook's,
with every extra) and in a bare ``pip install`` of the checkout built for the run (no extras; the workbook's
pins as constraints), which is what a new user has. The two differ by pyarrow: pandas 3 imports it at import
when it is installed (the ``semantic`` and ``scale`` extras bring it), about 35 MB. Usage:

    python benchmarks/bench_cli_start.py [--runs 7] [--no-bare]
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_SECONDS = 1.0
TARGET_MB = 200.0
ROOT = Path(__file__).resolve().parents[1]


def measure(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one run of ``argv``; a failing command stops the benchmark.
    PYTHONPATH is cleared, so each interpreter runs the rougelab installed in its own environment."""
    start = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({child.returncode}): {child.stderr.read().decode()}")
    child.stderr.close()
    return seconds, usage.ru_maxrss * 1024 / 1e6   # ru_maxrss is in KiB on Linux


def row(environment: str, label: str, argv: list[str], runs: int, targets: bool) -> str:
    measure(argv)  # warm-up, not counted
    seconds, megabytes = zip(*(measure(argv) for _ in range(runs)))
    t, m = statistics.median(seconds), statistics.median(megabytes)
    target_t = f"< {TARGET_SECONDS:g} s ({'met' if t < TARGET_SECONDS else 'missed'})" if targets else ""
    target_m = f"< {TARGET_MB:g} MB ({'met' if m < TARGET_MB else 'missed'})" if targets else ""
    return (f"| {environment} | `{label}` | {t:.2f} ({min(seconds):.2f}-{max(seconds):.2f}) | {target_t} "
            f"| {m:.0f} ({min(megabytes):.0f}-{max(megabytes):.0f}) | {target_m} |")


def bare_python(folder: str) -> str:
    """The interpreter of a fresh venv holding ``pip install .`` of the checkout (no extras)."""
    venv = Path(folder, "bare")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "-c", str(ROOT / "constraints.txt"), str(ROOT)],
                   check=True, cwd=folder)
    return str(venv / "bin" / "python")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="measured runs per command (median reported)")
    parser.add_argument("--no-bare", action="store_true", help="skip the bare install (it takes a minute of pip)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rougelab-bench-") as folder:
        summaries, references = Path(folder, "summary.txt"), Path(folder, "reference.txt")
        summaries.write_text("police killed the gunman\n")
        references.write_text("police kill the gunman\n")
        pythons = {"workbook environment": sys.executable}
        if not args.no_bare:
            pythons["bare pip install"] = bare_python(folder)
        print(f"{args.runs} runs per command after one warm-up; median (lowest-highest)\n")
        print("| environment | command | wall s | target | peak RSS MB | target |\n|---|---|---:|---|---:|---|")
        for environment, python in pythons.items():
            score = [python, "-m", "rougelab.cli", "score", "--metric", "rouge-1",
                     "--summaries", str(summaries), "--references", str(references)]
            print(row(environment, "python -c 'import rougelab'", [python, "-c", "import rougelab"], args.runs, False))
            print(row(environment, "rougelab score --metric rouge-1 (one pair)", score, args.runs, True))
    print(f"\nmachine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")

if __name__ == "__main__":
    main()
