"""Tests of Theorem 17's stream and sweep (:func:`margin_nn_stream`, :func:`thm17_sweep`)."""

import numpy as np
import pytest

from mlgeom.multiscale import margin_nn_stream, thm17_sweep
from mlgeom.random import spawn


def _loop_margin(X, q):
    """Loop reference: the smallest loss of a wrong label, ⟨q, x_r⟩ − ⟨q, x_j⟩ over j ≠ r."""
    s = [float(np.dot(q, x)) for x in X]
    r = max(range(len(s)), key=s.__getitem__)
    return min(s[r] - s[j] for j in range(len(s)) if j != r)


@pytest.mark.parametrize("k", [2, 3, 4])
def test_every_query_has_margin_gamma(k):
    X, Q = margin_nn_stream(40, k, 3, 0.01, seed=1)
    assert X.shape == (k, 3) and Q.shape == (40, 3)
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 0.5)
    assert np.all(np.linalg.norm(Q, axis=1) <= 1 + 1e-12)
    margins = [_loop_margin(X, q) for q in Q]
    assert min(margins) >= 0.01 and np.median(margins) < 0.1  # near the margin, not far off


def test_deterministic():
    a, b = margin_nn_stream(10, 3, 2, 0.05, seed=7), margin_nn_stream(10, 3, 2, 0.05, seed=7)
    np.testing.assert_array_equal(a[1], b[1])


def test_sweep_counts_mistakes(monkeypatch):
    monkeypatch.setenv("MLGEOM_BACKEND", "sequential")
    df = thm17_sweep([2, 3], [0.1, 0.01], 15, 2, [spawn(s, 4) for s in spawn(0, 2)])
    assert len(df) == 8 and set(df["k"]) == {2, 3}
    assert ((df["ours"] >= 0) & (df["ours"] <= 15)).all()
    assert ((df["perceptron"] >= 0) & (df["perceptron"] <= 15)).all()
    again = thm17_sweep([2, 3], [0.1, 0.01], 15, 2, [spawn(s, 4) for s in spawn(0, 2)])
    assert df.equals(again)


def test_bad_inputs():
    with pytest.raises(ValueError, match="gamma"):
        margin_nn_stream(5, 2, 2, 0.5)
    with pytest.raises(ValueError, match="k"):
        margin_nn_stream(5, 1, 2, 0.1)
    with pytest.raises(ValueError, match=r"seeds\[0\]"):
        thm17_sweep([2], [0.1, 0.01], 5, 2, [spawn(0, 1)])
