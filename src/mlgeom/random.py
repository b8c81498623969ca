"""Explicit randomness: every random choice in :mod:`mlgeom` goes through here.

Functions accept ``seed: int | numpy.random.Generator | None`` and normalise it with
:func:`as_generator`; repeated runs (seeds of a sweep, splits, classes) get independent
streams from :func:`spawn`, so that parallel runs never share a stream and a sweep gives the
same numbers whether it runs serially or in parallel.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np

__all__ = ["Seed", "as_generator", "section_rng", "spawn"]

Seed = int | np.random.Generator | None


def as_generator(seed: Seed = None) -> np.random.Generator:
    """Turn ``seed`` into a :class:`numpy.random.Generator`.

    Parameters
    ----------
    seed : int, numpy.random.Generator or None
        An ``int`` (>= 0) seeds a new PCG64 generator; a ``Generator`` is returned as is
        (the caller's stream advances); ``None`` draws fresh OS entropy (not reproducible:
        the book never passes ``None``).

    Returns
    -------
    numpy.random.Generator
        The generator.

    Raises
    ------
    ValueError
        If ``seed`` is a negative integer or of another type.
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        return np.random.default_rng()
    if isinstance(seed, bool) or not isinstance(seed, Integral):
        raise ValueError(
            f"seed must be a non-negative int, a numpy.random.Generator or None; got {seed!r}"
        )
    if seed < 0:
        raise ValueError(f"seed must be a non-negative int; got {seed}")
    return np.random.default_rng(int(seed))


def spawn(seed: Seed, n: int) -> list[np.random.Generator]:
    """Return ``n`` independent child generators derived from ``seed``.

    The children depend only on ``seed`` (for an ``int``) or on the parent's state (for a
    ``Generator``, whose stream is advanced), never on the order in which they are used.

    Parameters
    ----------
    seed : int, numpy.random.Generator or None
        The parent seed, as in :func:`as_generator`.
    n : int
        Number of children (>= 0).

    Returns
    -------
    list of numpy.random.Generator
        ``n`` generators with independent streams.
    """
    if isinstance(n, bool) or not isinstance(n, Integral) or n < 0:
        raise ValueError(f"n must be a non-negative int; got {n!r}")
    return list(as_generator(seed).spawn(int(n)))


def section_rng(seed: int, label: str) -> np.random.Generator:
    """Return the generator of one notebook section, keyed by the root seed and its label.

    Sections that spawned children from a shared stream in order moved each other's numbers
    when one was added or removed. Here each section's stream depends only on ``seed`` and
    ``label`` (through a stable hash of the label, not Python's salted ``hash``), so adding,
    removing or reordering sections leaves every other section's numbers unchanged.

    Parameters
    ----------
    seed : int
        The chapter's root seed (>= 0).
    label : str
        The section's label, e.g. ``"primer-lift"`` (non-empty).

    Returns
    -------
    numpy.random.Generator
        A PCG64 generator; ``spawn`` it for the section's sub-streams.

    Examples
    --------
    >>> a = section_rng(7, "primer-lift").integers(1 << 30)
    >>> b = section_rng(7, "primer-lift").integers(1 << 30)
    >>> bool(a == b), bool(a == section_rng(7, "primer-vc").integers(1 << 30))
    (True, False)
    """
    import hashlib

    if isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative int; got {seed!r}")
    if not isinstance(label, str) or not label.strip():
        raise ValueError(f"label must be a non-empty string (the section's label); got {label!r}")
    digest = hashlib.sha256(label.encode("utf-8")).digest()
    key = [int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4)]
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(int(seed), spawn_key=key)))
