"""`rougelab` command line: data, evaluate, score, compare, metrics, cache, workbook, book, rouge155.

Only the standard library is imported before ``main`` runs (everything else inside it), so that an
interrupt at any moment is the one line and exit status 130 that ``main`` gives, never a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import signal
import sys
from itertools import chain
from pathlib import Path

EXAMPLES = """examples:
  rougelab data fetch --mirror DIR
  rougelab evaluate --dataset summeval --metric rouge-1,rouge-2,rouge-l --level global --coef kendall
  rougelab score --metric rouge-1,rouge-2 --summaries sys.txt --references ref1.txt --references ref2.txt
  cat sys.txt | rougelab score --metric rouge-2 --references ref.txt --format json
  rougelab compare --metric rouge-2 --references ref.txt base.txt sys1.txt sys2.txt
  rougelab rouge155 -c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m ROUGE-test.xml
  rougelab workbook --smoke 00_tour
  rougelab workbook --student --output-dir build
  rougelab grade build/student/01_rouge_lin2004.ipynb
"""


# Python seconds a character of text costs classic ROUGE-1 with stemming run as its kernels' Python sources (the
# sum of their estimates, ``rougelab._jit.compiled_or_python``'s: 1.68-1.8 us on 100 and 300 pairs of news).
PYTHON_SECONDS_PER_CHARACTER = 1.7e-6


def _one_call(texts=(), metrics: int = 1):
    """A command's scoring as the one call its process makes (``rougelab._jit.one_call``), of ``metrics`` on ``texts``
    (those read before it scores; none: not known): a few texts run the kernels kept on disk as Python rather than
    start numba to load them (``rougelab score`` on one pair: 0.50 s against 0.99); from about 470 pairs of news
    they load at once, as in the library. Each metric counts as a ROUGE-1 of its own (ROUGE measures scored
    together share their scan: an overestimate, which loads as before)."""
    # by importlib: a module importing rougelab._jit by name is a kernel source (_jit.kernel_sources)
    one_call = importlib.import_module("rougelab._jit").one_call
    return one_call(sum(map(len, texts)) * metrics * PYTHON_SECONDS_PER_CHARACTER)


def _evaluate(args) -> int:
    from rougelab.evaluate import evaluate
    from rougelab.progress import quiet
    from rougelab.scoring import InputError
    from rougelab.validation import check_interval_resamples, check_seed

    _metric_option(args.metric)
    criteria = None
    if args.criterion is not None:
        criteria = _split(args.criterion)
        if not criteria:
            raise InputError(f"--criterion {args.criterion!r} names no criterion: give one or more, "
                             "comma-separated, or leave the option out for all")
    check_interval_resamples(args.bootstrap, 0.95, "--bootstrap", optional=True)
    check_seed(args.seed, "--seed")
    with quiet(args.quiet), _one_call():
        table = evaluate(args.dataset, _split(args.metric), level=args.level, coef=args.coef,
                         criteria=criteria, n_resamples=args.bootstrap, seed=args.seed,
                         progress=not args.quiet)
    print(format_table(table, args.format))
    return 0


def format_table(table, fmt: str) -> str:
    """The correlation table as markdown, CSV or JSON (a list of row objects)."""
    cells = table.astype(object).where(table.notna(), None)  # NaN (no interval) -> null / blank
    if fmt == "json":
        records = cells.to_dict(orient="records")
        return json.dumps(records, indent=1)
    if fmt == "csv":
        return table.to_csv(index=False).rstrip("\n")
    return cells.to_markdown(index=False, floatfmt=".4f", missingval="")


def _score(args) -> int:
    from rougelab.corpus import corpus_score
    from rougelab.progress import quiet
    from rougelab.scoring import InputError

    metrics = _metric_option(args.metric)
    _check_resampling(args, test=False)
    fmt = args.format or ("csv" if args.per_summary else "text")
    if fmt == "jsonl" and not args.per_summary:
        raise InputError("--format jsonl writes one line per summary: add --per-summary, or use json")
    resampling = dict(n_resamples=0 if args.per_summary else args.n_resamples, confidence=args.confidence,
                      seed=args.seed)
    if args.dask is not None:
        result = _score_dask(args, metrics, resampling)
    else:
        batch = _read_inputs(args, args.summaries, metrics)
        with quiet(args.quiet), _one_call(chain(batch.summaries, *batch.references), len(metrics)):
            result = corpus_score(batch.summaries, batch.references, metrics, batch.sources, **resampling)
    if args.per_summary:
        text = _rows_text(result.rows, fmt)
    else:
        text = result.format(fmt) + "\n"
    _write_output(args.out, text)
    return 0


def _score_dask(args, metrics, resampling):
    """``rougelab score --dask [ADDRESS]``: the per-summary scores from Dask workers (which read Parquet
    data themselves), then the same corpus scores as without ``--dask``."""
    import pandas as pd

    from rougelab.corpus import corpus_of_tables
    from rougelab.extras import require
    from rougelab.scale import score_tables
    from rougelab.user_files import is_parquet

    require("distributed", "dask.dataframe", extra="scale", needed_for="rougelab score --dask")
    if is_parquet(args.summaries) and not (args.references or args.sources or args.sentence_separator):
        data = args.summaries
        if args.out and args.out != "-":
            _check_out(args.out, [data])
    else:
        batch = _read_inputs(args, args.summaries, metrics)
        data = pd.DataFrame({"summary": batch.summaries, "references": batch.references,
                             **({"source": batch.sources} if batch.sources is not None else {})})
    return corpus_of_tables(metrics, score_tables(data, metrics, args.dask or None), **resampling)


def _compare(args) -> int:
    import pandas as pd

    from rougelab.compare import compare_systems
    from rougelab.progress import quiet
    from rougelab.scoring import InputError

    if len(args.systems) < 2:
        raise InputError(f"give the baseline's file and at least one system's file, got {len(args.systems)} file(s)")
    metrics = _metric_option(args.metric)
    _check_resampling(args, test=True)
    systems = {}
    for path in args.systems:
        batch = _read_inputs(args, path, metrics)
        if systems and (batch.references != references or batch.sources != sources):
            raise InputError(f"{path}: its references or sources differ from {args.systems[0]}'s: "
                             "every system must be scored on the same inputs")
        references, sources = batch.references, batch.sources
        if path in systems:
            raise InputError(f"{path} is named twice")
        systems[path] = batch.summaries
    tables, signatures = [], []
    scored = chain.from_iterable(chain(summaries, *references) for summaries in systems.values())
    with quiet(args.quiet), _one_call(scored, len(metrics)):
        for metric in metrics:
            result = compare_systems(systems, references, metric, sources=sources,
                                     n_resamples=args.n_resamples, n_trials=args.n_trials,
                                     confidence=args.confidence, seed=args.seed)
            tables.append(result.table.assign(metric=metric.name))
            signatures.append(result.signature)
    table = pd.concat(tables, ignore_index=True)
    table = table[["metric", *[c for c in table.columns if c != "metric"]]]
    if args.format == "json":
        cells = table.astype(object).where(table.notna(), None)
        text = json.dumps({"comparisons": cells.to_dict(orient="records"), "signatures": signatures}, indent=1)
    elif args.format == "csv":
        text = table.to_csv(index=False, float_format="%.6f").rstrip("\n")
    else:
        text = table.to_string(index=False, na_rep="", float_format=lambda x: f"{x:.4f}")
        text += "".join(f"\nsignature: {s}" for s in signatures)
    _write_output(args.out, text + "\n")
    return 0


def _check_resampling(args, test: bool) -> None:
    """The resampling options, named as on the command line (``--n-resamples=10: must be ...``)."""
    from rougelab.validation import (check_interval_resamples, check_probability, check_seed,
                                     check_test_resamples)

    check_probability(args.confidence, "--confidence")
    check_seed(args.seed, "--seed")
    if test:
        check_test_resamples(args.n_resamples, "--n-resamples")
        check_test_resamples(args.n_trials, "--n-trials")
    check_interval_resamples(args.n_resamples, args.confidence, "--n-resamples", optional=not test)


def _read_inputs(args, summaries: str, metrics: list):
    """The batch of ``summaries`` with ``--references``/``--sources``, checked against ``--out`` and
    the metrics' needs; reading standard input only when it is not a terminal."""
    from rougelab import user_files
    from rougelab.scoring import InputError

    inputs = [summaries, *(args.references or []), *([args.sources] if args.sources else [])]
    if args.out and args.out != "-":
        _check_out(args.out, inputs)
    if user_files.STDIN in inputs and sys.stdin.isatty():
        raise InputError("nothing piped in to read as '-': pass the summaries' file (--summaries FILE) "
                         "or pipe them in (cat sys.txt | rougelab score ...)")
    batch = user_files.read_batch(summaries, args.references, args.sources, args.sentence_separator)
    for metric in metrics:
        if metric.needs_source and batch.sources is None:
            raise InputError(f"--metric {metric.name} reads the source documents: pass --sources FILE (or a "
                             "'source' field/column in a .jsonl/.csv file)")
    return batch


