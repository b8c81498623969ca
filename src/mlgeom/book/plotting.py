"""One house style for every figure in the book.

``use_style()`` once per notebook; then :func:`figure` for a new figure and the colours in
:data:`COLORS`: the paper's numbers/bounds are drawn in :data:`COLORS` ``["paper"]`` (dashed),
our measurements in ``["ours"]``, baselines in ``["baseline"]``. Captions live in the notebook
cell's ``mystnb.figure`` metadata (so the book numbers and cross-references them), not in the
image.
"""

from __future__ import annotations

import matplotlib as mpl
import matplotlib.pyplot as plt

from mlgeom._validation import check_positive_int, check_real

__all__ = ["COLORS", "PAPER_STYLE", "figure", "use_style"]

#: Colour roles (colour-blind safe, from the Okabe–Ito palette).
COLORS: dict[str, str] = {
    "ours": "#0072B2",
    "paper": "#D55E00",
    "baseline": "#009E73",
    "accent": "#CC79A7",
    "neutral": "#555555",
    "positive": "#0072B2",
    "negative": "#E69F00",
}

#: Line style for the paper's values and bounds.
PAPER_STYLE: dict[str, object] = {"color": COLORS["paper"], "linestyle": "--", "linewidth": 1.6}

_RC = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 110,
    "savefig.dpi": 110,
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "lines.linewidth": 1.8,
    "lines.markersize": 5,
    "svg.hashsalt": "mlgeom",
}


def use_style() -> None:
    """Apply the house style to matplotlib (idempotent)."""
    mpl.rcParams.update(_RC)


def figure(
    ncols: int = 1, nrows: int = 1, *, width: float | None = None, height: float | None = None
):
    """Return ``(fig, axes)`` in the house style; ``axes`` is a single Axes for a 1×1 grid."""
    ncols = check_positive_int(ncols, "ncols")
    nrows = check_positive_int(nrows, "nrows")
    if width is not None:
        width = check_real(width, "width", low=0.0, low_inclusive=False)
    if height is not None:
        height = check_real(height, "height", low=0.0, low_inclusive=False)
    w = width if width is not None else 4.2 * ncols if ncols > 1 else _RC["figure.figsize"][0]
    h = height if height is not None else 3.6 * nrows if nrows > 1 else _RC["figure.figsize"][1]
    fig, axes = plt.subplots(nrows, ncols, figsize=(w, h), layout="constrained", squeeze=True)
    return fig, axes
