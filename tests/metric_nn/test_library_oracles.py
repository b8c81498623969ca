"""Library oracles for :mod:`mlgeom.metric_nn` (issue 16): well-kept libraries computing the same
thing as our hand-written code."""

import networkx as nx
import numpy as np
import pytest
from sklearn.neighbors import BallTree, KNeighborsClassifier

from mlgeom.metric_nn.experiments import _vote
from mlgeom.metric_nn.index import MetricBallTree
from mlgeom.metric_nn.vertex_cover import exact_vertex_cover


@pytest.mark.parametrize("seed", range(6))
def test_exact_vertex_cover_matches_koenig_on_bipartite_graphs(seed):
    # König: in a bipartite graph, minimum vertex cover size = maximum matching size
    rng = np.random.default_rng(seed)
    n_left, n_right = rng.integers(3, 9, size=2)
    edges = np.array(
        [(i, n_left + j) for i in range(n_left) for j in range(n_right) if rng.random() < 0.35],
        dtype=np.int64,
    ).reshape(-1, 2)
    n = int(n_left + n_right)
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(map(tuple, edges))
    matching = nx.bipartite.hopcroft_karp_matching(G, top_nodes=range(n_left))
    cover = exact_vertex_cover(edges, n)
    assert int(cover.sum()) == len(matching) // 2
    assert all(cover[a] or cover[b] for a, b in edges)


@pytest.mark.parametrize("leaf_size", [1, 4, 16])
def test_metric_ball_tree_exact_queries_match_sklearn_balltree(leaf_size):
    rng = np.random.default_rng(1)
    X = rng.standard_normal((200, 3))
    Q = rng.standard_normal((50, 3))
    ours = MetricBallTree(X, leaf_size=leaf_size).query(Q, eta=0.0)
    dist, ind = BallTree(X, leaf_size=leaf_size).query(Q, k=1)
    np.testing.assert_allclose(ours.distances, dist[:, 0], rtol=1e-12)
    np.testing.assert_array_equal(ours.indices, ind[:, 0])  # continuous data: no ties


@pytest.mark.parametrize("k", [1, 3, 5])
def test_knn_votes_match_kneighborsclassifier_precomputed(k):
    rng = np.random.default_rng(k)
    Xtr, Xte = rng.standard_normal((60, 2)), rng.standard_normal((40, 2))
    ytr = rng.integers(0, 3, size=60)
    D_tr = np.linalg.norm(Xtr[:, None] - Xtr[None], axis=2)
    D_te = np.linalg.norm(Xte[:, None] - Xtr[None], axis=2)
    clf = KNeighborsClassifier(n_neighbors=k, metric="precomputed").fit(D_tr, ytr)
    # both break vote ties towards the smallest label; continuous distances have no ties
    np.testing.assert_array_equal(_vote(D_te, ytr, k, 3), clf.predict(D_te))
