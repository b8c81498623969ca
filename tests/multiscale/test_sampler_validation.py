"""Exact split areas in d = 2 and the sampler check inside the learner."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlgeom import multiscale as L


def test_total_matches_steiner_formula():
    rng = np.random.default_rng(0)
    for _ in range(5):
        A = rng.standard_normal((2, 2))
        b = rng.uniform(0.0, 0.5, 2)
        side, total = L.minkowski_halfplane_area(A, b, [1.0, 0.0], -5.0, 0.05)
        assert total == pytest.approx(L.steiner_area(A, b, 0.05), rel=1e-5)
        assert side == pytest.approx(total)  # the half-plane contains everything


def test_hand_computed_half_disk():
    # K = upper half-disk; K + zB above y = 0 is the half-disk of radius 1 + z
    z = 0.1
    side, total = L.minkowski_halfplane_area([[0.0, -1.0]], [0.0], [0.0, 1.0], 0.0, z)
    assert side == pytest.approx(math.pi * (1 + z) ** 2 / 2, rel=1e-5)
    assert total == pytest.approx(math.pi / 2 + z * (2 + math.pi) + math.pi * z * z, rel=1e-5)
    # no cuts, z = 0: the disk, split in half by a line through the centre
    side, total = L.minkowski_halfplane_area(np.zeros((0, 2)), [], [1.0, 1.0], 0.0, 0.0)
    assert side / total == pytest.approx(0.5, abs=1e-9)


def test_empty_knowledge_set():
    assert L.minkowski_halfplane_area([[1.0, 0.0]], [-2.0], [1.0, 0.0], 0.0, 0.1) == (0.0, 0.0)


def test_sampler_runs_records_guessed_rounds(monkeypatch):
    monkeypatch.setenv("MLGEOM_BACKEND", "sequential")
    rows, sec, _ = L.sampler_runs(40, [np.random.default_rng(1)], n_steps=1)
    assert len(sec) == 1 and sec[0] > 0
    assert rows["fraction"].between(0, 1).all()
    mistakes = rows[rows["mistake"]]
    assert mistakes["ratio_steiner"].notna().all() and (mistakes["ratio_steiner"] < 1).all()
    assert rows[~rows["mistake"]]["ratio_steiner"].isna().all()


def test_sampler_runs_minkowski_work(monkeypatch):
    monkeypatch.setenv("MLGEOM_BACKEND", "sequential")
    rows, _, work = L.sampler_runs(
        30, [np.random.default_rng(1)], n_particles=16, sampler="minkowski", sum_steps=2
    )
    assert work.loc[0, "steps_sum"] == 2 * 16 * work.loc[0, "guesses"]
    assert work.loc[0, "guesses"] == len(rows)
    _, _, work0 = L.sampler_runs(30, [np.random.default_rng(1)], n_particles=16)
    assert work0.loc[0, "steps_sum"] == 0 and work0.loc[0, "steps_K"] >= 0


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: L.minkowski_halfplane_area([[1.0, 0.0]], [0.0], [1.0], 0.0, 0.1), "q"),
        (lambda: L.minkowski_halfplane_area([[1.0, 0.0]], [0.0], [1.0, 0.0], 0.0, -0.1), "z"),
        (
            lambda: L.minkowski_halfplane_area(
                [[1.0, 0.0]], [0.5], [1.0, 0.0], 0.0, 0.1, n_vertices=2
            ),
            "n_vert",
        ),
        (lambda: L.sampler_runs(10, []), "seeds"),
        (lambda: L.sampler_runs(0, [np.random.default_rng(0)]), "T"),
        (lambda: L.sampler_runs(5, [np.random.default_rng(0)], sampler="exact"), "sampler"),
        (lambda: L.sampler_runs(5, [np.random.default_rng(0)], sum_steps=-1), "sum_steps"),
    ],
)
def test_bad_inputs(call, match):
    with pytest.raises(ValueError, match=match):
        call()
