"""What a cached number was computed by: a digest of our code and of every resource file read.

``code_fingerprint()`` is the SHA-256 (first 12 hex digits) of every file of the installed
``rougelab`` package -- its ``.py`` sources and package data, by relative path -- computed once per
process (about 1 MB of text, a few milliseconds). Any edit to the package changes it; metric signatures,
and so the score cache, carry it. ``code_fingerprint(module, ...)`` digests only the code that computes
one kind of cached thing: the named modules, every ``rougelab`` module they import (``module_closure``)
and the package data in those modules' folders. The caches of intermediate results (PageRank vectors, the WordNet graph, word
vectors, contextual embeddings, WIDAR components) are keyed by the fingerprint of the module that
computes them, so they miss after any change to that code, yet stay warm when only, say, the scoring
code changes (PageRank for SummEval's vocabulary takes minutes to recompute).

``file_digest(path)`` is a resource file's SHA-256, memoised per (path, size, mtime) so a large
file (vectors, model weights) is read once per process. ``resource_pin(paths)`` folds several into one
short digest, as signatures show it.

``package_versions(names)`` gives the installed versions of the third-party distributions whose code
computes a number (nltk's stemmers, sacreBLEU, torch, ...): each metric and each cache declares its own,
and they go into its signature and its cache keys, so an upgrade misses the cache.

``source_fingerprint(objects)`` digests the source of functions and classes (also typed into a notebook
cell); ``scorer_fingerprint(scorer)`` digests a user's scorer: its source and the files of the user's own
modules it uses (not rougelab, the standard library or installed packages), so a registered metric
misses the cache after its code is edited. The cache store (``rougelab.cache_store``) records all of
these beside each entry.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import importlib.metadata
import importlib.util
import inspect
import marshal
import os
import pickle
import site
import sysconfig
from functools import lru_cache
from pathlib import Path
from typing import Iterable

PACKAGE = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def code_fingerprint(*modules: str) -> str:
    """SHA-256 (12 hex digits) of the package's files, by relative path: all of them, or, given dotted
    module names (``"rougelab.semantic.pagerank"``), their ``module_closure`` and the package-data files
    beside its modules (a data file is read by a module of its own folder: a test checks it)."""
    files = [p for p in PACKAGE.rglob("*") if p.is_file() and _is_source(p)]
    if modules:
        closure = set(module_closure(*modules))
        folders = {p.parent for p in closure}
        files = [p for p in files if p in closure or (p.suffix != ".py" and p.parent in folders)]
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def _is_source(path: Path) -> bool:
    return "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyo")


def module_closure(*modules: str) -> list[Path]:
    """Source files of ``modules`` and of every ``rougelab`` module they import, directly or through others.

    Imports are read from the source (``ast``), wherever they stand in a module, so imports inside
    functions count; the ``__init__`` of every package on a module's path counts too, since importing the
    module runs it. Not followed: imports inside a module-level ``__getattr__`` (PEP 562 lazy attributes,
    as ``rougelab/__init__.py`` has), which load a module only for code that names it, and so imports it
    itself. A name that is not a module of the package raises ``ValueError``.
    """
    seen: dict[str, Path] = {}
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = _module_file(name)
        if path is None:
            raise ValueError(f"{name!r} is not a module of the rougelab package")
        seen[name] = path
        parts = name.split(".")
        todo += [".".join(parts[:k]) for k in range(1, len(parts))]  # the packages on the way
        todo += _imports(path, name)
    return sorted(seen.values())


def _module_file(name: str) -> Path | None:
    """The source file of the dotted module ``name`` of this package (None if there is none)."""
    parts = name.split(".")
    if parts[0] != PACKAGE.name:
        return None
    base = PACKAGE.joinpath(*parts[1:])
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def _imports(path: Path, name: str) -> list[str]:
    """The package's modules that the module ``name`` (at ``path``) imports, outside a module ``__getattr__``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lazy = {id(node) for top in tree.body if isinstance(top, ast.FunctionDef) and top.name == "__getattr__"
            for node in ast.walk(top)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if id(node) in lazy:
            continue
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.append(base)
            found += [f"{base}.{alias.name}" for alias in node.names]  # names that are submodules
    return [m for m in found if _module_file(m) is not None]


def texts_digest(texts: Iterable[str]) -> str:
    """SHA-256 (hex) of ``texts`` in order, each UTF-8 encoded after the byte 0xFF, which UTF-8 never contains:
    no text can pass for a separator, so the bytes give back the texts (the cache keys of several texts)."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(b"\xff" + text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def file_digest(path) -> str:
    """SHA-256 (hex) of one file, read once per process while the file (its device and inode) keeps its size
    and modification time. One ``stat``: resolving the path's links costs 25 times more (a cache key asks
    for each resource file's digest)."""
    stat = os.stat(path)
    return _digest(os.fspath(path), stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=None)
