"""Read-only arrays for frozen result dataclasses.

A frozen dataclass cannot be re-bound, but its numpy fields could still be changed in place;
the results of :mod:`mlgeom` mark their arrays read-only so that a result, once returned, stays
what the algorithm produced.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import numpy as np

__all__ = ["freeze_arrays", "read_only"]


def read_only(a: Any, *, copy: bool = False) -> np.ndarray:
    """Return ``a`` marked read-only; with ``copy=True`` a read-only copy (``a`` untouched)."""
    out = np.array(a, copy=True) if copy else a
    out.setflags(write=False)
    return out


def freeze_arrays(obj: Any) -> None:
    """Mark every numpy-array field of the dataclass instance ``obj`` read-only, in place."""
    for f in fields(obj):
        value = getattr(obj, f.name)
        if isinstance(value, np.ndarray):
            value.setflags(write=False)
