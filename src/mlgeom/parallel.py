"""One way to run a sweep (splits, seeds, grids) in parallel: :func:`pmap`.

``pmap(fn, items)`` returns ``[fn(item) for item in items]``, in the order of ``items``. Where
it runs is chosen by the environment, never by the notebook, so that the same notebook runs on
a laptop, on two local processes or on a Dask cluster with no code change:

``MLGEOM_BACKEND``
    ``joblib`` (default): loky worker processes on this machine, ``MLGEOM_N_JOBS`` of them.
    ``dask``: a :class:`distributed.Client`; with ``MLGEOM_SCHEDULER`` set it connects to that
    scheduler, otherwise it starts a :class:`distributed.LocalCluster` of ``MLGEOM_N_JOBS``
    single-threaded worker processes bound to 127.0.0.1 with no dashboard (its scheduler's
    health and metrics endpoints listen on a free loopback port), reused by every later
    sweep of the process and closed when it exits (a script must then guard its entry point
    with ``if __name__ == "__main__":``, as for any spawned process).
    ``sequential``: a plain loop in the calling process (debugging, profiling).
``MLGEOM_N_JOBS``
    Number of joblib workers, and of the local Dask cluster's workers (default 2). The
    ``n_jobs`` argument of :func:`pmap` overrides it; ``n_jobs=1`` always runs in the calling
    process, whatever the backend, and so does a sweep started inside another sweep's task.
``MLGEOM_SCHEDULER``
    Address of a running Dask scheduler, e.g. ``tcp://10.0.0.5:8786`` (only read when
    ``MLGEOM_BACKEND=dask``). The workers must have this package installed at the same version.
``MLGEOM_PROGRESS``
    ``1`` (default): a sweep still running after :data:`PROGRESS_DELAY_S` seconds shows a tqdm
    bar on stderr, labelled with ``desc``. ``0``: never. ``make nbval``, ``make reproduce`` and
    the test suite set ``0``, so no progress bar lands in a stored notebook output.

Results never depend on the backend or on the number of workers: each item carries its own
seed or :class:`numpy.random.Generator` (spawned in the caller, in a fixed order, with
:func:`mlgeom.random.spawn`), the results are returned in item order, and every task runs
with the caller's BLAS and OpenMP thread counts (OpenBLAS's sums depend on how many threads
share them, so a worker limited to one thread would differ in the last bits from the plain
loop). A remote cluster gives the same numbers when its workers run the same library versions;
start them with ``OPENBLAS_NUM_THREADS`` and ``OMP_NUM_THREADS`` set to the client's counts
so that libraries they load late start with them too. An exception raised
by ``fn`` reaches the caller with its own type and message and a note naming the failing item
(its index and a short repr), whichever process it was raised in.

Examples
--------
>>> from mlgeom.parallel import pmap
>>> pmap(abs, [-2, 1, -3], n_jobs=1)
[2, 1, 3]
"""

from __future__ import annotations

import atexit
import logging
import os
import reprlib
import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import numpy as np

__all__ = [
    "BACKENDS",
    "PROGRESS_DELAY_S",
    "backend",
    "close_dask",
    "n_jobs_default",
    "pmap",
    "progress_enabled",
]

T = TypeVar("T")

BACKENDS = ("joblib", "dask", "sequential")
"""Values accepted by ``MLGEOM_BACKEND``."""

PROGRESS_DELAY_S = 1.0
"""A sweep shows its progress bar only once it has run this long (short sweeps stay quiet)."""

_DEFAULT_N_JOBS = 2
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")
_HOST_SCHEMES = ("tcp", "tls", "ws", "wss")


# -- the environment ----------------------------------------------------------------------------


def backend() -> str:
    """Return the backend named by ``MLGEOM_BACKEND`` (default ``"joblib"``).

    Raises
    ------
    ValueError
        If the variable holds anything but one of :data:`BACKENDS`.
    """
    raw = os.environ.get("MLGEOM_BACKEND", "")
    name = raw.strip().lower() or "joblib"
    if name not in BACKENDS:
        raise ValueError(f"MLGEOM_BACKEND must be one of {', '.join(BACKENDS)}; got {raw!r}")
    return name


