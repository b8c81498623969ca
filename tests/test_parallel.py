"""mlgeom.parallel.pmap: the plain loop's results, in order, on every backend.

The Dask tests share one LocalCluster of two workers (started on first use, closed at the end
of this module); they are marked ``slow`` (the cluster's start-up alone takes seconds).
"""

import json
import os
import sys
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlgeom import parallel
from mlgeom.algorithms import random_features
from mlgeom.metric_nn import experiments as mx
from mlgeom.metric_nn.tasks import SoftmaxProblem
from mlgeom.parallel import pmap
from mlgeom.primer import experiments as primer
from mlgeom.random import as_generator, spawn

BACKENDS = ["sequential", "joblib", "dask"]
slow = pytest.mark.slow


# -- module-level task functions (picklable by reference) ---------------------------------------


def draw(g):
    """Three normals from the item's own generator, and its spawn key."""
    return tuple(g.standard_normal(3)), g.bit_generator.seed_seq.spawn_key


def slow_first(i):
    """Later items finish first, so completion order is the reverse of item order."""
    time.sleep(0.05 * (5 - i) if i < 5 else 0)
    return i * i


def fail_on_three(i):
    if i == 3:
        raise ValueError(f"boom at {i}")
    return i


def blas_sums(g):
    """Sums OpenBLAS splits between threads: they differ in the last bits with 1 and 2 threads."""
    a, b = g.standard_normal(200_000), g.standard_normal(200_000)
    N = g.standard_normal((20, 5000))
    return float(a @ b), (N @ N.T).tobytes()


def env_of_worker(_):
    return os.getpid()


def nested(i):
    """A sweep inside a task: it runs in the worker (same pid), not in a new pool or cluster."""
    inner = pmap(env_of_worker, range(3), n_jobs=2)
    return i, set(inner) == {os.getpid()}, pmap(abs, [-i, i], n_jobs=2)


# -- fixtures -------------------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def _close_dask_at_the_end():
    yield
    parallel.close_dask()


@pytest.fixture(params=["sequential", "joblib", pytest.param("dask", marks=slow)])
def backend(request, monkeypatch):
    monkeypatch.setenv("MLGEOM_BACKEND", request.param)
    monkeypatch.delenv("MLGEOM_SCHEDULER", raising=False)
    monkeypatch.delenv("MLGEOM_N_JOBS", raising=False)
    return request.param


# -- results and order ----------------------------------------------------------------------------


def test_results_equal_the_list_comprehension(backend):
    items = spawn(123, 7)
    expected = [draw(g) for g in spawn(123, 7)]
    assert pmap(draw, items, n_jobs=2) == expected


def test_item_order_not_completion_order(backend):
    assert pmap(slow_first, range(8), n_jobs=2) == [i * i for i in range(8)]


def test_empty_and_single_item_sweeps(backend):
    assert pmap(draw, [], n_jobs=2) == []
    assert pmap(slow_first, [7], n_jobs=2) == [49]


def test_closures_and_generators_as_input(backend):
    offset = 10.0
    assert pmap(lambda x: x + offset, (x for x in [1.0, 2.0, 3.0]), n_jobs=2) == [11.0, 12.0, 13.0]


def test_n_jobs_one_runs_in_the_calling_process(backend):
    assert set(pmap(env_of_worker, range(4), n_jobs=1)) == {os.getpid()}


@pytest.mark.parametrize("name", ["joblib", pytest.param("dask", marks=slow)])
def test_parallel_backends_run_elsewhere(monkeypatch, name):
    monkeypatch.setenv("MLGEOM_BACKEND", name)
    assert os.getpid() not in pmap(env_of_worker, range(4), n_jobs=2)


def test_nested_sweeps_run_inside_the_worker(backend):
    assert pmap(nested, range(3), n_jobs=2) == [(i, True, [i, i]) for i in range(3)]


def test_workers_use_the_callers_blas_threads(backend):
    """A worker limited to one BLAS thread would give other last bits than the caller."""
    expected = [blas_sums(g) for g in spawn(5, 3)]
    assert pmap(blas_sums, spawn(5, 3), n_jobs=2) == expected


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(-1000, 1000), max_size=12), st.integers(1, 3))
def test_property_same_as_map(xs, n_jobs):
    assert pmap(abs, xs, n_jobs=n_jobs) == [abs(x) for x in xs]


