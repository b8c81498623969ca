"""Run profiles: the scale at which a notebook runs.

Every notebook has one papermill ``parameters`` cell with ``PROFILE`` in it:

``smoke``
    seconds; the fast tests run every notebook end to end at this scale.
``book``
    what the published book shows and CI re-executes and compares (nbval).
``paper``
    the paper's own scale; run on demand (``make reproduce PROFILE=paper``).
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["PROFILES", "check_profile", "pick"]

PROFILES: tuple[str, ...] = ("smoke", "book", "paper")

T = TypeVar("T")


def check_profile(profile: object) -> str:
    """Return ``profile`` if it is a known profile, else raise ``ValueError`` listing them."""
    if profile not in PROFILES:
        raise ValueError(f"profile: PROFILE must be one of {', '.join(PROFILES)}; got {profile!r}")
    return str(profile)


def pick(profile: str, *, smoke: T, book: T, paper: T) -> T:
    """Return the setting for ``profile``.

    Example: ``n = pick(PROFILE, smoke=200, book=5_000, paper=100_000)``.
    """
    return {"smoke": smoke, "book": book, "paper": paper}[check_profile(profile)]
