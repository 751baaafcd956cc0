"""The conda environment and pyproject.toml pin the same packages at the same versions."""
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _pyproject_pins() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        pins.extend(extra)
    return set(pins)


def _environment_pins() -> set[str]:
    lines = (ROOT / "environment.yml").read_text().splitlines()
    start = lines.index("  - pip:")
    return {line.strip()[2:] for line in lines[start + 1:] if line.strip().startswith("- ")}


def test_every_pin_is_exact():
    assert all("==" in pin for pin in _pyproject_pins())


def test_environment_yml_repeats_pyproject_pins():
    assert _environment_pins() == _pyproject_pins()


def test_torch_is_pinned_to_the_cpu_wheel_on_disk():
    assert "torch==2.13.0" in _pyproject_pins()
