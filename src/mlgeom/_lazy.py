"""Lazy exports for the subpackages' ``__init__`` modules (PEP 562).

A subpackage lists what it exports, module by module; a name is imported from its module the
first time it is used. ``from mlgeom import hierarchical as H`` therefore costs nothing until the
notebook calls ``H.make_learner``, ``python -m mlgeom.book.claims`` runs without importing its
own module twice, and importing one module of a chapter does not import the whole chapter.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["attach"]


def attach(
    package: str, exports: Mapping[str, Sequence[str]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """Return ``(__getattr__, __dir__, __all__)`` for a package's ``__init__``.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    exports : mapping of str to sequence of str
        Module (relative to ``package``, or absolute ``mlgeom.…``) -> the names it exports.

    Raises
    ------
    ValueError
        If a name is exported by two modules.
    """
    where: dict[str, str] = {}
    for module, names in exports.items():
        target = module if module.startswith("mlgeom.") else f"{package}.{module}"
        for name in names:
            if name in where:
                raise ValueError(f"{package}: {name!r} is exported by {where[name]} and {target}")
            where[name] = target

    # name -> module, for tests that compare a package's exports with its modules' __all__
    sys.modules[package].__exports__ = dict(where)

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module-level hook of PEP 562
        try:
            module = where[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)  # the next lookup is a plain attribute
        return value

    def __dir__() -> list[str]:  # noqa: N807
        return sorted(set(where) | set(vars(sys.modules[package])))

    return __getattr__, __dir__, sorted(where, key=str.lower)
