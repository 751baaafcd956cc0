"""ROUGE-1.5.5's evaluation configurations: the XML file and the ``-z`` file list.

An *evaluation* (``<EVAL ID="..">``) pairs the summaries of several peers (systems) with the model
(reference) summaries of one input. Both readers return ``Config``: the evaluations in file order and
the peer IDs seen, following ROUGE-1.5.5's ``readEvals`` and ``readFileList``.
"""
from __future__ import annotations

import re
import xml.dom.minidom
from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers.expat import ExpatError

INPUT_FORMATS = ("SEE", "ISI", "SPL", "SIMPLE")
_EDGE_SPACE = re.compile(r"^\s+|\s+$")
_ASCII_SPACE = re.compile(r"\s+", re.ASCII)


class ConfigError(ValueError):
    """The configuration file cannot be read as ROUGE-1.5.5 reads it."""


@dataclass
class Evaluation:
    """One ``<EVAL>``: where its peers and models are, and their IDs in file order."""

    eval_id: str
    input_format: str | None = None
    peer_root: str | None = None
    model_root: str | None = None
    peers: dict[str, str] = field(default_factory=dict)      # peer ID -> file name
    models: dict[str, str] = field(default_factory=dict)     # model ID -> file name
    model_ids: list[str] = field(default_factory=list)
    full_paths: bool = False     # -z lists: file names are already paths

    def peer_path(self, peer_id: str) -> str:
        """Path of ``peer_id``'s summary, joined as ROUGE-1.5.5 joins it (``ROOT/FILE``)."""
        if self.full_paths:
            return self.peers[peer_id]
        return f"{self.peer_root or ''}/{self.peers[peer_id]}"

    def model_paths(self) -> list[str]:
        """Paths of the model summaries, one per model ID in file order (repeats included)."""
        if self.full_paths:
            return [self.models[m] for m in self.model_ids]
        return [f"{self.model_root or ''}/{self.models[m]}" for m in self.model_ids]


@dataclass
class Config:
    """All evaluations of a configuration, in file order, and every peer ID that appears."""

    evaluations: list[Evaluation]
    peer_ids: set[str]


def _text(node) -> str | None:
    """The last text child of ``node``, stripped (ROUGE-1.5.5 keeps the last one it meets)."""
    value = None
    for child in node.childNodes:
        if child.nodeType == child.TEXT_NODE:
            value = _EDGE_SPACE.sub("", child.data)
    return value


def _attribute(node, name: str, where: str) -> str:
    if not node.hasAttribute(name):
        raise ConfigError(f"{where}: <{node.nodeName}> has no {name} attribute")
    return node.getAttribute(name)


def read_xml(path) -> Config:
    """Read a ROUGE-1.5.5 XML configuration (``<ROUGE-EVAL><EVAL ID=..>...``).

    Element names are matched case-insensitively, as in ROUGE-1.5.5; an ``<EVAL>`` whose ID repeats
    an earlier one adds to it.
    """
    try:
        document = xml.dom.minidom.parse(str(path))
    except (OSError, ExpatError) as exc:
        raise ConfigError(f"cannot parse ROUGE configuration {path}: {exc}") from exc
    evaluations: dict[str, Evaluation] = {}
    peer_ids: set[str] = set()

    def current(eval_id, tag) -> Evaluation:
        if eval_id is None:
            raise ConfigError(f"{path}: <{tag}> outside any <EVAL ID=...>")
        return evaluations[eval_id]

    def visit(node, eval_id):
        if node.nodeType == node.ELEMENT_NODE:
            tag = node.nodeName.upper()
            if tag == "EVAL":
                eval_id = _attribute(node, "ID", str(path))
                evaluations.setdefault(eval_id, Evaluation(eval_id))
            elif tag == "INPUT-FORMAT":
                fmt = _attribute(node, "TYPE", str(path))
                if fmt.upper() not in INPUT_FORMATS:
                    raise ConfigError(f"Unknown input type: {fmt} (expected one of {', '.join(INPUT_FORMATS)})")
                current(eval_id, tag).input_format = fmt
                return
            elif tag in ("PEER-ROOT", "MODEL-ROOT"):
                value = _text(node)
                if value is not None:
                    ev = current(eval_id, tag)
                    if tag == "PEER-ROOT":
                        ev.peer_root = value
                    else:
                        ev.model_root = value
                return
            elif tag in ("PEERS", "MODELS"):
                for child in node.childNodes:
                    if child.nodeType == child.ELEMENT_NODE and child.nodeName.upper() == tag[0]:
                        item_id = _attribute(child, "ID", str(path))
                        ev = current(eval_id, tag)
                        name = _text(child)
                        if tag == "PEERS":
                            peer_ids.add(item_id)
                            if name is not None:
                                ev.peers[item_id] = name
                        else:
                            ev.model_ids.append(item_id)
                            if name is not None:
                                ev.models[item_id] = name
                return
        for child in node.childNodes:
            visit(child, eval_id)

    visit(document, None)
    for ev in evaluations.values():
        missing = [m for m in ev.model_ids if m not in ev.models]
        if missing:
            raise ConfigError(f"{path}: evaluation {ev.eval_id}: model(s) {', '.join(missing)} name no file")
    return Config(list(evaluations.values()), peer_ids)


def read_file_list(path, input_format: str, system_id: str) -> Config:
    """Read a ``-z`` file list: one evaluation per line, ``peer model1 [model2 ...]``.

    Lines starting with ``#`` and blank lines are skipped. Evaluations are numbered 1, 2, ... in
    line order, the peer is ``system_id`` and the models are ``M.1``, ``M.2``, ... as in ROUGE-1.5.5.
    """
    try:
        lines = Path(path).read_bytes().decode("latin-1").split("\n")
    except OSError as exc:
        raise ConfigError(f"Cannot open {path}: {exc.strerror}") from exc
    evaluations = []
    for number, line in enumerate(lines, start=1):
        files = _ASCII_SPACE.split(line.strip(" \t\n\r\f\v"))
        if line.startswith("#") or files == [""]:
            continue
        if len(files) < 2:
            raise ConfigError(f"{path}, line {number}: a file list has to have at least 2 file names "
                              "per line (peer model1 model2 ... modelN)")
        ev = Evaluation(str(len(evaluations) + 1), input_format=input_format, full_paths=True)
        ev.peers[system_id] = files[0]
        for k, name in enumerate(files[1:], start=1):
            ev.model_ids.append(f"M.{k}")
            ev.models[f"M.{k}"] = name
        evaluations.append(ev)
    return Config(evaluations, {system_id})
