"""Test support: run the ROUGE-WE authors' ROUGE-WE-1.0.0.pl (Ng & Abrecht 2015) as an oracle.

The script is ROUGE-1.5.5 whose n-gram and skip-bigram scoring asks an HTTP server, for every pair
(reference gram, candidate gram) it credits, for the similarity of the two: a multipart POST of
``word1``/``word2`` (grams with their tokens joined by spaces) to ``/word2vecdiff``, answered with
``{"status": 1, "word2vec_sim": x}`` and content type ``text/json``. The authors' server returns the
cosine of the grams' element-wise products of word vectors, and 0 if any token is out of vocabulary.

``vector_server`` is such a server on a free localhost port, answering from the word vectors we score
with (its own product and cosine, computed here in float64, not through rougelab); ``rouge_we_perl``
runs a copy of the script whose hard-coded ``127.0.0.1:8888`` names that port, through
``perl_oracle.run_perl`` (RELEASE-1.5.5's XML modules and rebuilt data folder).
"""
from __future__ import annotations

import contextlib
import email.parser
import json
import subprocess
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np

from perl_oracle import perl_available, run_perl

SCRIPT = "ROUGE-WE-1.0.0.pl"
ENDPOINT = "http://127.0.0.1:8888/word2vecdiff"


def rouge_we_available() -> str | None:
    """None if the script can run here, else the reason it cannot."""
    reason = perl_available()
    if reason:
        return reason
    for module in ("LWP::UserAgent", "HTTP::Request::Common", "JSON"):
        if subprocess.run(["perl", f"-M{module}", "-e", "1"], capture_output=True).returncode != 0:
            return f"Perl module {module} is missing (Debian: libwww-perl, libjson-perl)"
    return None


def product_cosine(vectors, gram1: str, gram2: str) -> float:
    """What the authors' server answers: cosine of the element-wise products of the grams' word
    vectors; 0 if a token is out of vocabulary."""
    composed = []
    for gram in (gram1, gram2):
        words = gram.split(" ")
        if any(w not in vectors for w in words):
            return 0.0
        composed.append(np.prod(vectors.matrix[vectors.rows(words)].astype(np.float64), axis=0))
    a, b = composed
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def _form_fields(content_type: str, body: bytes) -> dict[str, str]:
    message = email.parser.BytesParser().parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + body)
    return {part.get_param("name", header="content-disposition"): part.get_payload(decode=True).decode("latin-1")
            for part in message.get_payload()}


@contextlib.contextmanager
def vector_server(vectors):
    """A similarity server answering from ``vectors`` (a ``WordVectors``); yields ``(port, log)``,
    ``log`` collecting each request's ``(word1, word2)`` in arrival order."""
    log: list[tuple[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            fields = _form_fields(self.headers["Content-Type"], self.rfile.read(int(self.headers["Content-Length"])))
            log.append((fields["word1"], fields["word2"]))
            body = json.dumps({"status": 1, "word2vec_sim": product_cosine(vectors, fields["word1"],
                                                                          fields["word2"])}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], log
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def rouge_we_perl(release: Path, port: int, peers: list[list[str]], models: list[list[list[str]]],
                  hash_seed: int | None = None) -> list[dict]:
    """Per peer, ``{measure: (R, P, F)}`` from the authors' script (``-n 2 -2 4 -U -x``, the README's
    options) asking the server on ``port``; ``hash_seed`` fixes Perl's hash order (``PERL_HASH_SEED``),
    which decides the order in which the script visits reference grams."""
    source = (release / SCRIPT).read_text(encoding="latin-1")
    if source.count(ENDPOINT) != 1:
        raise RuntimeError(f"{SCRIPT} no longer names {ENDPOINT} once")
    env = None if hash_seed is None else {"PERL_HASH_SEED": str(hash_seed), "PERL_PERTURB_KEYS": "0"}
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / SCRIPT
        script.write_text(source.replace(ENDPOINT, f"http://127.0.0.1:{port}/word2vecdiff"), encoding="latin-1")
        return run_perl(peers, models, ["-n", "2", "-2", "4", "-U", "-x"], script=script, env=env)