def _check_n_jobs(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1; got {value!r}")
    return int(value)


def n_jobs_default() -> int:
    """Return ``MLGEOM_N_JOBS`` as an integer >= 1 (default 2).

    Raises
    ------
    ValueError
        If the variable is not a positive integer.
    """
    raw = os.environ.get("MLGEOM_N_JOBS", "").strip()
    if not raw:
        return _DEFAULT_N_JOBS
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or value < 1:
        raise ValueError(f"MLGEOM_N_JOBS must be an integer >= 1; got {raw!r}")
    return value


def progress_enabled() -> bool:
    """Return whether sweeps may show a progress bar (``MLGEOM_PROGRESS``, default on).

    Raises
    ------
    ValueError
        If the variable is neither ``0``/``1`` nor ``false``/``true``, ``no``/``yes``,
        ``off``/``on``.
    """
    raw = os.environ.get("MLGEOM_PROGRESS", "")
    value = raw.strip().lower()
    if value in _FALSE:
        return False
    if value in _TRUE or not value:
        return True
    raise ValueError(f"MLGEOM_PROGRESS must be 0 or 1; got {raw!r}")


def _scheduler_address() -> str | None:
    """Return ``MLGEOM_SCHEDULER`` checked for the form ``scheme://host:port`` (or None)."""
    raw = os.environ.get("MLGEOM_SCHEDULER", "")
    address = raw.strip()
    if not address:
        return None
    from distributed.comm.addressing import parse_address, parse_host_port

    hint = "a Dask scheduler address such as tcp://127.0.0.1:8786"
    try:
        scheme, location = parse_address(address, strict=False)
    except ValueError as exc:
        raise ValueError(f"MLGEOM_SCHEDULER must be {hint}; got {raw!r} ({exc})") from None
    from distributed.comm.registry import backends as comm_backends

    if scheme not in comm_backends:
        raise ValueError(
            f"MLGEOM_SCHEDULER must be {hint}; got {raw!r} (unknown protocol {scheme!r}; "
            f"known: {', '.join(sorted(comm_backends))})"
        )
    if scheme in _HOST_SCHEMES:
        try:
            host, port = parse_host_port(location)
        except ValueError as exc:
            raise ValueError(f"MLGEOM_SCHEDULER must be {hint}; got {raw!r} ({exc})") from None
        if not host or not 0 < int(port) < 65536:
            raise ValueError(f"MLGEOM_SCHEDULER must be {hint}; got {raw!r} (host or port)")
    return address


# -- naming the failing item ----------------------------------------------------------------------


class _ItemRepr(reprlib.Repr):
    """Short reprs: arrays by shape, generators by their seed sequence's spawn key."""

    def __init__(self) -> None:
        super().__init__()
        self.maxstring = 60
        self.maxother = 60
        self.maxlevel = 3

    def repr_ndarray(self, x: np.ndarray, level: int) -> str:  # noqa: D102
        return f"array(shape={x.shape}, dtype={x.dtype})"

    def repr_memmap(self, x: np.ndarray, level: int) -> str:  # noqa: D102
        return self.repr_ndarray(x, level)

    def repr_Generator(self, x: np.random.Generator, level: int) -> str:  # noqa: D102, N802
        seq = getattr(x.bit_generator, "seed_seq", None)
        key = getattr(seq, "spawn_key", None)
        name = type(x.bit_generator).__name__
        return f"Generator({name}, spawn_key={key})" if key is not None else f"Generator({name})"


_ITEM_REPR = _ItemRepr()


def _describe(item: Any) -> str:
    try:
        return _ITEM_REPR.repr(item)
    except Exception:  # a broken __repr__ must not hide the real error
        return f"<{type(item).__name__}>"


def _fn_name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__qualname__", None) or type(fn).__name__


# -- threads ---------------------------------------------------------------------------------


def _caller_threads() -> dict[str, int]:
    """Thread counts of the BLAS and OpenMP libraries loaded in this process."""
    from threadpoolctl import threadpool_info

    counts: dict[str, int] = {}
    for lib in threadpool_info():
        api = lib.get("user_api")
        if api in ("blas", "openmp"):
            counts[api] = max(counts.get(api, 1), int(lib["num_threads"]))
    counts.setdefault("blas", 1)
    counts.setdefault("openmp", counts["blas"])  # both default to the number of cores
    return counts


_APPLIED_THREADS: tuple | None = None
_TASK = threading.local()  # .running is True while a worker executes a task


def _match_threads(threads: dict[str, int]) -> None:
    """Set this worker's BLAS/OpenMP thread counts to the caller's (again after new imports)."""
    global _APPLIED_THREADS
    key = (tuple(sorted(threads.items())), len(sys.modules))
    if key != _APPLIED_THREADS:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=dict(threads))
        _APPLIED_THREADS = (key[0], len(sys.modules))


