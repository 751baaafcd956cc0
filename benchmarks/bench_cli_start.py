"""Start-up cost: wall time and peak memory of `import rougelab` and of `rougelab score --metric rouge-1` on one pair.

Each command runs in a fresh process: one unmeasured warm-up run of every command (it fills numba's cache of
compiled kernels, the modules' bytecode and the operating system's file cache: what a user's second run finds),
then ``--runs`` rounds, each running every command of every environment once, in turn, so that a change in the
machine's load falls on all of them alike. The table gives the median with the range over the rounds, beside
the targets (under 1 s and under 200 MB for scoring one pair). Peak memory is the child's maximum resident set
size (``wait4``). The environments: the workbook's (this interpreter, every extra, this checkout's ``lib``
first on the path) and a bare ``pip install`` of this checkout built for the run (no extras; the workbook's
pins as constraints), which is what a new user has. The workbook's also holds pyarrow, which pandas 3 imports
with itself (the ``semantic`` and ``scale`` extras bring it); printing the corpus scores of a few texts loads
no pandas. ``--against DIR`` adds the same rows for another checkout's code (in both environments), measured
in the same rounds: a before/after comparison. Usage:

    python benchmarks/bench_cli_start.py [--runs 7] [--no-bare] [--against OTHER_CHECKOUT]
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


def measure(argv: list[str], pythonpath: str | None) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one run of ``argv``; a failing command stops the benchmark.
    ``pythonpath`` replaces PYTHONPATH (None: cleared, so the interpreter runs the rougelab installed in
    its own environment). PYTHONDONTWRITEBYTECODE is cleared: the warm-up leaves the modules' bytecode, as
    any run of a user's does (compiling rougelab's modules from source took a tenth of a second more)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({child.returncode}): {child.stderr.read().decode()}")
    child.stderr.close()
    return seconds, usage.ru_maxrss * 1024 / 1e6   # ru_maxrss is in KiB on Linux


def row(environment: str, label: str, seconds: list[float], megabytes: list[float], targets: bool) -> str:
    t, m = statistics.median(seconds), statistics.median(megabytes)
    target_t = f"< {TARGET_SECONDS:g} s ({'met' if t < TARGET_SECONDS else 'missed'})" if targets else ""
    target_m = f"< {TARGET_MB:g} MB ({'met' if m < TARGET_MB else 'missed'})" if targets else ""
    return (f"| {environment} | {label} | {t:.2f} ({min(seconds):.2f}-{max(seconds):.2f}) | {target_t} "
            f"| {m:.0f} ({min(megabytes):.0f}-{max(megabytes):.0f}) | {target_m} |")


def bare_python(folder: str, checkout: Path, name: str) -> str:
    """The interpreter of a fresh venv holding ``pip install`` of ``checkout`` (no extras)."""
    venv = Path(folder, name)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "-c", str(checkout / "constraints.txt"),
                    str(checkout)], check=True, cwd=folder)
    return str(venv / "bin" / "python")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="measured rounds (median reported)")
    parser.add_argument("--no-bare", action="store_true", help="skip the bare install (it takes a minute of pip)")
    parser.add_argument("--against", type=Path, help="another checkout, measured alongside (e.g. before a change)")
    args = parser.parse_args()
    checkouts = {"": ROOT, **({f" ({args.against.name})": args.against.resolve()} if args.against else {})}
    with tempfile.TemporaryDirectory(prefix="rougelab-bench-") as folder:
        summaries, references = Path(folder, "summary.txt"), Path(folder, "reference.txt")
        summaries.write_text("police killed the gunman\n")
        references.write_text("police kill the gunman\n")
        sides = []  # (environment label, interpreter, PYTHONPATH)
        for suffix, checkout in checkouts.items():
            sides.append((f"workbook environment{suffix}", sys.executable, str(checkout / "lib")))
            if not args.no_bare:
                sides.append((f"bare pip install{suffix}", bare_python(folder, checkout, f"bare{len(sides)}"), None))
        commands = []  # (environment, label, argv, pythonpath, targets)
        for environment, python, pythonpath in sides:
            score = [python, "-m", "rougelab.cli", "score", "--metric", "rouge-1",
                     "--summaries", str(summaries), "--references", str(references)]
            commands += [(environment, "`python -c 'import rougelab'`", [python, "-c", "import rougelab"], pythonpath,
                          False),
                         (environment, "`rougelab score --metric rouge-1` (one pair)", score, pythonpath, True)]
        for _, _, argv, pythonpath, _ in commands:
            measure(argv, pythonpath)  # warm-up, not counted
        results = [[] for _ in commands]
        for _ in range(args.runs):  # rounds: every command once, in turn
            for result, (_, _, argv, pythonpath, _) in zip(results, commands):
                result.append(measure(argv, pythonpath))
        print(f"{args.runs} rounds of every command after one warm-up; median (lowest-highest)\n")
        print("| environment | command | wall s | target | peak RSS MB | target |\n|---|---|---:|---|---:|---|")
        for result, (environment, label, _, _, targets) in zip(results, commands):
            seconds, megabytes = zip(*result)
            print(row(environment, label, list(seconds), list(megabytes), targets))
    print(f"\nmachine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
