"""The command line never prints a traceback: Ctrl-C is one line and status 130, any other error one
line and status 2. Interrupts are real SIGINTs sent to a child process."""
import random
import signal
import subprocess
import sys

import pytest

from rougelab.cli import main


def _long_input(tmp_path) -> str:
    """Texts that take ROUGE-SU* over ten seconds to score."""
    rng = random.Random(1)
    words = ["".join(rng.choice("abcdefgh") for _ in range(4)) for _ in range(3000)]
    path = tmp_path / "long.txt"
    path.write_text("".join(" ".join(rng.choice(words) for _ in range(60)) + "\n" for _ in range(20_000)))
    return str(path)


def _interrupt_when(tmp_path, marker: str, extra_wait: float) -> subprocess.CompletedProcess:
    """Run `rougelab score` on long input and send SIGINT once the import of ``marker`` is reported
    (``-X importtime``), ``extra_wait`` seconds later."""
    import time

    text = _long_input(tmp_path)
    proc = subprocess.Popen([sys.executable, "-X", "importtime", "-m", "rougelab.cli", "score", "--metric",
                             "rouge-su*", "--summaries", text, "--references", text, "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,  # its own process group, as a shell gives a command
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # not ignored
    lines = []
    for line in proc.stderr:
        lines.append(line)
        if line.startswith("import time:") and line.split("|")[-1].strip() == marker:
            break
    time.sleep(extra_wait)
    assert proc.poll() is None, "the command ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    rest = proc.stderr.read()
    proc.wait(timeout=120)
    err = [line for line in (lines + rest.splitlines(keepends=True)) if not line.startswith("import time:")]
    return proc.returncode, err


@pytest.mark.parametrize("marker, extra_wait", [
    ("numpy", 0.0),                      # start-up: while the scientific stack is imported
    ("rougelab.rouge.api", 1.0),         # work: the metric is resolved (its module imports this), scoring has begun
])
def test_ctrl_c_is_one_line_and_status_130(tmp_path, marker, extra_wait):
    status, err = _interrupt_when(tmp_path, marker, extra_wait)
    assert status == 130 and [line.strip() for line in err] == ["rougelab score: interrupted"]


def test_an_unforeseen_error_is_one_line_and_status_2(tmp_path, capsys, monkeypatch):
    from rougelab import user_files

    def broken(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded\nwhile reading")
    monkeypatch.setattr(user_files, "read_batch", broken)
    assert main(["score", "--metric", "rouge-1", "--summaries", "s.txt", "--references", "r.txt"]) == 2
    err = capsys.readouterr().err
    assert err == ("rougelab score: error: unexpected RecursionError: maximum recursion depth exceeded while "
                   "reading (please report it with the command line)\n")