# -- a real sweep: two Dask workers, joblib and the plain loop agree bit for bit -------------


def _rff_loop(X, rhos, reps, seed):
    """The loop primer.rff_error_sweep replaced (children spawned per ρ from one parent)."""
    parent = as_generator(seed)
    return np.array(
        [
            [
                random_features.rff_sup_error(
                    X, random_features.random_fourier_features(X.shape[1], rho, seed=g)
                )
                for g in spawn(parent, reps)
            ]
            for rho in rhos
        ]
    )


def _k_sweep_loop(ks, n, beta, D, reps, seed, grid):
    """k_sweep_srm's SRM and 1-NN risks computed by the plain nested loop."""
    from mlgeom.metric_nn.spaces import pairwise_distances
    from mlgeom.metric_nn.srm import SRMNearestNeighbors

    out = []
    for k, rng in zip(ks, spawn(seed, len(ks)), strict=True):
        r_prob, *r_reps = spawn(rng, reps + 1)
        prob = SoftmaxProblem.random(k, D, beta, r_prob)
        G = prob.grid(grid)
        eta_G = prob.eta(G)
        srm_r, nn_r = [], []
        for r in r_reps:
            r_sample, _ = spawn(r, 2)  # the second stream draws the random-subset strawman
            X, y = prob.sample(n, r_sample)
            clf = SRMNearestNeighbors("chebyshev", delta=0.05, ddim=float(D), classes=np.arange(k))
            present = np.unique(y)
            if len(present) < k:
                clf.set_params(classes=present)
            clf.fit(X, y)
            srm_r.append(float(np.mean(1.0 - eta_G[np.arange(len(G)), clf.predict(G)])))
            nn = y[np.argmin(pairwise_distances(G, X, "chebyshev"), axis=1)]
            nn_r.append(float(np.mean(1.0 - eta_G[np.arange(len(G)), nn])))
        out.append((float(np.mean(srm_r)), float(np.mean(nn_r))))
    return out


@slow
def test_chapter_sweeps_identical_on_dask_joblib_and_sequential(monkeypatch):
    X = np.random.default_rng(0).normal(scale=0.7, size=(60, 2))
    reference = _rff_loop(X, [8, 32, 128], 3, seed=11)
    k_reference = _k_sweep_loop([2, 3, 4], 120, 20.0, 2, 2, seed=12, grid=25)
    rff, ksw = {}, {}
    for name in BACKENDS:
        monkeypatch.setenv("MLGEOM_BACKEND", name)
        rff[name] = primer.rff_error_sweep(X, [8, 32, 128], 3, seed=11)
        table = mx.k_sweep_srm([2, 3, 4], n=120, beta=20.0, D=2, reps=2, seed=12, grid=25)
        ksw[name] = list(zip(table["SRM-NN risk"], table["1-NN risk"], strict=True))
    client = parallel._DASK_CLIENTS["local"]
    assert len(client.scheduler_info()["workers"]) == 2
    for name in BACKENDS:
        assert rff[name].tobytes() == reference.tobytes(), name
        assert ksw[name] == k_reference, name


@slow
def test_local_cluster_is_local_reused_and_dashboard_free(monkeypatch):
    monkeypatch.setenv("MLGEOM_BACKEND", "dask")
    monkeypatch.delenv("MLGEOM_SCHEDULER", raising=False)
    pmap(draw, spawn(1, 3))
    client = parallel._DASK_CLIENTS["local"]
    pmap(draw, spawn(2, 3))
    assert parallel._DASK_CLIENTS["local"] is client
    info = client.scheduler_info()
    assert info["address"].startswith("tcp://127.0.0.1:")
    assert all(addr.startswith("tcp://127.0.0.1:") for addr in info["workers"])
    scheduler = client._mlgeom_cluster.scheduler  # runs in this process
    assert scheduler.http_server.address == "127.0.0.1"  # health/metrics only, on loopback
    assert "distributed.dashboard.scheduler" not in sys.modules


