"""The pins in pyproject.toml, environment.yml and constraints.txt must agree."""

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins(lines):
    out = {}
    for line in lines:
        m = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*==\s*([^\s;#]+)\s*", line)
        if m:
            out[_norm(m.group(1))] = m.group(2)
    return out


def _pyproject_pins():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = project["dependencies"] + [
        d for group in project["optional-dependencies"].values() for d in group
    ]
    pins = _pins(deps)
    assert len(pins) == len(deps), f"every dependency must be an exact pin: {deps}"
    return pins


def test_environment_yml_has_the_same_pins():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda = [d for d in env["dependencies"] if isinstance(d, str)]
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "python=3.11" in conda
    env_pins = _pins(pip)
    assert env_pins == _pyproject_pins()


def test_constraints_agree_with_pyproject():
    constraints = _pins((ROOT / "constraints.txt").read_text().splitlines())
    for name, version in _pyproject_pins().items():
        assert constraints.get(name) == version, (
            f"{name}: pyproject {version}, constraints {constraints.get(name)}"
        )


def test_jupyter_book_is_1x():
    assert _pyproject_pins()["jupyter-book"].startswith("1.")


def test_makefile_pins_the_same_cpu_kernels_as_reproduce():
    """nbval (Makefile) and make reproduce (mlgeom.book.reproduce) run the same BLAS kernels."""
    from mlgeom.book.reproduce import CPU_PINS

    makefile = (ROOT / "Makefile").read_text()
    for key, value in CPU_PINS.items():
        assert f"export {key} ?= {value}\n" in makefile, key


def test_makefile_pins_the_same_blas_threads_as_reproduce():
    """nbval (Makefile) and make reproduce run with the same OpenBLAS thread count."""
    from mlgeom.book.reproduce import THREAD_PINS

    makefile = (ROOT / "Makefile").read_text()
    for key, value in THREAD_PINS.items():
        assert f"export {key} ?= {value}\n" in makefile, key
