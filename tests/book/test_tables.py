import numpy as np
import pandas as pd
import pytest

from mlgeom.book.tables import glue_table, markdown_table


def _reference(df):
    """What the notebooks' inline helper produced (loop form), for plain float/int/str frames."""
    lines = ["| " + " | ".join(df.columns) + " |"]
    lines.append("| " + " | ".join("--:" if df[c].dtype.kind in "if" else ":--" for c in df) + " |")
    for _, row in df.iterrows():
        lines.append("| " + " | ".join(str(v) for v in row.values) + " |")
    return "\n".join(lines)


def test_plain_frame_matches_hand_written_table():
    df = pd.DataFrame({"name": ["a", "b"], "k": [1, 2]})
    assert markdown_table(df) == _reference(df)


def test_floats_are_formatted_as_pandas_displays_them():
    df = pd.DataFrame({"x": [1.0, 0.123456789, np.nan]})
    text = markdown_table(df)
    assert "0.123457" in text and "—" in text
    shown = df.to_string(na_rep="—").splitlines()[1:]
    ours = [r.split("|")[1].strip() for r in text.splitlines()[2:]]
    assert [r.split()[-1] for r in shown] == ours


def test_index_leads_each_row_and_series_become_a_column():
    s = pd.Series([0.5, 0.25], index=pd.Index(["PERC", "H-PERC"], name="algorithm"), name="loss")
    assert markdown_table(s).splitlines() == [
        "| algorithm | loss |",
        "| :-- | --: |",
        "| PERC | 0.50 |",
        "| H-PERC | 0.25 |",
    ]


def test_multiindex_columns_are_joined_and_specials_escaped():
    df = pd.DataFrame([[1, 2]], columns=pd.MultiIndex.from_tuples([("a", "x"), ("a", "y|z")]))
    head = markdown_table(df).splitlines()[0]
    assert head == "| a / x | a / y\\|z |"
    assert markdown_table(pd.DataFrame({"v": ["$x_1$"]})).splitlines()[2] == "| \\$x\\_1\\$ |"


def test_bad_inputs():
    with pytest.raises(TypeError, match="got list"):
        markdown_table([1, 2])
    with pytest.raises(ValueError, match="non-empty string"):
        glue_table(pd.DataFrame({"a": [1]}), "")


def test_glue_table_returns_the_frame():
    df = pd.DataFrame({"a": [1]})
    assert glue_table(df, "tbl-x") is df


def test_tables_imports_no_private_pandas_module():
    import ast
    import inspect

    from mlgeom.book import tables

    tree = ast.parse(inspect.getsource(tables))
    modules = [
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    ]
    assert not [m for m in modules if m and m.startswith(("pandas.io", "pandas._", "pandas.core"))]
