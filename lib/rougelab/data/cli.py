"""``rougelab data fetch [--mirror DIR] [NAME...]``, ``rougelab data list``, ``rougelab data path NAME`` and
``rougelab data add NAME PATH`` (a NIST release you hold)."""
from __future__ import annotations

import argparse
import sys

from rougelab.data.registry import DataError


def _fetch(args) -> int:
    from rougelab.data.fetch import fetch

    try:
        fetch(args.names or None, mirror=args.mirror, progress=not args.quiet)
    except DataError as err:
        print(f"rougelab data fetch: error: {err}", file=sys.stderr)
        return 1
    return 0


def _list(args) -> int:
    from rougelab.data import describe

    print(describe())
    return 0


def _path(args) -> int:
    from rougelab.data import dataset_path

    try:
        print(dataset_path(args.name))
    except DataError as err:
        print(f"rougelab data path: error: {err}", file=sys.stderr)
        return 1
    return 0


def _add(args) -> int:
    from rougelab.data import nist

    try:
        folder = nist.add(args.name, args.path, documents=args.documents)
    except DataError as err:
        print(f"rougelab data add: error: {err}", file=sys.stderr)
        return 1
    table = nist.load(args.name)
    print(f"{args.name}: {len(table):,} peer summaries, {table['doc_id'].nunique()} inputs x "
          f"{table['system_id'].nunique()} systems; manual scores: {', '.join(nist.human_columns(args.name))}; "
          f"stored in {folder}")
    return 0


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Register ``data fetch``, ``data list`` and ``data path``; each sets ``func`` (args -> exit code)."""
    data = subparsers.add_parser("data", help="fetch and list the evaluation datasets")
    sub = data.add_subparsers(dest="data_command", required=True)
    fetch = sub.add_parser(
        "fetch", help="download (or copy from a mirror) and verify the datasets",
        epilog="example: rougelab data fetch --mirror DIR summeval")
    fetch.add_argument("names", nargs="*", metavar="NAME", help="datasets to fetch (default: all)")
    fetch.add_argument("--mirror", metavar="DIR",
                       help="copy from DIR/<owner>/<repo>/<commit>/... instead of downloading "
                            "(default: $ROUGELAB_DATA_MIRROR, else upstream)")
    fetch.add_argument("--quiet", action="store_true", help="no progress lines")
    fetch.set_defaults(func=_fetch)
    listing = sub.add_parser("list", help="each dataset's size, shape, licence and caveats")
    listing.set_defaults(func=_list)
    path = sub.add_parser("path", help="the cached folder of a fetched dataset",
                          epilog="example: cd \"$(rougelab data path rouge155-sample)/sample-test\"")
    path.add_argument("name", metavar="NAME")
    path.set_defaults(func=_path)
    add = sub.add_parser("add", help="check, convert and store a NIST release you hold (DUC 2001-2003, 2007, "
                                     "TAC 2008-2011)",
                         epilog="example: rougelab data add tac2008 UpdateSumm08_eval.tar.gz  (or sacrerouge's "
                                "task1.A.summaries.jsonl)")
    add.add_argument("name", metavar="NAME", help="duc2001, duc2002, duc2002-multi-10 ... -200, duc2003, duc2003-task2 ... 4, "
                                               "duc2007, tac2008 ... tac2011 (`rougelab data list`)")
    add.add_argument("path", metavar="PATH", help="the release's folder or archive, or sacrerouge's JSONL")
    add.add_argument("--documents", metavar="DOCS",
                     help="the release's source documents (folder or archive), for metrics that read them")
    add.set_defaults(func=_add)
    return data
