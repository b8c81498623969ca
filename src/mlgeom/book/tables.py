"""Tables in the book: a DataFrame shown in Jupyter and glued as a captioned book table.

A chapter computes a DataFrame, returns it (Jupyter displays it; the cell is tagged
``remove-output`` in the book) and glues a Markdown copy under a name; the page shows that copy
inside a ``{table}`` directive with a caption and a ``:name:``, so the table is numbered
("Table 2.6") and can be referenced with ``{numref}``::

    glue_table(results, "tbl-primer-mistakes")

    :::{table} Mistakes of the perceptron against the bound.
    :name: tbl-primer-mistakes
    {glue:md}`tbl-primer-mistakes:myst`
    :::

Numbers are formatted as pandas displays them in the notebook (its column formatter), so the
book and the notebook show the same digits.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

__all__ = ["glue_table", "markdown_table"]

_SPECIAL = re.compile(r"([\\`*_\[\]<>|$])")


def _escape(value: object) -> str:
    return _SPECIAL.sub(r"\\\1", str(value))


def _cells(column: pd.Series | pd.Index) -> list[str]:
    if pd.api.types.is_float_dtype(column):
        # floats exactly as the notebook displays them: pandas' column formatter, through its
        # public ``to_string`` (one line per value, no header or index)
        values = np.asarray(column, dtype=float)
        if values.size == 0:
            return []
        text = pd.DataFrame({"c": values}).to_string(index=False, header=False, na_rep="—")
        return [_escape(v.strip()) for v in text.split("\n")]
    return [_escape("—" if pd.isna(v) else v) for v in np.asarray(column, dtype=object)]


def markdown_table(df: pd.DataFrame | pd.Series) -> str:
    """Return ``df`` as a Markdown (pipe) table.

    A meaningful index (anything but a default ``RangeIndex``) leads each row; a Series
    becomes one column named after it. Numeric columns are right-aligned; Markdown's special
    characters are escaped; missing values print as "—".

    Parameters
    ----------
    df : pandas.DataFrame or pandas.Series
        The table.

    Returns
    -------
    str
        Header row, alignment row, one row per record.

    Raises
    ------
    TypeError
        If ``df`` is not a DataFrame or Series.

    Examples
    --------
    >>> print(markdown_table(pd.DataFrame({"n": [10, 20], "error": [0.5, 0.25]})))
    | n | error |
    | --: | --: |
    | 10 | 0.50 |
    | 20 | 0.25 |
    """
    if isinstance(df, pd.Series):
        df = df.to_frame(df.name if df.name is not None else "")
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"markdown_table needs a DataFrame or Series; got {type(df).__name__}")
    keep_index = not isinstance(df.index, pd.RangeIndex)
    levels = [df.index.get_level_values(k) for k in range(df.index.nlevels)] if keep_index else []
    columns = [*levels, *(df.iloc[:, j] for j in range(df.shape[1]))]
    names = [*(df.index.names if keep_index else []), *df.columns]
    head = [_escape(" / ".join(map(str, n)) if isinstance(n, tuple) else n or "") for n in names]
    rule = ["--:" if pd.api.types.is_numeric_dtype(c) else ":--" for c in columns]
    rows = list(zip(*map(_cells, columns), strict=True)) if columns else []
    return "\n".join("| " + " | ".join(r) + " |" for r in [head, rule, *rows])


def glue_table(df: pd.DataFrame | pd.Series, name: str) -> pd.DataFrame | pd.Series:
    """Glue ``df`` as a Markdown table under ``name`` and return ``df`` for Jupyter to show.

    Parameters
    ----------
    df : pandas.DataFrame or pandas.Series
        The table.
    name : str
        Glue key, also the table's ``:name:`` in the book by convention (``tbl-…``).

    Returns
    -------
    pandas.DataFrame or pandas.Series
        ``df`` itself.
    """
    from IPython.display import Markdown
    from myst_nb import glue

    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty string; got {name!r}")
    glue(name, Markdown(markdown_table(df)), display=False)
    return df