def _rows_text(rows, fmt: str) -> str:
    if fmt == "jsonl":
        return rows.to_json(orient="records", lines=True)
    if fmt == "json":
        return rows.to_json(orient="records") + "\n"
    if fmt == "text":
        return rows.to_string(index=False, float_format=lambda x: f"{x:.4f}") + "\n"
    return rows.to_csv(index=False)


def _write_output(out: str | None, text: str) -> None:
    """Write a command's output to the file ``--out`` names (``safe_write``), or to standard output
    (no ``--out``, or ``--out -``)."""
    from rougelab.safe_write import SpecialFileError, write_atomic
    from rougelab.scoring import InputError

    if not out or out == "-":
        print(text, end="")
        return
    try:
        write_atomic(out, text.encode("utf-8"))
    except SpecialFileError as err:
        raise InputError(f"--out {err} (write to standard output with --out -)") from None
    except OSError as err:
        raise InputError(f"--out {out}: cannot write there ({err.strerror})") from None


def _metric_option(value: str) -> list:
    """The metrics ``--metric`` names (comma-separated), checked before any work."""
    from rougelab.evaluate import metrics_named
    from rougelab.scoring import InputError

    try:
        return metrics_named(_split(value))
    except InputError as err:
        raise InputError(f"--metric {value!r}: {err}") from None


