"""Knowledge sets shared by the Minkowski-sum sampler tests."""

from __future__ import annotations

from mlgeom import multiscale as L


def knowledge_set(A, n_particles: int, seed: int, warm: int = 50) -> L.BallKnowledgeSet:
    """``B_d ∩ {Av <= 0}`` with its particles mixed by ``warm`` hit-and-run steps."""
    K = L.BallKnowledgeSet(A.shape[1], n_particles=n_particles, seed=seed)
    for a in A:
        K.cut(a, 0.0)
    K.hit_and_run(warm)
    return K
