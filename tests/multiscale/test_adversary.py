"""The adaptive adversary and the centroid/halving strawmen (issue 15)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mlgeom.algorithms.multiclass_perceptron import OnlinePerceptron
from mlgeom.multiscale import (
    MARGIN_CYCLE,
    CentroidLearner,
    HalvingLearner,
    HyperplaneLearner,
    MidpointLearner,
    adversarial_run,
    adversary_sweep,
    least_informed_direction,
)

W2 = np.array([1.0, 0.0])


def _learners(d: int) -> dict:
    return {
        "ours": HyperplaneLearner(d, seed=1),
        "midpoint": MidpointLearner(d),
        "centroid": CentroidLearner(d, seed=1),
        "halving": HalvingLearner(d, seed=1),
        "perceptron": OnlinePerceptron(d),
    }


def _label(q, w) -> int:
    return 1 if q @ w >= 0 else 2


@pytest.mark.parametrize("name", ["ours", "midpoint", "centroid", "halving", "perceptron"])
def test_replay_matches_a_loop_reference(name):
    """Replaying the played queries on a fresh learner gives the same losses (loop reference).

    Every query is a unit vector with margin m_t from the cycle; a mistake costs m_t; in a round
    without loss the reflected query (the other side of the hyperplane, same direction) is
    predicted correctly too, so the adversary had no mistake to force along that direction.
    """
    d, T = 3, 40
    w = np.array([0.6, 0.0, 0.8])
    out = adversarial_run(_learners(d)[name], w, T, seed=5)
    fresh = _learners(d)[name]
    loss = np.zeros(T)
    for t, q in enumerate(out["Q"]):
        m = MARGIN_CYCLE[t % len(MARGIN_CYCLE)]
        assert math.isclose(np.linalg.norm(q), 1.0, rel_tol=1e-12)
        assert math.isclose(abs(q @ w), m, rel_tol=1e-9)
        y = _label(q, w)
        pred = fresh.predict(q)
        if pred != y:
            loss[t] = m
        else:
            reflected = q - 2 * (q @ w) * w
            assert fresh.predict(reflected) == _label(reflected, w)
        if name == "perceptron":
            fresh.learn(q, y)
        else:
            fresh.learn(q, y, pred)
    np.testing.assert_allclose(out["loss"], np.cumsum(loss))
    assert out["mistakes"] == int(np.count_nonzero(loss))


def test_hand_case_first_round_is_a_mistake():
    """d = 2, K = B_2: the midpoint of every extent is 0, so the learner says 2; the adversary
    plays the first query of label 1 (s = +1) and the learner pays m_0 = 1e-3."""
    m = MidpointLearner(2)
    out = adversarial_run(m, W2, 1, seed=0)
    q = out["Q"][0]
    assert q @ W2 == pytest.approx(1e-3)
    assert abs(q[1]) == pytest.approx(math.sqrt(1 - 1e-6))
    assert out["loss"][0] == pytest.approx(1e-3)
    assert m.n_updates == 1


def test_perceptron_always_fooled_first_round_and_direction():
    p = OnlinePerceptron(2)
    p.w = np.array([0.3, -0.4])
    c = np.array([[0.0, 1.0]])
    np.testing.assert_allclose(least_informed_direction(p, W2, c), [0.0, -1.0])
    p.w = np.array([2.0, 0.0])  # parallel to w: fall back to the previous direction
    np.testing.assert_allclose(least_informed_direction(p, W2, c), [0.0, 1.0])


def test_widest_direction_of_the_knowledge_set():
    m = MidpointLearner(3)
    m.learn([0.0, 1.0, 0.0], 2, predicted=1)  # cut keeps <e2, u> <= 0: width 1 along e2
    w = np.array([1.0, 0.0, 0.0])
    c = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    np.testing.assert_allclose(least_informed_direction(m, w, c), [0.0, 0.0, 1.0])
    np.testing.assert_allclose(least_informed_direction(m, w, c[:1]), [0.0, 1.0, 0.0])


def test_deterministic_and_paired():
    w = np.array([0.0, 1.0, 0.0])
    a = adversarial_run(MidpointLearner(3), w, 30, seed=7)
    b = adversarial_run(MidpointLearner(3), w, 30, seed=7)
    np.testing.assert_array_equal(a["Q"], b["Q"])
    np.testing.assert_array_equal(a["loss"], b["loss"])
    c = adversarial_run(MidpointLearner(3), w, 30, seed=8)
    assert not np.array_equal(a["Q"], c["Q"])
    rs = adversary_sweep(12, 2, [np.random.default_rng(3)], learners=("midpoint", "perceptron"))
    rs2 = adversary_sweep(12, 2, [np.random.default_rng(3)], learners=("perceptron", "midpoint"))
    for n in ("midpoint", "perceptron"):
        np.testing.assert_array_equal(rs[0][n], rs2[0][n])
    m = np.array([MARGIN_CYCLE[t % 6] for t in range(12)])
    np.testing.assert_allclose(rs[0]["uniform"], np.cumsum(m / 2))


def test_bad_inputs():
    with pytest.raises(ValueError, match="T"):
        adversarial_run(MidpointLearner(2), W2, 0)
    with pytest.raises(ValueError, match="margins"):
        adversarial_run(MidpointLearner(2), W2, 3, margins=[0.1, 1.0])
    with pytest.raises(ValueError, match="margins"):
        adversarial_run(MidpointLearner(2), W2, 3, margins=[0.0])
    with pytest.raises(ValueError, match="w must be"):
        adversarial_run(MidpointLearner(2), [0.0, 0.0], 3)
    with pytest.raises(ValueError, match="learner.d"):
        adversarial_run(MidpointLearner(3), W2, 3)
    with pytest.raises(TypeError, match="learner"):
        adversarial_run(object(), W2, 3)
    with pytest.raises(ValueError, match="candidates"):
        least_informed_direction(MidpointLearner(2), W2, [[0.0, 1.0, 0.0]])
    with pytest.raises(ValueError, match="learners"):
        adversary_sweep(3, 2, [np.random.default_rng(0)], learners=("oracle",))


def _quarter_disk(cls):
    h = cls(2, seed=0)
    h.learn([1.0, 0.0], 1, predicted=2)  # keep u1 >= 0
    h.learn([0.0, 1.0], 1, predicted=2)  # keep u2 >= 0
    return h


@pytest.mark.parametrize("cls", [CentroidLearner, HalvingLearner])
def test_centroid_and_halving_hand_case(cls):
    """Quarter disk u1, u2 >= 0: centroid (4/(3π), 4/(3π)); <q, c> = ±0.21 for q = ±(1, −1/2),
    whose extents over K straddle 0, so the statistic decides; known signs are returned as is."""
    h = _quarter_disk(cls)
    assert h.K.contains(h.K.particles).all()
    assert h.predict([1.0, -0.5]) == 1
    assert h.predict([-1.0, 0.5]) == 2
    assert h.predict([1.0, 1.0]) == 1 and h.predict([-1.0, -1.0]) == 2
    if cls is CentroidLearner:
        c = 4 / (3 * math.pi)
        np.testing.assert_allclose(h.K.particles.mean(axis=0), [c, c], atol=0.1)


def test_centroid_learner_bad_inputs():
    with pytest.raises(ValueError, match="d"):
        CentroidLearner(0)
    with pytest.raises(ValueError, match="q"):
        HalvingLearner(2).predict([1.0, 0.0, 0.0])


def test_separating_margins_hand_case():
    """Even rounds 0.3, 0.1, 0.3, …; odd round t the k-th small margin 0.1·10^(−k/15),
    k = (t − 1)/2, floored at 1e-12 from t = 331 on (loop reference)."""
    from mlgeom.multiscale import SEPARATING_FLOOR, separating_margins

    T = 400
    m = separating_margins(T)
    ref = []
    for t in range(T):
        if t % 2 == 0:
            ref.append(0.3 if t % 4 == 0 else 0.1)
        else:
            ref.append(max(1e-12, 0.1 * 10.0 ** (-((t - 1) // 2) / 15)))
    np.testing.assert_allclose(m, ref, rtol=1e-12)
    assert (
        m[1] == pytest.approx(0.1) and m[31] == pytest.approx(1e-2) and m[61] == pytest.approx(1e-3)
    )
    assert m[329] > SEPARATING_FLOOR and np.all(m[331::2] == SEPARATING_FLOOR)
    with pytest.raises(ValueError, match="T"):
        separating_margins(0)


def test_adversarial_run_reports_mistake_rounds():
    w = np.array([0.0, 1.0, 0.0])
    out = adversarial_run(MidpointLearner(3), w, 30, seed=7)
    np.testing.assert_array_equal(out["mistake"], np.diff(out["loss"], prepend=0.0) > 0)
    assert out["mistake"].sum() == out["mistakes"]


def test_separating_sweep_matches_replay_and_is_paired():
    """The α-losses are Σ m_t^α over the mistake rounds of one run (loop reference), the same
    runs as adversarial_run on separating_margins, independent of the learners' order."""
    from mlgeom.multiscale import separating_margins, separating_sweep

    T, alphas = 40, [0.1, 1.0]
    rs = separating_sweep(
        T, 2, [np.random.default_rng(3)], alphas, learners=("midpoint", "perceptron")
    )
    rs2 = separating_sweep(
        T, 2, [np.random.default_rng(3)], alphas, learners=("perceptron", "midpoint")
    )
    m = separating_margins(T)
    for n in ("midpoint", "perceptron"):
        np.testing.assert_array_equal(rs[0][n], rs2[0][n])
        assert rs[0][n].shape == (2, T)
        inc = np.diff(rs[0][n][1], prepend=0.0)
        erred = inc > 0
        assert erred.sum() == rs[0]["mistakes"][n]
        for a, row in zip(alphas, rs[0][n], strict=True):
            ref, tot = [], 0.0
            for t in range(T):
                tot += m[t] ** a if erred[t] else 0.0
                ref.append(tot)
            np.testing.assert_allclose(row, ref, rtol=1e-12)
    np.testing.assert_allclose(rs[0]["uniform"][0], np.cumsum(m**0.1 / 2))
    # the same run as adversarial_run with the same keys
    keys = np.random.default_rng(3).integers(0, 2**63, size=3)
    from mlgeom.multiscale import experiments as ex

    w = ex.unit(np.random.default_rng(keys[0]), 2)
    r = adversarial_run(MidpointLearner(2), w, T, np.random.default_rng(keys[1]), margins=m)
    np.testing.assert_array_equal(r["mistake"], np.diff(rs[0]["midpoint"][1], prepend=0.0) > 0)
    with pytest.raises(ValueError, match="alphas"):
        separating_sweep(3, 2, [np.random.default_rng(0)], [0.0])
    with pytest.raises(ValueError, match="learners"):
        separating_sweep(3, 2, [np.random.default_rng(0)], [1.0], learners=("oracle",))
