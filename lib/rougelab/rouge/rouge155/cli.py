"""``rougelab rouge155``: ROUGE-1.5.5.pl's command line, configuration files and printed report.

Scores come from ``rougelab.rouge.core.score_peer`` (one call per evaluation and peer, all measures at
once; ``score_peer_counts`` under ``-t 1/2``) and, for ``-3``, from ``basic_elements.score_be``; this
module reads the configuration and the summaries, averages with ROUGE-1.5.5's bootstrap and prints what
the Perl script prints, in its order: per peer, ROUGE-1..N, ROUGE-L, ROUGE-W, ROUGE-S/SU, ROUGE-BE.
"""
from __future__ import annotations

import sys
from pathlib import Path

from rougelab.rouge.rouge155 import report
from rougelab.rouge.rouge155.basic_elements import read_be, score_be
from rougelab.rouge.rouge155.bootstrap import bootstrap_average
from rougelab.rouge.rouge155.config import Config, ConfigError, read_file_list, read_xml
from rougelab.rouge.rouge155.datadir import check_data_dir
from rougelab.rouge.rouge155.formats import FormatError, read_sentences
from rougelab.rouge.rouge155.commandline import USAGE, Command, HelpRequested, UsageError, parse_command


def measures(command: Command) -> list[tuple[str, str]]:
    """(printed tag, ``score_peer`` key) of every measure the command reports, in ROUGE-1.5.5's order.

    The tag keeps the user's spelling of ``-w`` and ``-2`` (``ROUGE-W-1.20``, ``ROUGE-S04``), as Perl does.
    """
    from rougelab.rouge.core import measures_from_options
    out = []
    for m in measures_from_options(command.rouge):
        tag = m.key
        if m.kind == "W":
            tag = f"ROUGE-W-{command.weight_text}"
        elif m.kind == "S" and m.size >= 0:
            tag = f"ROUGE-{'SU' if m.unigrams else 'S'}{command.skip_text}"
        out.append((tag, m.key))
    if command.be_mode is not None:
        out.append((f"ROUGE-BE-{command.be_mode}",) * 2)
    return out


class _Reader:
    """Reads each summary file once per run: its sentences, or its Basic Elements (``-3``)."""

    def __init__(self):
        self._cache: dict[tuple[str, str], list[str]] = {}

    def __call__(self, path: str, input_format: str | None) -> list[str]:
        return self._read(path, input_format, read_sentences)

    def basic_elements(self, path: str, input_format: str | None) -> list[str]:
        if input_format is not None and input_format.upper() != "SIMPLE":
            raise FormatError(f"{path}: -3 scores Basic Element files, whose input format is SIMPLE, "
                              f"not {input_format}")
        return self._read(path, input_format, lambda p, _: read_be(p))

    def _read(self, path, input_format, reader) -> list[str]:
        if input_format is None:
            raise FormatError(f"{path}: its evaluation has no <INPUT-FORMAT TYPE=...>")
        key = (path, input_format, reader is read_sentences)
        if key not in self._cache:
            self._cache[key] = reader(path, input_format)
        return self._cache[key]


def _load(command: Command) -> Config:
    if command.file_list_format is not None:
        return read_file_list(command.config, command.file_list_format, command.system_id)
    return read_xml(command.config)


def _score_peer(command, config, peer_id, read, warned, out_err):
    """Per test ID (``evalID.peerID``): the ``score_peer`` result, or the ``-t`` counts."""
    from rougelab.rouge.core import measures_from_options, score_peer, score_peer_counts
    scorer = score_peer if command.counting is None else score_peer_counts   # -t 1/2: raw counts
    text_measures = bool(measures_from_options(command.rouge))
    results = {}
    for ev in config.evaluations:
        if peer_id not in ev.peers:
            if (ev.eval_id, peer_id) not in warned:
                warned.add((ev.eval_id, peer_id))
                out_err.write(f"*ROUGE Warning: test instance for peer {peer_id} does not exist "
                              f"for evaluation {ev.eval_id}\n")
            continue
        model_paths = ev.model_paths()
        for path in model_paths:
            if not Path(path).exists():
                raise FormatError(f"Cannot find model summary: {path}")
        scores = {}
        if text_measures:
            peer = read(ev.peer_path(peer_id), ev.input_format)
            scores = scorer(peer, [read(path, ev.input_format) for path in model_paths], command.rouge)
        if command.be_mode is not None:
            peer = read.basic_elements(ev.peer_path(peer_id), ev.input_format)
            models = [read.basic_elements(path, ev.input_format) for path in model_paths]
            scores[f"ROUGE-BE-{command.be_mode}"] = score_be(peer, models, command.be_mode, command.rouge,
                                                              counts=command.counting is not None)
        results[f"{ev.eval_id}.{peer_id}"] = scores
    return results


def _report_measure(command, peer_id, tag, key, results) -> list[str]:
    instances = sorted(results)          # ROUGE-1.5.5 sorts its test IDs as strings
    if command.counting is None:
        printed = {t: tuple(report.fixed(v) for v in results[t][key]) for t in instances}
        values = [[float(v) for v in printed[t]] for t in instances]
    else:
        values = [list(results[t][key]) for t in instances]
        printed = {t: tuple(report.perl_number(v) for v in row) for t, row in zip(instances, values)}
    lines = [report.RULE]
    if command.counting == 2:
        totals = tuple(sum(row[k] for row in values) for k in range(3))
        lines += report.count_block(peer_id, tag, totals)
    else:
        average = bootstrap_average(values, command.n_resamples, command.confidence,
                                    per_token=command.counting == 1, alpha=command.rouge.alpha)
        lines += report.average_block(peer_id, tag, average, command.confidence_text)
    if command.per_eval:
        lines.append(report.DOTS)
        lines += report.per_eval_lines(peer_id, tag, printed)
    return lines


def run(command: Command, out=None, err=None) -> None:
    """Score and print every peer the command names, as ROUGE-1.5.5 does (to ``out``, default stdout)."""
    out = out or sys.stdout
    err = err or sys.stderr
    config = _load(command)
    peers = sorted(config.peer_ids) if command.system_id is None else [command.system_id]
    read, warned = _Reader(), set()
    for peer_id in peers:
        results = _score_peer(command, config, peer_id, read, warned, err)
        for tag, key in measures(command):
            out.write("".join(line + "\n" for line in _report_measure(command, peer_id, tag, key, results)))


def main(argv: list[str]) -> int:
    """Run ``rougelab rouge155 ARGV``; returns the process exit status."""
    try:
        command = parse_command(argv)
        check_data_dir(command.data_dir)
        run(command)
    except HelpRequested:
        sys.stdout.write(USAGE)
        return 0
    except UsageError as exc:
        usage = USAGE if not argv else f"usage: {USAGE.splitlines()[0]}\n(rougelab rouge155 -h for the options)\n"
        sys.stderr.write(f"rougelab rouge155: {exc}\n{usage}")
        return 2
    except (ConfigError, FormatError, ValueError) as exc:
        sys.stderr.write(f"rougelab rouge155: {exc}\n")
        return 1
    return 0
