"""Tests of mlgeom.primer.sublevel (slide "Recent Results": sublevel-set range space)."""

from itertools import combinations

import numpy as np
import pytest

from mlgeom import primer as P


def _disc_brute(Y, inside, n_centres=81):
    # loop reference: try discs centred on a grid with every radius that matters
    Y = np.asarray(Y, float)
    Z = set(inside)
    for cx in np.linspace(-3, 4, n_centres):
        for cy in np.linspace(-3, 4, n_centres):
            d = np.hypot(Y[:, 0] - cx, Y[:, 1] - cy)
            for r in d:
                if {i for i in range(len(Y)) if d[i] <= r + 1e-12} == Z:
                    return True
    return not Z


def test_realizable_matches_brute_force_on_a_triangle_with_an_inner_point():
    # (0.5, 0.3) lies in the triangle: the three corners without it are not a disc's range
    Y = [[0.0, 0.0], [1.0, 0.0], [0.5, 1.0], [0.5, 0.3]]
    assert not P.disc_realizable(Y, [0, 1, 2])
    for size in range(5):
        for Z in combinations(range(4), size):
            if Z == (0, 1, 2):
                continue
            assert P.disc_realizable(Y, list(Z)) == _disc_brute(Y, Z), Z


def test_collinear_middle_point_cannot_be_skipped():
    Y = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]
    assert not P.disc_realizable(Y, [0, 2])
    assert P.disc_realizable(Y, [1])
    assert P.disc_realizable(Y, [])


def test_shattering_three_and_four_points():
    assert P.disc_shattered([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    assert not P.disc_shattered([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    assert not P.disc_shattered([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])  # collinear


def test_sweep_shares_and_determinism():
    a = P.disc_shattering_sweep([2, 3, 4], 5, seed=3)
    assert a == P.disc_shattering_sweep([2, 3, 4], 5, seed=3)
    assert a[2] == 1.0 and a[3] == 1.0 and a[4] == 0.0


def test_bad_inputs():
    with pytest.raises(ValueError, match="inside"):
        P.disc_realizable([[0.0, 0.0]], [1])
    with pytest.raises(ValueError, match="Y"):
        P.disc_realizable([[0.0, 0.0, 0.0]], [0])
    with pytest.raises(ValueError, match="12"):
        P.disc_shattered(np.zeros((13, 2)))
    with pytest.raises(ValueError, match="sizes"):
        P.disc_shattering_sweep([13], 1, seed=0)