def _thread_env(threads: dict[str, int]) -> dict[str, str]:
    """Environment for spawned workers: libraries they load start with the caller's counts."""
    blas, omp = str(threads["blas"]), str(threads["openmp"])
    return {
        "OPENBLAS_NUM_THREADS": blas,
        "MKL_NUM_THREADS": blas,
        "BLIS_NUM_THREADS": blas,
        "OMP_NUM_THREADS": omp,
    }


class _Call:
    """``fn`` applied to item ``index``; an exception gets a note naming the item.

    A module-level class (not a closure) so that joblib and Dask pickle it by reference; ``fn``
    itself is pickled by value when it is a closure (both use cloudpickle). Outside the calling
    process, the task first takes the caller's thread counts.
    """

    def __init__(self, fn: Callable[[Any], Any], total: int, threads: dict[str, int]) -> None:
        self.fn = fn
        self.total = total
        self.threads = threads
        self.caller_pid = os.getpid()

    def __call__(self, index: int, item: Any) -> tuple[int, Any]:
        remote = os.getpid() != self.caller_pid
        if remote:
            _match_threads(self.threads)
        outer, _TASK.running = getattr(_TASK, "running", False), remote or _inside_task()
        try:
            return index, self.fn(item)
        except Exception as exc:
            exc.add_note(
                f"pmap: {_fn_name(self.fn)} failed on item {index} of {self.total}: "
                f"{_describe(item)}"
            )
            raise
        finally:
            _TASK.running = outer


def _inside_task() -> bool:
    """Whether this thread is running a task of a worker (a nested sweep then runs in place)."""
    return getattr(_TASK, "running", False)


# -- progress -----------------------------------------------------------------------------------


class _Progress:
    """A tqdm bar on stderr (or nothing), shown once the sweep has run ``PROGRESS_DELAY_S``."""

    def __init__(self, total: int, desc: str | None) -> None:
        self.bar = None
        if total > 1 and progress_enabled():
            from tqdm.std import tqdm

            self.bar = tqdm(
                total=total,
                desc=desc or "sweep",
                file=sys.stderr,
                delay=PROGRESS_DELAY_S,
                leave=True,
                dynamic_ncols=False,
                ncols=80,
            )

    def update(self) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


# -- backends ----------------------------------------------------------------------------------


def _run_sequential(call: _Call, items: list[Any], bar: _Progress) -> list[Any]:
    out = []
    for i, item in enumerate(items):
        out.append(call(i, item)[1])
        bar.update()
    return out


def _run_joblib(call: _Call, items: list[Any], n_jobs: int, bar: _Progress) -> list[Any]:
    from joblib import Parallel, delayed, parallel_config

    out: list[Any] = [None] * len(items)
    # loky starts its workers with *_NUM_THREADS = inner_max_num_threads (joblib's default, one
    # thread each, would change OpenBLAS's sums); the workers are kept for the next sweep.
    with parallel_config(backend="loky", inner_max_num_threads=call.threads["blas"]):
        parallel = Parallel(n_jobs=n_jobs, return_as="generator_unordered")
        for i, result in parallel(delayed(call)(i, item) for i, item in enumerate(items)):
            out[i] = result
            bar.update()
    return out


_DASK_LOCK = threading.Lock()
_DASK_CLIENTS: dict[str, Any] = {}


def _local_cluster_client(n_workers: int, threads: dict[str, int]) -> Any:
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=n_workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        # No dashboard; the scheduler's plain HTTP endpoints (health, metrics) listen on a free
        # loopback port instead of 8787, so that two kernels never race for that port.
        scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
        silence_logs=logging.ERROR,
        env=_thread_env(threads),  # overrides the nanny's default of one BLAS thread
    )
    client = Client(cluster, set_as_default=False)
    client._mlgeom_cluster = cluster  # closed with the client at exit
    return client


