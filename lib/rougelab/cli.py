"""`rougelab` command line: data, evaluate, score, metrics, workbook, book, rouge155."""
from __future__ import annotations

import argparse
import json
import sys

from rougelab import user_files

EXAMPLES = """examples:
  rougelab data fetch --mirror ../shared/data/mirror
  rougelab evaluate --dataset summeval --metric rouge-1,rouge-2,rouge-l --level global --coef kendall
  rougelab score --metric rouge-1,rouge-2 --summaries sys.txt --references ref1.txt --references ref2.txt
  rougelab rouge155 -c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m ROUGE-test.xml
  rougelab workbook --smoke 00_tour
"""


def _evaluate(args) -> int:
    from rougelab.evaluate import evaluate

    table = evaluate(args.dataset, _split(args.metric), level=args.level, coef=args.coef,
                     criteria=_split(args.criterion) if args.criterion else None,
                     n_resamples=args.bootstrap, seed=args.seed, progress=not args.quiet)
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
    import pandas as pd

    from rougelab.metrics.base import get_metric
    batch = user_files.read_batch(args.summaries, args.references, args.sources, args.sentence_separator)
    tables = []
    for name in _split(args.metric):
        metric = get_metric(name)
        scores = metric.score(batch.summaries, batch.references, batch.sources)
        taken = {c for t in tables for c in t.columns}
        tables.append(scores.rename(columns=lambda c: f"{name}:{c}" if c in taken else c))
    table = pd.concat(tables, axis=1)
    text = table.to_json(orient="records", lines=True) if args.format == "jsonl" else table.to_csv(index=False)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(text)
    else:
        print(text, end="")
    return 0


def _metrics(args) -> int:
    from rougelab.metrics.base import get_metric, metric_names

    for name in metric_names():
        print(f"{name}\t{get_metric(name).signature}")
    return 0


def _workbook(args) -> int:
    from rougelab.workbook import run_workbook, summary_table

    runs = run_workbook(args.notebooks or None, smoke=args.smoke, output_dir=args.output_dir,
                        figures_dir=args.figures_dir)
    print(summary_table(runs))
    return 0 if all(r.ok for r in runs) else 1


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


def _split(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rougelab", description=__doc__, epilog=EXAMPLES,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
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
    ev.add_argument("--coef", choices=["pearson", "spearman", "kendall"], default="kendall")
    ev.add_argument("--bootstrap", type=int, default=0, metavar="N", help="N resamples for a 95%% interval")
    ev.add_argument("--seed", type=int, default=0)
    ev.add_argument("--format", choices=["markdown", "csv", "json"], default="markdown")
    ev.add_argument("--quiet", action="store_true", help="no progress bars")
    ev.set_defaults(func=_evaluate)

    sc = sub.add_parser("score", help="score your own summaries (one row per summary)",
                        description=user_files.__doc__,
                        epilog="example: rougelab score --metric rouge-2 --summaries sys.txt --references ref.txt",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    sc.add_argument("--metric", required=True, help="comma-separated registry names")
    sc.add_argument("--summaries", required=True, help="text (one per line), .jsonl or .csv file")
    sc.add_argument("--references", action="append", help="one reference per line; repeat for more references")
    sc.add_argument("--sources", help="one source document per line (metrics that read the source)")
    sc.add_argument("--sentence-separator", help="string marking sentence ends inside a line, e.g. '<q>'")
    sc.add_argument("--format", choices=["csv", "jsonl"], default="csv")
    sc.add_argument("--out", help="write here instead of standard output")
    sc.set_defaults(func=_score)

    me = sub.add_parser("metrics", help="list the registered metrics with their signatures")
    me.set_defaults(func=_metrics)

    wb = sub.add_parser("workbook", help="execute the notebooks with papermill",
                        epilog="example: rougelab workbook --smoke 01_rouge_lin2004")
    wb.add_argument("notebooks", nargs="*", help="notebook names (default: all)")
    wb.add_argument("--smoke", action="store_true", help="run each on a small slice, in seconds")
    wb.add_argument("--output-dir", default="build")
    wb.add_argument("--figures-dir", default="figures")
    wb.set_defaults(func=_workbook)

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
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["rouge155"]:
        from rougelab.rouge.rouge155.cli import main as rouge155_main
        return rouge155_main(argv[1:])
    args = build_parser().parse_args(argv)
    from rougelab.data import DataError
    from rougelab.extras import MissingExtra

    try:
        return args.func(args)
    except (ValueError, FileNotFoundError, DataError, MissingExtra) as err:
        print(f"rougelab {args.command}: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
