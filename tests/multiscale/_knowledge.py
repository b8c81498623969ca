"""Knowledge sets shared by the Minkowski-sum sampler tests."""

from __future__ import annotations

import math

import numpy as np

from mlgeom import multiscale as L


def knowledge_set(A, n_particles: int, seed: int, warm: int = 50) -> L.BallKnowledgeSet:
    """``B_d ∩ {Av <= 0}`` with its particles mixed by ``warm`` hit-and-run steps."""
    K = L.BallKnowledgeSet(A.shape[1], n_particles=n_particles, seed=seed)
    for a in A:
        K.cut(a, 0.0)
    K.hit_and_run(warm)
    return K


def assert_sides_match_the_exact_law(Y, A, z: float, rng, n_exact: int = 200000) -> None:
    """The rows of ``Y`` put the exact uniform law's share of ``K + zB_3`` on 10 random sides.

    ``n_exact`` rejection samples of ``K + zB_3`` (``K = B_3 ∩ {Av <= 0}``) give the reference
    shares; each must be within 4 standard errors of the share of ``Y``.
    """
    R = L.uniform_ball(n_exact, 3, rng, 1.0 + z)
    R = R[np.linalg.norm(R - L.project_ball_cone(A, R), axis=1) <= z]
    for _ in range(10):
        q = rng.standard_normal(3)
        g = float(np.quantile(R @ q, rng.uniform(0.1, 0.9)))
        f, f_ref = np.mean(Y @ q >= g), np.mean(R @ q >= g)
        se = math.sqrt(f_ref * (1 - f_ref) * (1 / len(Y) + 1 / len(R)))
        assert abs(f - f_ref) < 4 * se