def _dask_client(threads: dict[str, int]) -> Any:
    """Return the process's Dask client for ``MLGEOM_SCHEDULER`` (or its local cluster)."""
    address = _scheduler_address()
    key = address or "local"
    with _DASK_LOCK:
        client = _DASK_CLIENTS.get(key)
        if client is not None and client.status == "running":
            return client
        if address is None:
            client = _local_cluster_client(n_jobs_default(), threads)
        else:
            from distributed import Client

            try:
                client = Client(address, set_as_default=False)
            except (OSError, TimeoutError) as exc:
                raise ConnectionError(
                    f"MLGEOM_SCHEDULER={address!r}: cannot reach a Dask scheduler ({exc}); "
                    "start one (`dask scheduler`, then `dask worker ADDRESS`) or unset "
                    "MLGEOM_SCHEDULER to run on a local cluster"
                ) from exc
        if not _DASK_CLIENTS:
            atexit.register(close_dask)
        _DASK_CLIENTS[key] = client
        return client


def close_dask() -> None:
    """Close the Dask clients (and the local cluster) opened by :func:`pmap`; run at exit."""
    with _DASK_LOCK:
        clients = list(_DASK_CLIENTS.values())
        _DASK_CLIENTS.clear()
    for client in clients:
        cluster = getattr(client, "_mlgeom_cluster", None)
        try:
            client.close()
            if cluster is not None:
                cluster.close()
        except Exception:  # best effort while the interpreter exits
            pass


def _run_dask(call: _Call, items: list[Any], bar: _Progress) -> list[Any]:
    from distributed import as_completed

    client = _dask_client(call.threads)
    prefix = "pmap-" + "".join(c if c.isalnum() else "_" for c in _fn_name(call.fn))
    futures = client.map(call, range(len(items)), items, pure=False, key=prefix)
    out: list[Any] = [None] * len(items)
    try:
        for future in as_completed(futures, loop=client.loop):
            i, result = future.result()  # re-raises fn's exception, note included
            out[i] = result
            bar.update()
    finally:
        for future in futures:
            future.release()
    return out


# -- the entry point -----------------------------------------------------------------------------


def pmap(
    fn: Callable[[Any], T],
    items: Iterable[Any],
    *,
    n_jobs: int | None = None,
    desc: str | None = None,
) -> list[T]:
    """Return ``[fn(item) for item in items]``, computed on the configured backend.

    Parameters
    ----------
    fn : callable
        A function of one argument: module-level, or a closure (pickled by value with
        cloudpickle). It must not rely on state it mutates (each worker has its own copy).
    items : iterable
        Its arguments; each must carry its own randomness (a seed or a generator), so that the
        result does not depend on where or in which order the items run.
    n_jobs : int, optional
        Workers (default ``$MLGEOM_N_JOBS`` or 2). ``1`` runs in the calling process whatever
        the backend; with ``dask`` a larger value only means "on the cluster" (the cluster's
        workers set the parallelism).
    desc : str, optional
        Label of the progress bar (see ``MLGEOM_PROGRESS`` in the module docstring).

    Returns
    -------
    list
        Results in the order of ``items``.

    Raises
    ------
    ValueError
        For a bad ``n_jobs`` or a bad ``MLGEOM_BACKEND``, ``MLGEOM_N_JOBS``,
        ``MLGEOM_PROGRESS`` or ``MLGEOM_SCHEDULER`` value.
    ConnectionError
        If ``MLGEOM_SCHEDULER`` names a scheduler that cannot be reached.
    Exception
        Whatever ``fn`` raised, with a note naming the failing item.
    """
    name = backend()
    n_jobs = n_jobs_default() if n_jobs is None else _check_n_jobs(n_jobs, "n_jobs")
    progress_enabled()  # a bad MLGEOM_PROGRESS fails before any work is done
    items = list(items)
    if name == "dask":
        _scheduler_address()  # a malformed address fails before any work is done
    # A sweep inside a worker's task runs in that worker: no nested pools or clusters.
    local = name == "sequential" or n_jobs == 1 or len(items) <= 1 or _inside_task()
    call = _Call(fn, len(items), {} if local else _caller_threads())
    bar = _Progress(len(items) if len(items) > 1 else 0, desc)
    try:
        if local:
            return _run_sequential(call, items, bar)
        if name == "joblib":
            return _run_joblib(call, items, n_jobs, bar)
        return _run_dask(call, items, bar)
    finally:
        bar.close()
