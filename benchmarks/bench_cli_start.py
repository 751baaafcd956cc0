"""Start-up cost: wall time and peak memory of `import rougelab` and of `rougelab score --metric rouge-1` on one pair.

Each command runs in a fresh process, ``--runs`` times after one unmeasured warm-up run (which fills numba's
cache of compiled kernels and the operating system's file cache); the table gives the median with the range
over the runs, beside the targets (under 1 s and under 200 MB for scoring one pair). Peak memory is the
child's maximum resident set size (``wait4``). Usage:

    python benchmarks/bench_cli_start.py [--runs 7]
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


def measure(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one run of ``argv``; a failing command stops the benchmark."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({child.returncode}): {child.stderr.read().decode()}")
    child.stderr.close()
    return seconds, usage.ru_maxrss * 1024 / 1e6   # ru_maxrss is in KiB on Linux


def row(label: str, argv: list[str], runs: int, targets: bool) -> str:
    measure(argv)  # warm-up, not counted
    seconds, megabytes = zip(*(measure(argv) for _ in range(runs)))
    t, m = statistics.median(seconds), statistics.median(megabytes)
    target_t = f"< {TARGET_SECONDS:g} s ({'met' if t < TARGET_SECONDS else 'missed'})" if targets else ""
    target_m = f"< {TARGET_MB:g} MB ({'met' if m < TARGET_MB else 'missed'})" if targets else ""
    return (f"| `{label}` | {t:.2f} ({min(seconds):.2f}-{max(seconds):.2f}) | {target_t} "
            f"| {m:.0f} ({min(megabytes):.0f}-{max(megabytes):.0f}) | {target_m} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="measured runs per command (median reported)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rougelab-bench-") as folder:
        summaries, references = Path(folder, "summary.txt"), Path(folder, "reference.txt")
        summaries.write_text("police killed the gunman\n")
        references.write_text("police kill the gunman\n")
        score = [sys.executable, "-m", "rougelab.cli", "score", "--metric", "rouge-1",
                 "--summaries", str(summaries), "--references", str(references)]
        print(f"{args.runs} runs per command after one warm-up; median (lowest-highest)\n")
        print("| command | wall s | target | peak RSS MB | target |\n|---|---:|---|---:|---|")
        print(row("python -c 'import rougelab'", [sys.executable, "-c", "import rougelab"], args.runs, False))
        print(row("rougelab score --metric rouge-1 (one pair)", score, args.runs, True))
    print(f"\nmachine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")


if __name__ == "__main__":
    main()
