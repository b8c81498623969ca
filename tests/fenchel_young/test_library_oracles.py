"""Library oracle for :func:`mlgeom.fenchel_young.birkhoff.sinkhorn_log` (issue 16): POT.

Our ``sinkhorn_log(L)`` scales ``exp(L)`` to a doubly stochastic matrix; POT's
``ot.sinkhorn(a, b, M, reg)`` scales ``exp(-M/reg)`` to the marginals ``a, b``. With
``a = b = 1``, ``M = -L`` and ``reg = 1`` both compute the same Sinkhorn projection. The
comparison is made only where POT reports convergence (its ``err`` below its threshold);
where it stalls (large entries of ``L``) our log-domain sweeps still reach ``1e-12``.
"""

import warnings

import numpy as np
import pytest

ot = pytest.importorskip("ot")

from mlgeom.fenchel_young.birkhoff import sinkhorn_log  # noqa: E402


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("n", [2, 5, 12])
def test_sinkhorn_log_matches_pot_where_pot_converges(seed, n):
    rng = np.random.default_rng(seed)
    L = rng.standard_normal((n, n))
    ones = np.ones(n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        P_ref, log = ot.sinkhorn(
            ones,
            ones,
            -L,
            reg=1.0,
            method="sinkhorn_log",
            stopThr=1e-13,
            numItermax=100_000,
            log=True,
        )
    if log["err"][-1] > 1e-12:
        pytest.skip(f"POT did not converge (err {log['err'][-1]:.1e})")
    ours = sinkhorn_log(L, tol=1e-12, max_iter=100_000)
    np.testing.assert_allclose(ours.P, P_ref, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.P.sum(axis=0), 1.0, atol=1e-12)
