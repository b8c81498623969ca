"""Remark 3.4: the majority vote over Theorem 11's sub-learners, its adversary, its sweep."""

from __future__ import annotations

import numpy as np
import pytest

from mlgeom.multiscale import (
    MajorityVoteLearner,
    MulticlassLearner,
    nn_loss,
    remark34_centres,
    remark34_query,
    remark34_run,
    remark34_sweep,
)
from mlgeom.random import spawn

W4 = np.array([1.0, 0.0, 0.0, 0.0])
E4 = np.array([0.0, 1.0, 0.0, 0.0])
V4 = np.array([0.0, 0.0, 1.0, 0.0])
Q4 = np.array([0.6, 0.0, 0.8, 0.0])


class _Stub:
    """A two-centre learner with a fixed prediction that records its updates."""

    def __init__(self, label: int):
        self.label = label
        self.calls: list[int] = []

    def predict(self, q) -> int:
        return self.label

    def learn(self, q, true_label, predicted=None) -> bool:
        self.calls.append(true_label)
        return self.label != true_label


def _stubbed(winners: dict, feedback: str = "label", seed=0) -> MajorityVoteLearner:
    """A 3-class vote whose pair ``(i, j)`` predicts ``winners[(i, j)]``."""
    mv = MajorityVoteLearner(3, 4, feedback, seed=seed)
    mv.sub = {pr: _Stub(1 if winners[pr] == pr[0] else 2) for pr in mv.pairs}
    return mv


def test_vote_hand_case():
    mv = _stubbed({(0, 1): 0, (0, 2): 2, (1, 2): 2})
    wins, winner = mv.votes(Q4)
    assert wins.tolist() == [1, 0, 2]
    assert winner == {(0, 1): 0, (0, 2): 2, (1, 2): 2}
    assert mv.predict(Q4) == 2 and mv.n_ties == 0


def test_cycle_is_a_three_way_tie_broken_by_the_seeded_generator():
    cyc = {(0, 1): 1, (0, 2): 0, (1, 2): 2}  # 1 > 0, 0 > 2, 2 > 1
    a, b = _stubbed(cyc, seed=7), _stubbed(cyc, seed=7)
    ga = [a.predict(Q4) for _ in range(300)]
    assert ga == [b.predict(Q4) for _ in range(300)]  # determinism under a seed
    assert a.n_ties == 300
    counts = np.bincount(ga, minlength=3)
    assert counts.min() > 60  # uniform over the three labels (expected 100 each)
    assert [_stubbed(cyc, seed=8).predict(Q4) for _ in range(300)] != ga


def test_label_feedback_updates_only_pairs_with_the_truth():
    mv = _stubbed({(0, 1): 1, (0, 2): 0, (1, 2): 2})
    n = mv.learn(Q4, 0)
    assert mv.sub[(0, 1)].calls == [1] and mv.sub[(0, 2)].calls == [1]
    assert mv.sub[(1, 2)].calls == []  # the information Remark 3.4 says is missing
    assert n == 1 == mv.n_updates  # only pair (0, 1) erred
    mv = _stubbed({(0, 1): 0, (0, 2): 0, (1, 2): 2})
    mv.learn(Q4, 2)
    assert mv.sub[(0, 2)].calls == [2] and mv.sub[(1, 2)].calls == [2]
    assert mv.sub[(0, 1)].calls == []


def test_ranking_feedback_updates_every_pair_with_its_true_order():
    mv = _stubbed({(0, 1): 1, (0, 2): 0, (1, 2): 2}, feedback="ranking")
    ranking = (2, 0, 1)  # loop reference: i beats j iff it comes first
    n = mv.learn(Q4, 2, ranking=ranking)
    for (i, j), s in mv.sub.items():
        assert s.calls == [1 if ranking.index(i) < ranking.index(j) else 2]
    assert n == sum(s.label != s.calls[0] for s in mv.sub.values()) == 2


def test_real_sub_learners_are_mistake_driven_and_shared_with_theorem11():
    mv = MajorityVoteLearner(3, 4, "ranking", seed=3)
    mc = MulticlassLearner(3, 4, seed=3)
    for pr in mv.pairs:  # same spawned samplers as Theorem 11's learner
        np.testing.assert_array_equal(mv.sub[pr].cs.K.particles, mc.sub[pr].cs.K.particles)
    X = remark34_centres(W4, E4)
    q = remark34_query(W4, E4, V4, 0.01, 1.0)
    erred = {(i, j): mv.sub[(i, j)].predict(q) != 1 for i, j in mv.pairs}  # truth 0 > 1 > 2
    assert mv.learn(q, 0, ranking=(0, 1, 2)) == sum(erred.values())
    for pr, s in mv.sub.items():
        assert s.n_updates == int(erred[pr])
    assert 0 <= nn_loss(q, X, mv.predict(q))


