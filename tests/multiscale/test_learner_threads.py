"""Algorithm 2's hit-and-run runs with one BLAS thread; its numbers must not depend on that."""

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

from mlgeom.multiscale.learner import ScaleSet


def _blas_threads() -> int:
    return max(int(lib["num_threads"]) for lib in threadpool_info() if lib["user_api"] == "blas")


def _state(n_threads: int) -> np.ndarray:
    """Particles after 40 sparse cuts over ~600 active coordinates, under ``n_threads``."""
    rng = np.random.default_rng(7)
    S = ScaleSet(64, 2, np.random.default_rng(11))
    with threadpool_limits(limits=n_threads, user_api="blas"):
        for _ in range(40):
            idx = rng.choice(600, 16, replace=False)
            S.cut(idx, rng.normal(size=16), float(rng.uniform(0.5, 2.0)))
    return S.X


def test_hit_and_run_same_numbers_for_any_blas_thread_count():
    # the step itself runs single-threaded; this pins that the caller's count changes nothing
    np.testing.assert_array_equal(_state(1), _state(2))


def test_hit_and_run_restores_the_callers_thread_count():
    S = ScaleSet(8, 1, np.random.default_rng(0))
    with threadpool_limits(limits=2, user_api="blas"):
        before = _blas_threads()
        S.cut(np.array([0, 3]), np.array([1.0, -1.0]), 0.5)
        assert _blas_threads() == before