def _check_out(out: str, inputs: list[str]) -> None:
    """``--out`` must name a file in an existing folder (a regular file or a link to one; ``-`` for
    standard output), and not one of the input files."""
    from rougelab.safe_write import SpecialFileError, final_target
    from rougelab.scoring import InputError

    path = Path(out)
    if path.is_dir():
        raise InputError(f"--out {out} is a folder: name the file to write")
    try:
        final_target(path)
    except SpecialFileError as err:
        raise InputError(f"--out {err} (write to standard output with --out -)") from None
    if not path.parent.is_dir():
        raise InputError(f"--out {out}: the folder {path.parent} does not exist")
    if path.exists():
        for name in inputs:
            if Path(name).exists() and os.path.samefile(path, name):
                raise InputError(f"--out {out} is the input file {name}: write the scores elsewhere")


def _metrics(args) -> int:
    from rougelab.extras import MissingExtra
    from rougelab.metrics.registry import PAPER, by_family, get_metric, metric_names

    for family, rows in by_family(metric_names()).items():
        shown = [(name, role) for name, role in rows if role == PAPER or not args.paper]
        if shown:
            print(f"# {family.title}: {family.note}")
        for name, role in shown:
            try:
                signature = get_metric(name).signature
            except MissingExtra as err:  # its resources come with an extra: list it all the same
                signature = f"(needs pip install 'rougelab[{err.extra}]')"
            print(f"{name}\t{role}\t{signature}")
    return 0