def test_geometry_ranks_the_centres_and_prices_the_far_one():
    X = remark34_centres(W4, E4)
    assert np.all(np.linalg.norm(X, axis=1) <= 1)
    for m in (1e-9, 0.01, 0.3, -1e-9, -0.01, -0.3):
        r = 0 if m > 0 else 1  # the sign of the margin is the true label
        for s in (1.0, -1.0):
            q = remark34_query(W4, E4, V4, m, s)
            assert np.isclose(np.linalg.norm(q), 1.0)
            assert np.argsort(-(X @ q)).tolist() == [r, 1 - r, 2]
            assert np.isclose(nn_loss(q, X, 1 - r), 0.8 * abs(m))
            assert np.isclose(nn_loss(q, X, 2), 0.6 + 0.4 * abs(m))


def test_run_is_deterministic_and_the_label_vote_meets_cycles():
    rs = []
    for _ in range(2):
        mv = MajorityVoteLearner(3, 4, "label", seed=1)
        rs.append(remark34_run(mv, W4, E4, 40, seed=2))
    np.testing.assert_array_equal(rs[0]["loss"], rs[1]["loss"])
    np.testing.assert_array_equal(rs[0]["guess"], rs[1]["guess"])
    r = rs[0]
    assert np.all(np.diff(r["loss"]) >= 0)
    assert not np.any(r["cycle"] & ~r["fooled"])  # a cycle round fools pair (0, 1)
    assert set(np.unique(r["truth"])) <= {0, 1}
    np.testing.assert_array_equal(np.diff(r["loss"], prepend=0.0) > 0, r["guess"] != r["truth"])


def test_ranking_vote_run_fools_pair_01_and_pays_nn_losses():
    mv = MajorityVoteLearner(3, 4, "ranking", seed=4)
    r = remark34_run(mv, W4, E4, 30, seed=5)
    assert r["fooled"].sum() >= 1
    X = remark34_centres(W4, E4)
    assert r["loss"][-1] <= 30 * float(nn_loss(X[0], X, 2))  # every loss is an NN loss


def test_sweep_pairs_learners_and_reports_uniform(monkeypatch):
    monkeypatch.setenv("MLGEOM_BACKEND", "sequential")
    runs = remark34_sweep(6, 4, spawn(0, 2))
    assert len(runs) == 2
    for r in runs:
        for n in ("theorem11", "majority_label", "majority_ranking", "uniform"):
            assert r[n].shape == (6,)
        assert r["uniform"][0] == pytest.approx(0.2 + 0.4 * 0.3)
    again = remark34_sweep(6, 4, spawn(0, 2), learners=("majority_label",))
    np.testing.assert_array_equal(again[1]["majority_label"], runs[1]["majority_label"])


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: MajorityVoteLearner(3, 4, "votes"), "feedback"),
        (lambda: MajorityVoteLearner(1, 4), "k"),
        (lambda: MajorityVoteLearner(3, 4, "ranking").learn(Q4, 0), "ranking is required"),
        (lambda: MajorityVoteLearner(3, 4, "ranking").learn(Q4, 0, (0, 1, 1)), "permutation"),
        (lambda: MajorityVoteLearner(3, 4, "ranking").learn(Q4, 1, (0, 1, 2)), "start with"),
        (lambda: MajorityVoteLearner(3, 4).learn(Q4, 3), "true_label"),
        (lambda: MajorityVoteLearner(3, 4).predict([1.0, 0.0]), "q"),
        (lambda: remark34_centres(W4, W4), "orthonormal"),
        (lambda: remark34_centres([1.0, 0.0], [0.0, 1.0]), "dimension >= 3"),
        (lambda: remark34_query(W4, E4, W4, 0.1, 1.0), "orthogonal"),
        (lambda: remark34_query(W4, E4, V4, 0.1, 0.5), "sigma"),
        (lambda: remark34_query(W4, E4, V4, 1.0, 1.0), "m"),
        (lambda: remark34_query(W4, E4, V4, 0.0, 1.0), "non-zero"),
        (lambda: remark34_run(MajorityVoteLearner(2, 4), W4, E4, 3), "k = 3"),
        (lambda: remark34_run(MajorityVoteLearner(3, 3), W4[:3], E4[:3], 3), ">= 4"),
        (lambda: remark34_sweep(3, 3, spawn(0, 1)), "d"),
        (lambda: remark34_sweep(3, 4, spawn(0, 1), learners=("vote",)), "learners"),
        (lambda: remark34_sweep(3, 4, []), "seeds"),
    ],
)
def test_bad_inputs(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_run_refuses_a_two_centre_learner():
    from mlgeom.multiscale import HyperplaneLearner

    with pytest.raises(TypeError, match="learner"):
        remark34_run(HyperplaneLearner(4), W4, E4, 3)