@slow
def test_scheduler_address_connects_to_a_running_scheduler(monkeypatch):
    monkeypatch.setenv("MLGEOM_BACKEND", "dask")
    monkeypatch.delenv("MLGEOM_SCHEDULER", raising=False)
    pmap(draw, spawn(3, 2))  # make sure the local cluster runs
    address = parallel._DASK_CLIENTS["local"].scheduler.address
    monkeypatch.setenv("MLGEOM_SCHEDULER", address)
    assert pmap(draw, spawn(4, 5)) == [draw(g) for g in spawn(4, 5)]
    assert parallel._DASK_CLIENTS[address].scheduler.address == address


# -- errors -----------------------------------------------------------------------------------


def test_worker_exception_names_the_item(backend):
    with pytest.raises(ValueError, match="boom at 3") as info:
        pmap(fail_on_three, range(5), n_jobs=2)
    notes = " ".join(getattr(info.value, "__notes__", []))
    assert "fail_on_three failed on item 3 of 5: 3" in notes


def test_failing_generator_item_is_named_by_its_spawn_key():
    def fail(g):
        raise RuntimeError("no")

    with pytest.raises(RuntimeError) as info:
        pmap(fail, spawn(0, 3)[2:], n_jobs=1)
    assert "Generator(PCG64, spawn_key=(2,))" in info.value.__notes__[0]


def test_long_items_are_shortened_in_the_note():
    def fail(x):
        raise KeyError("x")

    with pytest.raises(KeyError) as info:
        pmap(fail, [("a" * 500, np.zeros((40, 3)))], n_jobs=1)
    note = info.value.__notes__[0]
    assert "array(shape=(40, 3), dtype=float64)" in note and len(note) < 200


@pytest.mark.parametrize("value", ["spark", "Joblib2", "dask,joblib"])
def test_unknown_backend_is_refused(monkeypatch, value):
    monkeypatch.setenv("MLGEOM_BACKEND", value)
    expected = f"MLGEOM_BACKEND must be one of joblib, dask, sequential; got '{value}'"
    with pytest.raises(ValueError, match=expected):
        pmap(abs, [1, 2])


def test_backend_names_are_case_insensitive(monkeypatch):
    monkeypatch.setenv("MLGEOM_BACKEND", " Sequential ")
    assert parallel.backend() == "sequential"


@pytest.mark.parametrize("n_jobs", [0, -1, 1.5, True, "2"])
def test_bad_n_jobs_is_refused(n_jobs):
    with pytest.raises(ValueError, match=r"n_jobs must be an integer >= 1; got"):
        pmap(abs, [1, 2], n_jobs=n_jobs)


@pytest.mark.parametrize("value", ["0", "-2", "two", "1.5"])
def test_bad_mlgeom_n_jobs_is_refused(monkeypatch, value):
    monkeypatch.setenv("MLGEOM_N_JOBS", value)
    with pytest.raises(ValueError, match=rf"MLGEOM_N_JOBS must be an integer >= 1; got '{value}'"):
        pmap(abs, [1, 2])


def test_mlgeom_n_jobs_is_read(monkeypatch):
    monkeypatch.setenv("MLGEOM_N_JOBS", "3")
    assert parallel.n_jobs_default() == 3
    monkeypatch.delenv("MLGEOM_N_JOBS")
    assert parallel.n_jobs_default() == 2


@pytest.mark.parametrize(
    "address, why",
    [
        ("nonsense", "missing port"),
        ("tcp://127.0.0.1", "missing port"),
        ("http://127.0.0.1:8786", "unknown protocol 'http'"),
        ("tcp://:8786", "host or port"),
    ],
)
def test_malformed_scheduler_address_is_refused(monkeypatch, address, why):
    monkeypatch.setenv("MLGEOM_BACKEND", "dask")
    monkeypatch.setenv("MLGEOM_SCHEDULER", address)
    with pytest.raises(ValueError, match="MLGEOM_SCHEDULER must be a Dask scheduler address"):
        pmap(abs, [1, 2])
    with pytest.raises(ValueError, match=why):
        pmap(abs, [1, 2])


