"""The workbook's exact environment (constraints.txt, repeated by environment.yml) and the package's
compatible ranges (pyproject.toml) agree: one pin per dependency, each admitted by its range."""
import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", Requirement(requirement).name).lower()


def _ranges() -> dict[str, list[Requirement]]:
    ranges = {}
    for req in PROJECT["dependencies"] + [r for extra in PROJECT["optional-dependencies"].values() for r in extra]:
        if not req.startswith("rougelab["):
            ranges.setdefault(_name(req), []).append(Requirement(req))
    return ranges


def _constraints() -> dict[str, str]:
    lines = [line.strip() for line in (ROOT / "constraints.txt").read_text().splitlines()]
    return {_name(line): line.split("==")[1] for line in lines if line and not line.startswith("#")}


def _environment_pins() -> dict[str, str]:
    lines = (ROOT / "environment.yml").read_text().splitlines()
    start = lines.index("  - pip:")
    pins = [line.strip()[2:] for line in lines[start + 1:] if line.strip().startswith("- ")]
    return {_name(pin): pin.split("==")[1] for pin in pins}


def test_every_constraint_is_an_exact_pin():
    lines = [line for line in (ROOT / "constraints.txt").read_text().splitlines() if line and line[0] != "#"]
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+==[0-9][0-9A-Za-z.+]*", line) for line in lines), lines


def test_environment_yml_repeats_the_constraints():
    assert _environment_pins() == _constraints()


def test_every_dependency_is_pinned_and_its_range_admits_the_pin():
    ranges, pins = _ranges(), _constraints()
    assert set(ranges) == set(pins)
    for name, reqs in ranges.items():
        for req in reqs:
            assert req.specifier.contains(pins[name]), f"{req} does not admit the pinned {name}=={pins[name]}"


def test_heavy_packages_are_behind_extras_and_python_is_not_capped():
    core = {_name(r) for r in PROJECT["dependencies"]}
    assert not core & {"torch", "transformers", "gensim", "bert-score", "dask", "distributed", "pyarrow",
                       "matplotlib", "jupyterlab", "papermill"}
    assert "<" not in PROJECT["requires-python"]
    assert set(PROJECT["optional-dependencies"]) >= {"semantic", "scale", "lab", "test", "all"}


def test_torch_is_pinned_to_the_cpu_wheel_on_disk():
    assert _constraints()["torch"] == "2.13.0"
