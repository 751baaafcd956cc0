"""numba's disk cache of our kernels can never serve code a fresh compile would not produce: its folder is
named by a digest of every file kernels compile code from (``rougelab._jit.kernel_key``), and kernels read
nothing from the package's other files."""
import ast
import importlib
import inspect
import shutil

import pytest

from rougelab import _jit

pytestmark = pytest.mark.skipif(not _jit.NUMBA, reason="numba disabled (ROUGELAB_NO_NUMBA)")


def _copy_of_package(tmp_path):
    return shutil.copytree(_jit.PACKAGE, tmp_path / "rougelab", ignore=shutil.ignore_patterns("__pycache__"))


def _edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_an_edit_to_a_helper_a_kernel_calls_changes_the_key(tmp_path):
    package = _copy_of_package(tmp_path)
    key = _jit.kernel_key(package)
    assert key == _jit.kernel_key(_jit.PACKAGE)
    _edit(package / "cli.py", "import", "import  ")             # no kernel reads the command line
    assert _jit.kernel_key(package) == key
    _edit(package / "scoring.py", "def prf(", "def prf(  ")      # R/P/F, called by the classic kernels
    edited = _jit.kernel_key(package)
    assert edited != key
    _edit(package / "rouge" / "lcs.py", "def ", "def  ")        # a jitted helper of batch.py's kernels
    assert _jit.kernel_key(package) not in (key, edited)


def test_kernels_are_kept_in_the_folder_named_by_the_key():
    from rougelab.paths import cache_dir
    from rougelab.rouge import batch, lcs

    folder = str(cache_dir("numba", _jit.kernel_key()))
    assert _jit.kernel_cache() == folder
    kernels = _kernels(batch) + _kernels(lcs)
    assert kernels
    for kernel in kernels:
        assert kernel._cache._cache_path.startswith(folder), kernel
    import numba

    assert numba.config.CACHE_DIR != folder  # numba's setting is put back after each decoration


def _kernels(module):
    return [value for value in vars(module).values()
            if hasattr(value, "_cache") and getattr(value, "__module__", None) == module.__name__]


def _module_name(path):
    return ".".join(path.relative_to(_jit.PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")


def _imported_from(module):
    """``{name: module it was imported from}`` for the module's ``from rougelab... import name`` lines."""
    tree = ast.parse(inspect.getsource(module))
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rougelab"):
            for alias in node.names:
                found[alias.asname or alias.name] = node.module
    return found


def test_kernels_read_nothing_from_rougelab_files_outside_the_key():
    """Every global a kernel reads, and every global of each function it calls, transitively, is numba's,
    numpy's or another library's, or comes from a module among ``kernel_sources``."""
    sources = {_module_name(p) for p in _jit.kernel_sources()}
    modules = [importlib.import_module(name) for name in sorted(sources)]
    todo = [(m, k.py_func) for m in modules for k in _kernels(m)]
    todo += [(m, v.py_func) for m in modules for v in vars(m).values()
             if callable(v) and hasattr(v, "py_func") and getattr(v, "__module__", None) == m.__name__]
    assert len(todo) > 20
    seen, outside = set(), []
    while todo:
        module, func = todo.pop()
        if id(func) in seen:
            continue
        seen.add(id(func))
        imported = _imported_from(module)
        codes = [func.__code__]
        while codes:
            code = codes.pop()
            codes += [c for c in code.co_consts if inspect.iscode(c)]
            for name in code.co_names:
                if name not in func.__globals__:
                    continue  # an attribute name, not a global
                value = func.__globals__[name]
                origin = imported.get(name)
                if inspect.ismodule(value):
                    origin = value.__name__ if value.__name__.startswith("rougelab") else None
                if origin and origin.startswith("rougelab") and origin not in sources:
                    outside.append(f"{func.__module__}.{func.__name__} reads {name} from {origin}")
                target = getattr(value, "py_func", value)
                if inspect.isfunction(target) and target.__module__ in sources:
                    todo.append((importlib.import_module(target.__module__), target))
    assert not outside, outside