def _cache(args) -> int:
    from rougelab import cache_admin

    if args.action == "info":
        print(cache_admin.format_info(cache_admin.info()))
    else:
        removed = cache_admin.clear(args.kind or None, stale_only=args.stale, older_than_days=args.older_than)
        print(f"removed {removed} cache file(s)")
    return 0


def _workbook(args) -> int:
    from rougelab.progress import quiet
    from rougelab.workbook import notebook_paths, run_workbook, summary_table

    if args.student:
        from rougelab.grading import write_student_copies

        for path in write_student_copies(notebook_paths(args.notebooks or None), Path(args.output_dir) / "student"):
            print(path)
        return 0

    with quiet(args.quiet):
        runs = run_workbook(args.notebooks or None, smoke=args.smoke, output_dir=args.output_dir,
                            figures_dir=args.figures_dir, progress=not args.quiet)
    print(summary_table(runs))
    return 0 if all(r.ok for r in runs) else 1


def _grade(args) -> int:
    from rougelab.grading import grade, marks_table

    print(marks_table(grade(args.notebook)))
    return 0


def _book(args) -> int:
    import time

    from rougelab.book import BookError, build_book

    start = time.perf_counter()
    try:
        index = build_book(args.executed, args.output_dir, smoke=args.smoke)
    except BookError as err:
        print(f"rougelab book: error: {err}", file=sys.stderr)
        return 1
    print(f"book: {index} ({time.perf_counter() - start:.0f} s)")
    return 0


def _add_input_options(parser) -> None:
    parser.add_argument("--references", action="append",
                        help="one reference per line; repeat for more references")
    parser.add_argument("--sources", help="one source document per line (metrics that read the source)")
    parser.add_argument("--sentence-separator", help="string marking sentence ends inside a line, e.g. '<q>'")
    parser.add_argument("--out", help="write here instead of standard output (not over an input file; - is "
                                      "standard output; a link is written through to its file)")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")