def _digest(path: str, _device: int, _inode: int, _size: int, _mtime: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def resource_pin(paths: Iterable) -> str:
    """One 12-hex digest over the resource files (name and content of each, in order). ``os.path.basename``:
    a ``Path`` made to read its ``name`` costs twice the ``file_digest``."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(os.path.basename(path).encode() + b"\0" + file_digest(path).encode())
    return digest.hexdigest()[:12]


@lru_cache(maxsize=None)
def package_version(name: str) -> str:
    """The installed version of the distribution ``name`` (``"absent"`` when it is not installed)."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def package_versions(names: Iterable[str]) -> dict[str, str]:
    """``{name: installed version}`` of the distributions ``names``, sorted by name."""
    return {name: package_version(name) for name in sorted(set(names))}


def package_pin(names: Iterable[str]) -> str:
    """The versions as signatures show them: ``nltk=3.9.1,numpy=2.1.3``."""
    return ",".join(f"{name}={version}" for name, version in package_versions(names).items())


def source_fingerprint(*objects) -> str:
    """First 12 hex digits of the SHA-256 of the source code of ``objects`` (functions, classes).

    Works for code typed into a notebook cell; code without any source (``python -c``) is digested
    by its compiled form. Put it in a metric's ``pins={"code": ...}`` to pin the code by hand.
    """
    digest = hashlib.sha256()
    for obj in objects:
        digest.update(_source(obj))
    return digest.hexdigest()[:12]


def _source(obj) -> bytes:
    try:
        return inspect.getsource(obj).encode()
    except (OSError, TypeError):
        if inspect.isclass(obj):  # a class typed into a notebook cell has no source file: use its methods'
            return obj.__qualname__.encode() + b"".join(_source(v) for _, v in sorted(vars(obj).items())
                                                         if inspect.isfunction(v))
        code = getattr(obj, "__code__", None)
        if code is None:
            raise
        return marshal.dumps(code)


def scorer_fingerprint(scorer, *, code: bool = True) -> str | None:
    """A digest of a scorer: the arguments ``functools.partial`` binds to it (settings of the metric as much
    as its options: ``bound_arguments``) and, for a scorer that is not rougelab's (and ``code``; False when
    the code is pinned by hand), the source of the scorer and of the functions and classes of the user's
    it names (defined in a notebook cell or a file of the user's, transitively), and the files of the
    user's modules it uses (its own, those of the globals it names, and the user's modules those import,
    transitively). Installed packages and the standard library are not the user's. None when there is
    nothing to digest: rougelab's own scorer with nothing bound (``code_fingerprint`` covers it)."""
    bound = bound_arguments(scorer)
    func = _code_owner(scorer)
    users = code and not _is_ours(getattr(inspect.getmodule(func), "__name__", None))
    if not users and not bound:
        return None
    digest = hashlib.sha256(bound.encode("utf-8", "surrogatepass"))
    if not users:
        return digest.hexdigest()[:12]
    files: list = []
    seen: set[int] = set()
    todo = [func]
    while todo:
        obj = todo.pop(0)
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        digest.update(_source(obj))
        module = inspect.getmodule(obj)
        files.append(getattr(module, "__file__", None))
        namespace = getattr(obj, "__globals__", None) or (vars(module) if module else {})
        for name in sorted(_global_names(obj)):
            value = namespace.get(name)
            if (inspect.isfunction(value) or inspect.isclass(value)) and _written_by_user(value):
                todo.append(value)
            elif value is not None:
                files.append(getattr(value if inspect.ismodule(value) else inspect.getmodule(value), "__file__", None))
    for path in _user_file_closure(files):
        digest.update(path.as_posix().encode() + b"\0" + file_digest(path).encode())
    return digest.hexdigest()[:12]


def bound_arguments(scorer) -> str:
    """The arguments ``functools.partial`` binds to ``scorer``, layer by layer, as a text that is the same
    in every process for the same values ('' when nothing is bound)."""
    layers = []
    while isinstance(scorer, functools.partial):
        keywords = (f"{name}={stable_text(value)}" for name, value in sorted(scorer.keywords.items()))
        layers.append(f"({', '.join([*map(stable_text, scorer.args), *keywords])})")
        scorer = scorer.func
    return "".join(layers)


def stable_text(value) -> str:
    """``value`` as a text that names it the same way in every process: literals by ``repr``, containers
    element by element, arrays and other objects by a digest of their bytes or pickle, functions and
    classes by their source (the user's) or qualified name (installed code)."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return repr(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(map(stable_text, value)) if isinstance(value, (set, frozenset)) else map(stable_text, value)
        return f"{type(value).__name__}[{', '.join(items)}]"
    if isinstance(value, dict):
        return "dict{" + ", ".join(f"{stable_text(k)}: {stable_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, functools.partial):
        return f"partial[{stable_text(value.func)}{bound_arguments(value)}]"
    if inspect.isbuiltin(value):
        return f"{getattr(value, '__module__', '')}.{value.__qualname__}"
    if inspect.isfunction(value) or inspect.isclass(value) or inspect.ismethod(value):
        owner = _code_owner(value)
        if _written_by_user(owner):
            return f"code:{source_fingerprint(owner)}{_captured(value)}"
        return f"{owner.__module__}.{owner.__qualname__}"
    if type(value).__module__ == "numpy" and hasattr(value, "tobytes"):
        return f"array:{value.dtype}{getattr(value, 'shape', ())}:{hashlib.sha256(value.tobytes()).hexdigest()[:16]}"
    try:
        return f"{type(value).__qualname__}:{hashlib.sha256(pickle.dumps(value, protocol=4)).hexdigest()[:16]}"
    except Exception:  # noqa: BLE001 (an object pickle refuses is named by its repr)
        return repr(value)


def _captured(function) -> str:
    """The values a user's function holds beside its source: its defaults and the variables it closes over
    (``make_splitter(". ")`` and ``make_splitter("\\n")`` share one source), callables among them left out
    (a nested function may close over itself); '' when there are none."""
    if not inspect.isfunction(function):
        return ""
    values = [*(function.__defaults__ or ()), *sorted((function.__kwdefaults__ or {}).items())]
    for cell in function.__closure__ or ():
        try:
            values.append(cell.cell_contents)
        except ValueError:  # a variable not bound yet
            values.append(None)
    values = [v for v in values if not callable(v)]
    return f"({', '.join(map(stable_text, values))})" if values else ""


def _code_owner(scorer):
    """The function or class whose code a scorer runs (through ``functools.partial``, callable objects)."""
    while isinstance(scorer, functools.partial):
        scorer = scorer.func
    if inspect.ismethod(scorer):
        return scorer.__func__
    return scorer if inspect.isfunction(scorer) or inspect.isclass(scorer) else type(scorer)


def _is_ours(module: str | None) -> bool:
    return module is not None and (module == PACKAGE.name or module.startswith(PACKAGE.name + "."))


def _written_by_user(obj) -> bool:
    """A function or class defined in a notebook cell, a script, or a file of the user's. Judged by the file
    its code was compiled from, not by its module: code typed into a cell or run by ``exec`` belongs to
    ``__main__``, which is the launcher's file when a tool such as ``python -m pytest`` runs it."""
    module = inspect.getmodule(obj)
    if module is not None and _is_ours(module.__name__):
        return False
    file = _compiled_from(obj) or getattr(module, "__file__", None)
    return file is None or not Path(file).is_file() or _is_users(Path(file).resolve())


def _compiled_from(obj) -> str | None:
    """The file name a function's code, or the first method of a class, was compiled from."""
    functions = [obj] if inspect.isfunction(obj) else [v for v in vars(obj).values() if inspect.isfunction(v)]
    return functions[0].__code__.co_filename if functions else None


def _user_file_closure(files: list) -> list[Path]:
    """``files`` that are the user's sources, and the user's modules they import, transitively."""
    seen: set[Path] = set()
    todo = list(files)
    while todo:
        file = todo.pop()
        path = Path(file).resolve() if file else None
        if path is None or path in seen or path.suffix != ".py" or not _is_users(path):
            continue
        seen.add(path)
        todo += _imported_files(str(path), file_digest(path))
    return sorted(seen)


def _global_names(func) -> set[str]:
    """The global names the code of ``func`` (or of a class's methods) reads, nested code included."""
    codes = [v.__code__ for v in vars(func).values() if inspect.isfunction(v)] if inspect.isclass(func) else \
        [getattr(getattr(func, "__func__", func), "__code__", None)]
    names: set[str] = set()
    while codes:
        code = codes.pop()
        if code is not None:
            names.update(code.co_names)
            codes += [c for c in code.co_consts if inspect.iscode(c)]
    return names


@lru_cache(maxsize=1)
def _installed_roots() -> tuple[Path, ...]:
    """Folders of the standard library and of installed packages: code there is not the user's."""
    paths = sysconfig.get_paths()
    roots = [paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths]
    roots += [*site.getsitepackages(), site.getusersitepackages()]
    return tuple(Path(r).resolve() for r in roots)


def _is_users(path: Path) -> bool:
    return not path.is_relative_to(PACKAGE) and not any(path.is_relative_to(r) for r in _installed_roots())


@lru_cache(maxsize=None)
def _imported_files(path: str, _digest: str) -> list[str]:
    """Files of the modules that the source at ``path`` imports (absolute imports; those found), once per
    content of the file."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return []
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    files = []
    for name in names:
        if _is_ours(name):
            continue
        origin = _origin(name.partition(".")[0])  # a top-level name is found without importing it
        if origin and _is_users(Path(origin).resolve()) and "." in name:
            origin = _origin(name)  # imports the user's package, never an installed one
        files.append(origin)
    return [f for f in files if f]


def _origin(name: str) -> str | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    return spec.origin if spec is not None and spec.has_location else None