@slow
def test_unreachable_scheduler_names_the_address(monkeypatch):
    import dask

    monkeypatch.setenv("MLGEOM_BACKEND", "dask")
    monkeypatch.setenv("MLGEOM_SCHEDULER", "tcp://127.0.0.1:9")
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        with pytest.raises(ConnectionError, match=r"MLGEOM_SCHEDULER='tcp://127.0.0.1:9'"):
            pmap(abs, [1, 2])


def test_scheduler_is_ignored_by_joblib(monkeypatch):
    monkeypatch.setenv("MLGEOM_BACKEND", "joblib")
    monkeypatch.setenv("MLGEOM_SCHEDULER", "nonsense")
    assert pmap(abs, [-1, -2], n_jobs=2) == [1, 2]


# -- progress ---------------------------------------------------------------------------------


def test_tests_run_with_progress_off():
    assert os.environ["MLGEOM_PROGRESS"] == "0"  # set by tests/conftest.py


@pytest.mark.parametrize("name", ["sequential", "joblib"])
def test_progress_is_silenced_by_mlgeom_progress_0(monkeypatch, capsys, name):
    monkeypatch.setenv("MLGEOM_BACKEND", name)
    monkeypatch.setattr(parallel, "PROGRESS_DELAY_S", 0.0)
    monkeypatch.setenv("MLGEOM_PROGRESS", "0")
    pmap(abs, range(6), n_jobs=2, desc="quiet sweep")
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("name", ["sequential", "joblib"])
def test_progress_is_shown_otherwise(monkeypatch, capsys, name):
    monkeypatch.setenv("MLGEOM_BACKEND", name)
    monkeypatch.setattr(parallel, "PROGRESS_DELAY_S", 0.0)
    monkeypatch.setenv("MLGEOM_PROGRESS", "1")
    pmap(abs, range(6), n_jobs=2, desc="loud sweep")
    err = capsys.readouterr().err
    assert "loud sweep" in err and "6/6" in err
    monkeypatch.delenv("MLGEOM_PROGRESS")  # unset means on
    pmap(abs, range(3), n_jobs=2, desc="default")
    assert "3/3" in capsys.readouterr().err


def test_short_sweeps_stay_quiet_before_the_delay(monkeypatch, capsys):
    monkeypatch.setenv("MLGEOM_BACKEND", "sequential")
    monkeypatch.setenv("MLGEOM_PROGRESS", "1")
    monkeypatch.setattr(parallel, "PROGRESS_DELAY_S", 60.0)
    pmap(abs, range(6), desc="fast")
    assert capsys.readouterr().err == ""


def test_bad_progress_value_is_refused(monkeypatch):
    monkeypatch.setenv("MLGEOM_PROGRESS", "sometimes")
    with pytest.raises(ValueError, match=r"MLGEOM_PROGRESS must be 0 or 1; got 'sometimes'"):
        pmap(abs, [1, 2])


def test_reproduce_runs_kernels_with_progress_off(monkeypatch, tmp_path, capsys):
    """mlgeom.book.reproduce forces MLGEOM_PROGRESS=0 for papermill's kernel, whatever the shell."""
    import nbformat
    import papermill

    from mlgeom.book import reproduce

    seen = {}

    def fake_execute(input_path, output_path, **kwargs):
        seen["progress"] = os.environ.get("MLGEOM_PROGRESS")
        nbformat.write(nbformat.v4.new_notebook(), output_path)

    monkeypatch.setattr(papermill, "execute_notebook", fake_execute)
    monkeypatch.setenv("MLGEOM_PROGRESS", "1")
    monkeypatch.setenv("MLGEOM_ROOT", str(tmp_path))
    src = tmp_path / "notebooks" / "x.ipynb"
    src.parent.mkdir()
    nbformat.write(nbformat.v4.new_notebook(), src)
    reproduce._run_one(src, "book", tmp_path / "out.ipynb")
    assert seen["progress"] == "0"
    assert "peak_rss_kb" in json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_module_docstring_documents_every_variable():
    doc = parallel.__doc__
    for var in ("MLGEOM_BACKEND", "MLGEOM_N_JOBS", "MLGEOM_SCHEDULER", "MLGEOM_PROGRESS"):
        assert f"``{var}``" in doc, var
    assert sys.modules["mlgeom.parallel"] is parallel