def _add_resampling_options(parser) -> None:
    from rougelab.metaeval.resampling import DEFAULT_SEED

    parser.add_argument("--n-resamples", type=int, default=1000, metavar="N",
                        help="bootstrap resamples (default 1000; 0: no interval)")
    parser.add_argument("--confidence", type=float, default=0.95, help="the interval's coverage (default 0.95)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"the resampling seed (default {DEFAULT_SEED})")


def _split(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def build_parser() -> argparse.ArgumentParser:
    from rougelab import __version__, user_files

    parser = argparse.ArgumentParser(prog="rougelab", description=__doc__, epilog=EXAMPLES,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"rougelab {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    from rougelab.data.cli import add_parser as add_data_parser
    add_data_parser(sub)

    ev = sub.add_parser("evaluate", help="correlate metrics with a dataset's human judgments",
                        epilog="example: rougelab evaluate --dataset summeval --metric rouge-2 --level system",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    ev.add_argument("--dataset", required=True)
    ev.add_argument("--metric", required=True, help="comma-separated registry names (see `rougelab metrics`)")
    ev.add_argument("--criterion", help="comma-separated human columns (default: all)")
    ev.add_argument("--level", choices=["summary", "system", "global"], default="summary")
    ev.add_argument("--coef", choices=["pearson", "spearman", "kendall", "accuracy", "accuracy-half",
                                       "accuracy-eq"], default="kendall",
                    help="a correlation, or pairwise accuracy with metric ties as wrong (the "
                         "published Rank19 convention), as half, or acc_eq (Deutsch et al. 2023)")
    ev.add_argument("--bootstrap", type=int, default=0, metavar="N",
                    help="N >= 2 resamples for a 95%% interval (default 0: none)")
    ev.add_argument("--seed", type=int, default=0)
    ev.add_argument("--format", choices=["markdown", "csv", "json"], default="markdown")
    ev.add_argument("--quiet", action="store_true", help="no progress bars")
    ev.set_defaults(func=_evaluate)

    sc = sub.add_parser("score", help="score your own summaries: corpus scores with 95%% intervals and the "
                                      "signature, or one row per summary",
                        description=user_files.__doc__,
                        epilog="examples:\n  rougelab score --metric rouge-1,rouge-2 --summaries sys.txt --references ref.txt\n"
                               "  cat sys.txt | rougelab score --metric rouge-2 --references ref.txt --per-summary",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    sc.add_argument("--metric", required=True, help="comma-separated registry names (see `rougelab metrics`)")
    sc.add_argument("--summaries", default=user_files.STDIN,
                    help="text (one per line), .jsonl or .csv file; '-' (the default): standard input")
    _add_input_options(sc)
    sc.add_argument("--per-summary", action="store_true", help="one row per summary instead of corpus scores")
    sc.add_argument("--dask", nargs="?", const="", metavar="ADDRESS",
                    help="score on Dask workers: the scheduler at ADDRESS, or (no address) a LocalCluster of one "
                         "worker per core; Parquet data is read by the workers (needs rougelab[scale])")
    sc.add_argument("--format", choices=["text", "json", "csv", "jsonl"],
                    help="default: text for corpus scores, csv for --per-summary (jsonl: --per-summary only)")
    _add_resampling_options(sc)
    sc.set_defaults(func=_score)

    co = sub.add_parser("compare", help="is a system significantly better than the baseline? paired "
                                        "bootstrap and approximate randomization",
                        epilog="example: rougelab compare --metric rouge-2 --references ref.txt base.txt sys1.txt sys2.txt",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    co.add_argument("systems", nargs="+", metavar="FILE",
                    help="the baseline's summaries, then each other system's (same inputs, same order)")
    co.add_argument("--metric", required=True, help="comma-separated registry names (see `rougelab metrics`)")
    _add_input_options(co)
    co.add_argument("--format", choices=["text", "json", "csv"], default="text")
    _add_resampling_options(co)
    co.add_argument("--n-trials", type=int, default=10000, metavar="N",
                    help="approximate randomization trials (default 10000)")
    co.set_defaults(func=_compare)

    me = sub.add_parser("metrics", help="the registered metrics by family: name, role (as in the paper's tables, "
                                        "variant or baseline) and signature")
    me.add_argument("--paper", action="store_true", help="only the names computed as in each paper's tables")
    me.set_defaults(func=_metrics)

    ca = sub.add_parser("cache", help="where the caches are, how big, what is stale; clear them",
                        epilog="examples: rougelab cache info; rougelab cache clear --stale; "
                               "rougelab cache clear --older-than 30 embeddings")
    actions = ca.add_subparsers(dest="action", required=True)
    actions.add_parser("info", help="each cache folder with its entries, size and stale entries")
    cl = actions.add_parser("clear", help="delete cached files")
    cl.add_argument("kind", nargs="*", help="clear only these kinds (scores, embeddings, wordnet, widar, "
                                            "word_vectors, datasets; default: all but datasets)")
    cl.add_argument("--stale", action="store_true", help="clear only entries made by other code or resources")
    cl.add_argument("--older-than", type=float, metavar="DAYS", help="clear only files older than DAYS days")
    ca.set_defaults(func=_cache)

    wb = sub.add_parser("workbook", help="execute the notebooks with papermill",
                        epilog="example: rougelab workbook --smoke 01_rouge_lin2004")
    wb.add_argument("notebooks", nargs="*", help="notebook names (default: all)")
    wb.add_argument("--smoke", action="store_true", help="run each on a small slice, in seconds")
    wb.add_argument("--output-dir", default="build")
    wb.add_argument("--figures-dir", default="figures")
    wb.add_argument("--quiet", action="store_true", help="no progress bars")
    wb.add_argument("--student", action="store_true",
                    help="run nothing: write copies without the exercises' solutions to OUTPUT_DIR/student")
    wb.set_defaults(func=_workbook)

    gr = sub.add_parser("grade", help="run the exercises of a filled-in notebook and print the points of each",
                        epilog="example: rougelab grade build/student/04_widar_jain2022.ipynb")
    gr.add_argument("notebook", help="a notebook with exercises (a student copy, filled in)")
    gr.set_defaults(func=_grade)

    bk = sub.add_parser("book", help="render the executed notebooks as a static HTML site",
                        epilog="example: rougelab book --executed build --output-dir build/book")
    bk.add_argument("--executed", default="build", help="folder of executed notebooks (stale ones are rerun)")
    bk.add_argument("--output-dir", default="build/book")
    bk.add_argument("--smoke", action="store_true", help="rerun missing or stale notebooks in smoke mode")
    bk.set_defaults(func=_book)

    sub.add_parser("rouge155", help="ROUGE-1.5.5.pl-compatible command line (its own options; see -h)",
                   add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; the exit status: 0, 1 (a failed notebook, a refused file system write), 2 (bad
    input, or any other error: one line on standard error) or 130 (interrupted: one line)."""
    program = argv is None  # the process's own command line, not a call from Python
    argv = sys.argv[1:] if argv is None else argv
    command = argv[0] if argv else ""
    try:
        return _run(command, argv)
    except KeyboardInterrupt:
        print(f"rougelab {command}: interrupted", file=sys.stderr)
        if program:
            _exit_now(130)
        return 130
    finally:
        if program:  # Ctrl-C while the interpreter shuts down (threads joined, buffers flushed)
            signal.signal(signal.SIGINT, _exit_interrupted)


def _run(command: str, argv: list[str]) -> int:
    from rougelab.data import DataError
    from rougelab.extras import MissingExtra

    try:
        if command == "rouge155":  # the Perl script's own command line, errors and exit codes (not ``_one_call``:
            # its bootstrap, always run, loads a kernel, so the others had better load at once too)
            from rougelab.rouge.rouge155.cli import main as rouge155_main
            return rouge155_main(argv[1:])
        args = build_parser().parse_args(argv)
        return args.func(args)
    except (ValueError, DataError, MissingExtra) as err:  # InputError, CacheError, every checked bad input
        _error(command, str(err))
        return 2
    except OSError as err:  # the file system refused: unwritable --out, disk full, ...
        if isinstance(err, BrokenPipeError):  # e.g. `rougelab metrics | head`
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1
        where = f"{err.filename}: " if err.filename else ""
        _error(command, f"{where}{err.strerror or err}")
        return 1
    except Exception as err:  # nothing foresaw it (a bug, memory exhausted, ...): still one line
        _error(command, f"unexpected {type(err).__name__}: {err} (please report it with the command line)")
        return 2


def _error(command: str, message: str) -> None:
    print(f"rougelab {command}: error: {' '.join(message.splitlines())}", file=sys.stderr)


def _exit_interrupted(signum, frame) -> None:
    os.write(2, b"rougelab: interrupted\n")
    os._exit(130)


def _exit_now(status: int) -> None:
    """End the process with ``status`` at once, its output flushed, without the interpreter's shutdown. After an
    interrupt the shutdown sometimes ended the process by SIGINT instead (exit status -2 in about 1 of 15 runs
    interrupted while the first modules load: tests/test_cli_interrupt.py)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe, a closed stream: nothing more to give it
            pass
    os._exit(status)


if __name__ == "__main__":
    sys.exit(main())
