"""Generic checks of *pairs* of arguments over every public callable (issue 34).

:mod:`tests.test_api_domains` probes one parameter at a time. Arguments also have to agree
with each other: ``X`` and ``y`` have one entry per point, ``indices`` and ``values`` have the
same length, an integer ``n`` bounds the vertices of ``edges``, a real parameter must not be
given complex numbers. For every callable declared in :mod:`tests.api_domains` (every public
callable; the declarations are shared with ``test_api_domains``), probes are derived from its
tiny valid call:

* **shape**: for every two array parameters ``p`` and ``q`` whose valid values share a
  dimension size (``X.shape[0] == len(y)``), ``p`` with one entry fewer and one entry more
  along that axis;
* **bound**: for an integer parameter ``n`` whose valid value is a dimension of an array
  parameter ``a`` (``n == len(a)``) or bounds its integer entries (``n == max(a) + 1``),
  ``n - 1`` and ``n + 1``;
* **type**: every array parameter with complex entries (never valid: the package is real),
  and every integer-valued array parameter with a fractional entry.

A probe passes when the call raises ``ValueError`` or ``TypeError`` from :mod:`mlgeom` itself
whose message names (as a word) one of the arguments involved (for shape and bound probes, any
of the call's parameters: a shorter ``X`` may be reported as an out-of-range ``label``), or
(shape, bound and fractional probes) when it returns: a pair whose sizes do not have to agree,
such as the training and test sets of a sweep, is not an error. It fails when the call raises
anything else (numpy's broadcast or index errors, which name neither argument), raises from
inside numpy or scipy, or returns a result for complex input. Where two arguments must agree,
:data:`tests.api_domains.MUST_AGREE` lists the pair and the probe also fails on a return (a
silent return is otherwise not judged: the probes cannot tell a coincidence of sizes from a
relation).
"""

from __future__ import annotations

import re
import traceback
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.api_domains import MUST_AGREE, Array, Int, Spec
from tests.test_api_domains import registry


def _as_array(value: Any) -> np.ndarray | None:
    """The valid value as a numeric array with at least one axis, or None."""
    if isinstance(value, str | bytes | dict) or value is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            arr = np.asarray(value)
    except (TypeError, ValueError):
        return None
    if arr.dtype.kind not in "biuf" or arr.ndim == 0 or arr.size == 0:
        return None
    return arr


def _resize(a: np.ndarray, axis: int, delta: int) -> np.ndarray:
    """``a`` with its last slice along ``axis`` dropped (``-1``) or repeated (``+1``)."""
    if delta < 0:
        return np.take(a, np.arange(a.shape[axis] - 1), axis=axis)
    last = np.take(a, [a.shape[axis] - 1], axis=axis)
    return np.concatenate([a, last], axis=axis)


def _probes() -> list[tuple[str, str, str, tuple[str, ...], Any]]:
    """``(key, probe id, parameter, names the message may show, bad value)`` for every probe."""
    out = []
    for key, spec in sorted(registry().items()):
        if spec.record:
            continue
        valid = spec.valid()
        arrays = {
            name: arr
            for name, dom in spec.domains.items()
            if isinstance(dom, Array)
            and name in valid
            and (arr := _as_array(valid[name])) is not None
        }
        ints = {
            name: int(valid[name])
            for name, dom in spec.domains.items()
            if isinstance(dom, Int)
            and isinstance(valid.get(name), int | np.integer)
            and not isinstance(valid.get(name), bool)
        }
        for p, a in arrays.items():
            for i, size in enumerate(a.shape):
                partners = tuple(
                    q for q, b in arrays.items() if q != p and size in b.shape and size >= 1
                )
                if not partners:
                    continue
                for delta in (-1, 1):
                    if delta < 0 and size < 2:
                        continue
                    pid = f"shape:{p}[axis {i}]{delta:+d}"
                    out.append((key, pid, p, (p, *partners), _resize(a, i, delta)))
            out.append((key, f"type:{p}:complex", p, (p,), a + 1j))
            if a.dtype.kind in "iu":
                frac = a.astype(np.float64)
                frac.flat[0] += 0.5
                out.append((key, f"type:{p}:fraction", p, (p,), frac))
        for n, v in ints.items():
            related = tuple(
                name
                for name, a in arrays.items()
                if v in a.shape or (a.dtype.kind in "iu" and a.size and v == int(a.max()) + 1)
            )
            if not related:
                continue
            for delta in (-1, 1):
                dom = spec.domains[n]
                if v + delta < dom.minimum or (dom.maximum is not None and v + delta > dom.maximum):
                    continue
                out.append((key, f"bound:{n}{delta:+d}", n, (n, *related), v + delta))
    return out


PROBES = _probes()


def test_every_public_callable_is_covered():
    """The pairwise probes run over the same declarations as the one-at-a-time probes.

    Every public callable is declared there (``test_every_public_callable_is_declared``), and
    every one with a numeric array argument gets probes here (at least its type probes); one
    with no array argument has no pair of sizes or types to check. The pairs that must agree
    name parameters of their callable.
    """
    reg = registry()
    keys = {k for k, s in reg.items() if not s.record}
    with_arrays = {
        k
        for k in keys
        if any(
            isinstance(d, Array) and _as_array(reg[k].valid().get(n)) is not None
            for n, d in reg[k].domains.items()
        )
    }
    probed = {p[0] for p in PROBES}
    assert with_arrays <= probed <= keys, sorted(with_arrays - probed)[:10]
    for key, pairs in MUST_AGREE.items():
        assert key in keys and all(set(pair) <= set(reg[key].domains) for pair in pairs), key


#: Known defects outside this change's reach, with the reason: the probe is expected to fail.
KNOWN: dict[str, str] = {}


def _call(spec: Spec, kwargs: dict[str, Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        return spec.make()(**kwargs)


@pytest.mark.parametrize(
    "key, pid, param, names, bad", PROBES, ids=[f"{p[0]}-{p[1]}" for p in PROBES]
)
def test_arguments_that_disagree_give_one_clear_error(key, pid, param, names, bad):
    if key in KNOWN and pid.endswith(":complex"):
        pytest.xfail(KNOWN[key])
    spec: Spec = registry()[key]
    kwargs = spec.valid()
    kwargs[param] = bad
    try:
        result = _call(spec, kwargs)
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        last = traceback.extract_tb(exc.__traceback__)[-1]
        where = Path(last.filename).as_posix()
        assert "/mlgeom/" in where, (
            f"{key} [{pid}] raised from {last.filename}:{last.lineno}, not from mlgeom: {msg}"
        )
        # the disagreement may be reported from the other side of a relation the probe did
        # not know (a shorter X makes ``label`` out of range): any of the call's parameters
        named = names if pid.startswith("type:") else (*names, *spec.domains)
        assert any(re.search(rf"\b{re.escape(n)}\b", msg) for n in named), (
            f"{key} [{pid}]: the message names none of {named}: {msg}"
        )
    except Exception as exc:  # noqa: BLE001 - the point of the test
        pytest.fail(f"{key} [{pid}] raised {type(exc).__name__}: {exc}")
    else:
        silent_ok = not pid.endswith(":complex") and not any(
            {param, other} == set(pair) for pair in MUST_AGREE.get(key, ()) for other in names
        )
        assert silent_ok, f"{key} [{pid}] returned {result!r:.80} silently"
