"""Generic input checks of the public API (issue 16), in the spirit of scikit-learn's estimator
checks and river's generic checks.

For every public callable declared in :mod:`tests.api_domains`, a tiny valid call must succeed,
and each probe (NaN, ±inf, a string, an empty or wrongly shaped array, an out-of-range value —
one bad value at a time, derived from the parameter's declared domain) must raise exactly one
``ValueError`` or ``TypeError`` whose message names the parameter and, for scalars, shows the
value, raised from :mod:`mlgeom` itself (never from inside numpy or scipy), and never return a
silent result. A public callable with no declared domain fails
:func:`test_every_public_callable_is_declared`.
"""

from __future__ import annotations

import importlib
import inspect
import math
import re
import traceback
from pathlib import Path

import numpy as np
import pytest

from tests.api_domains import PACKAGES, Spec
from tests.api_domains import PENDING as _PENDING
from tests.api_domains import registry as _base_registry

#: Chapters whose declarations live in ``tests/api_domains_<chapter>.py`` (``declare(reg)``).
CHAPTER_FILES = ("fenchel_young", "hierarchical", "metric_nn", "multiscale")
_MERGED: dict[str, Spec] = {}


def registry() -> dict[str, Spec]:
    """The declared domains: ``tests/api_domains.py`` plus each chapter's own file."""
    if not _MERGED:
        merged = dict(_base_registry())
        for chapter in CHAPTER_FILES:
            mod = importlib.import_module(f"tests.api_domains_{chapter}")
            extra: dict[str, Spec] = {}
            mod.declare(extra)
            clash = sorted(set(extra) & set(merged))
            assert not clash, f"declared twice: {clash[:5]}"
            merged.update(extra)
        _MERGED.update(merged)
    return _MERGED


#: Not declared yet (tests/api_pending.txt).
PENDING = _PENDING


def public_callables() -> list[str]:
    """Every public callable: functions, classes (constructors) and classes' public methods."""
    out = []
    for pkg in PACKAGES:
        mod = importlib.import_module(pkg)
        for name in mod.__all__:
            obj = getattr(mod, name)
            if not callable(obj):
                continue
            out.append(f"{pkg}.{name}")
            if inspect.isclass(obj):
                for attr, val in vars(obj).items():
                    if attr.startswith("_"):
                        continue
                    if isinstance(val, staticmethod | classmethod) or inspect.isfunction(val):
                        out.append(f"{pkg}.{name}.{attr}")
    return sorted(set(out))


def test_every_public_callable_is_declared():
    api = set(public_callables())
    declared = set(registry())
    missing = sorted(api - declared - PENDING)
    assert not missing, (
        f"{len(missing)} public callable(s) have no declared domain in tests/api_domains.py: "
        f"{missing[:20]}"
    )
    stale = sorted((PENDING & declared) | (PENDING - api))
    assert not stale, f"tests/api_pending.txt lists declared or non-public names: {stale[:20]}"
    unknown = sorted(declared - api)
    assert not unknown, f"tests/api_domains.py declares non-public names: {unknown[:20]}"


@pytest.mark.parametrize("key", sorted(registry()))
def test_every_parameter_has_a_domain(key):
    spec = registry()[key]
    if spec.record:
        return
    params = [
        p
        for p in inspect.signature(spec.make()).parameters.values()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    names = {p.name for p in params}
    assert names == set(spec.domains), (
        f"{key}: parameters {sorted(names)} but domains for {sorted(spec.domains)}"
    )


def _probes() -> list[tuple[str, str, int]]:
    out = []
    for key, spec in sorted(registry().items()):
        if spec.record:
            continue
        valid = spec.valid()
        for name, dom in spec.domains.items():
            for k in range(len(dom.probes(valid.get(name)))):
                out.append((key, name, k))
    return out


def _shows(value: object, message: str) -> bool:
    if isinstance(value, np.ndarray):
        return True  # arrays: the parameter's name and the shape/entry (checked by name)
    if isinstance(value, float) and math.isnan(value):
        return "nan" in message
    if isinstance(value, float) and math.isinf(value):
        return "inf" in message
    return str(value) in message or repr(value) in message


@pytest.mark.parametrize("key", sorted(k for k, s in registry().items() if not s.record))
def test_valid_call_succeeds(key):
    spec = registry()[key]
    spec.make()(**spec.valid())


@pytest.mark.parametrize("key, param, k", _probes())
def test_bad_value_gives_one_clear_error(key, param, k):
    spec: Spec = registry()[key]
    kwargs = spec.valid()
    bad = spec.domains[param].probes(kwargs.get(param))[k]
    kwargs[param] = bad
    target = spec.make()
    try:
        result = target(**kwargs)
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        last = traceback.extract_tb(exc.__traceback__)[-1]
        where = Path(last.filename).as_posix()
        assert "/mlgeom/" in where, (
            f"{key}({param}={bad!r}) raised from {last.filename}:{last.lineno}, not from mlgeom: "
            f"{msg}"
        )
        assert re.search(rf"\b{re.escape(param)}\b", msg), (  # as a word: not "x" in "max"
            f"{key}({param}={bad!r}): the message does not name {param!r}: {msg}"
        )
        assert _shows(bad, msg), f"{key}({param}={bad!r}): the message does not show it: {msg}"
    except Exception as exc:  # noqa: BLE001 - the point of the test
        pytest.fail(f"{key}({param}={bad!r}) raised {type(exc).__name__}: {exc}")
    else:
        pytest.fail(f"{key}({param}={bad!r}) returned {result!r:.80} silently")
