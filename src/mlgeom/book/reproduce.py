"""Re-execute the book's notebooks with papermill: ``make reproduce``.

``python -m mlgeom.book.reproduce --profile book [--nb geometry_primer]``

* ``book`` (default): each notebook is executed with its own stored parameters (no injected
  cell) and rewritten in place with its outputs; its claims record goes to
  ``data/results/<notebook>.json``. Volatile metadata (papermill's and Jupyter's cell timings)
  is stripped, so that running twice leaves ``git diff`` empty.
* ``smoke`` / ``paper``: ``PROFILE`` is injected; the executed notebook goes to
  ``_build/reproduce/<profile>/`` (the committed notebook keeps its ``book`` outputs) and the
  record to ``data/results/<profile>/``. A ``paper`` record is stamped with the commit, date,
  machine and wall time it came from, because it is committed as a snapshot.

Kernels run with ``MLGEOM_PROGRESS=0`` (whatever the shell says), so that no progress bar of
:func:`mlgeom.parallel.pmap` lands in a stored output; ``MLGEOM_BACKEND`` and its companions
pass through, so ``MLGEOM_BACKEND=dask make reproduce`` runs the sweeps on Dask.

Every notebook runs in its own child process (its own process group), which reports the
kernel's peak resident memory. The child writes the executed notebook and the claims record into
a scratch folder under ``_build/reproduce/tmp/``; only when the whole run succeeded does the
parent move both into place (keeping the files' modes). A failed run (a cell raises) leaves the
committed notebook and record untouched and keeps the partial notebook in
``_build/reproduce/failed/`` for inspection. Ctrl-C or SIGTERM stops the run at once: the
parent forwards SIGTERM to the child, the kernel and the kernel's workers together (SIGKILL to
any still alive after :data:`STOP_GRACE_S` seconds) and writes and keeps nothing: no notebook,
no record, no partial notebook. Each child runs with its own temporary folder (``TMPDIR``),
which holds the kernel's connection file and IPC sockets and the workers' scratch files and is
removed with the run's scratch folder however the run ends; a child whose parent dies stops
its kernel and exits on its own.

Wall time and peak memory are printed for every run. They are written to the run report
``data/results/run-report.json`` (which the book's Run times page shows) only with
``--record-times`` (``make run-times``), at the ``book`` or ``paper`` profile, from a clean
checkout: running ``make reproduce`` twice leaves ``git diff`` empty.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from mlgeom.book.paths import project_root, results_dir
from mlgeom.book.profiles import PROFILES, check_profile

__all__ = [
    "CPU_PINS",
    "THREAD_PINS",
    "Progress",
    "ReproduceInterrupted",
    "notebooks",
    "parse_names",
    "run",
    "strip_volatile",
]

#: Environment that pins OpenBLAS's and numpy's run-time kernels to the AVX2 ones on x86-64, so
#: that stored outputs do not depend on whether a machine has AVX-512 (the Makefile exports the
#: same values; a value already set in the environment wins).
CPU_PINS = {
    "OPENBLAS_CORETYPE": "Haswell",
    "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR",
}

#: Environment on every machine: one OpenBLAS thread per process (the Makefile exports the same
#: value, and explains why; a value already set in the environment wins). The sweep workers of
#: :func:`mlgeom.parallel.pmap` inherit the kernel's count.
THREAD_PINS = {"OPENBLAS_NUM_THREADS": "1"}

_VOLATILE_CELL_KEYS = ("papermill", "execution")

#: Seconds a stopped run's processes get between SIGTERM and SIGKILL.
STOP_GRACE_S = 2.0

#: Environment variable naming the run's private temporary folder (set by the parent).
_RUN_TMP = "MLGEOM_REPRODUCE_TMP"


def notebooks(root: Path | None = None) -> list[Path]:
    """Return the book's notebooks (``notebooks/*.ipynb``), sorted by name."""
    base = (root or project_root()) / "notebooks"
    return sorted(p for p in base.glob("*.ipynb") if not p.name.startswith("."))


def strip_volatile(nb: dict) -> dict:
    """Remove run-dependent metadata (timings, papermill's run log) from a notebook, in place."""
    meta = nb.get("metadata", {})
    meta.pop("papermill", None)
    meta.pop("widgets", None)
    for cell in nb.get("cells", []):
        cmeta = cell.get("metadata", {})
        for key in _VOLATILE_CELL_KEYS:
            cmeta.pop(key, None)
        if cmeta.get("tags") == []:  # papermill adds an empty list to untagged cells
            del cmeta["tags"]
    return nb


def _git_commit(root: Path) -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return out + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


class ReproduceInterrupted(Exception):
    """The run was stopped by SIGTERM (Ctrl-C raises :class:`KeyboardInterrupt`)."""


def _raise_interrupted(signum: int, frame: object) -> None:
    raise ReproduceInterrupted(f"stopped by signal {signal.Signals(signum).name}")


def _run_one(nb_path: Path, profile: str, out_path: Path) -> None:
    """Child-process body: execute one notebook into ``out_path``; print the peak RSS as JSON.

    The claims record goes to ``$MLGEOM_RESULTS`` (a scratch folder set by :func:`run`). On
    SIGTERM, or when the parent process dies, the child forwards SIGTERM at once to the kernel
    and its workers, kills what is still alive after :data:`STOP_GRACE_S` seconds, removes its
    private temporary folder and exits with status ``128 + SIGTERM``; the parent removes the
    scratch folder.
    """
    previous = signal.signal(signal.SIGTERM, _terminate_child)
    parent, done = os.getppid(), threading.Event()

    def watch_parent() -> None:  # an orphaned child must not run on (make has exited)
        while not done.wait(0.5):
            if os.getppid() != parent:
                _stop_now()

    if os.name == "posix":
        threading.Thread(target=watch_parent, name="watch-parent", daemon=True).start()
    try:
        _execute_into(nb_path, profile, out_path)
    finally:
        done.set()
        signal.signal(signal.SIGTERM, previous)
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps({"peak_rss_kb": peak_kb}))


def _terminate_tree(procs: list, grace_s: float = STOP_GRACE_S) -> None:
    """Send SIGTERM to every process of ``procs`` at once; SIGKILL those alive after ``grace_s``."""
    import psutil

    for p in procs:
        try:
            p.terminate()
        except psutil.Error:
            pass
    _, alive = psutil.wait_procs(procs, timeout=grace_s)
    for p in alive:
        try:
            p.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(alive, timeout=grace_s)


def _terminate_child(signum: int, frame: object) -> None:
    """Handle SIGTERM in the child: stop the kernel and its workers, clean up, exit now."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once, even if the parent signals again
    _stop_now()


def _stop_now() -> None:
    """Stop this process's descendants, remove the run's temporary folder and exit (any thread)."""
    _terminate_tree(_descendants(os.getpid()))
    private = os.environ.get(_RUN_TMP)
    if private:
        shutil.rmtree(private, ignore_errors=True)
    os._exit(128 + signal.SIGTERM)


def ipc_kernel_manager() -> type:
    """Return a kernel manager whose kernel talks over local IPC sockets instead of TCP.

    The kernel and its client share this machine, so nothing needs a network port, and the
    kernel no longer warns on every start that TCP traffic is unencrypted. The sockets live in
    a private temporary folder (removed at shutdown), never beside the notebook: a killed run
    must not leave socket files in the repository.
    """
    import tempfile

    from jupyter_client.manager import KernelManager
    from traitlets import default

    class IPCKernelManager(KernelManager):
        @default("transport")
        def _default_transport(self) -> str:
            return "ipc"

        @default("ip")
        def _default_ip(self) -> str:
            # under `make reproduce`, straight in the run's own folder (removed by the parent
            # however the run ends; a socket path must stay under about 100 characters)
            folder = os.environ.get(_RUN_TMP) or tempfile.mkdtemp(prefix="mlgeom-kernel-")
            return str(Path(folder) / "kernel-ipc")

        async def _async_cleanup_resources(self, restart: bool = False) -> None:
            await super()._async_cleanup_resources(restart=restart)
            folder = Path(self.ip).parent
            if not restart and self.transport == "ipc" and str(folder) != os.environ.get(_RUN_TMP):
                shutil.rmtree(folder, ignore_errors=True)

    return IPCKernelManager


def _execute_into(nb_path: Path, profile: str, out_path: Path) -> None:
    import nbformat
    import papermill as pm

    params = None if profile == "book" else {"PROFILE": profile}
    os.environ["MLGEOM_PROGRESS"] = "0"  # the kernel inherits it: no tqdm bar in stored outputs
    for key, value in THREAD_PINS.items():
        os.environ.setdefault(key, value)  # before the kernel starts and imports numpy
    if platform.machine() in ("x86_64", "AMD64"):
        for key, value in CPU_PINS.items():
            os.environ.setdefault(key, value)
    try:
        pm.execute_notebook(
            str(nb_path),
            str(out_path),
            parameters=params,
            cwd=str(nb_path.parent),
            kernel_name="python3",
            progress_bar=False,  # the parent reports progress per cell (see Progress)
            log_output=False,
            report_mode=False,
            request_save_on_cell_execute=True,  # the parent reads the partial notebook
            **({} if os.name == "nt" else {"kernel_manager_class": ipc_kernel_manager()}),
        )
    except Exception:
        if out_path.exists():
            failed = project_root() / "_build" / "reproduce" / "failed" / nb_path.name
            failed.parent.mkdir(parents=True, exist_ok=True)
            os.replace(out_path, failed)
            print(f"partial run kept for inspection: {failed}", file=sys.stderr)
        raise
    nb = nbformat.read(out_path, as_version=4)
    strip_volatile(nb)
    nbformat.write(nb, out_path)


def _descendants(pid: int) -> list:
    import psutil

    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def _stop(proc: subprocess.Popen, grace_s: float = STOP_GRACE_S) -> None:
    """Stop the child, its kernel (its own session) and the kernel's workers; wait for them.

    SIGTERM goes to all of them at once (the kernel does not wait for the child to pass it on),
    SIGKILL to any still alive after ``grace_s`` seconds.
    """
    import psutil

    family = _descendants(proc.pid)
    try:
        family.insert(0, psutil.Process(proc.pid))
    except psutil.Error:
        pass
    _terminate_tree(family, grace_s)
    if proc.poll() is None:  # not a psutil-visible process any more, or a zombie
        proc.kill()
    proc.wait()


def _keep_mode(new: Path, old: Path) -> None:
    """Give ``new`` the permission bits of ``old`` (a fresh temporary file is private)."""
    mode = stat.S_IMODE(old.stat().st_mode) if old.exists() else 0o644
    os.chmod(new, mode)


def _move(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    _keep_mode(src, dst)
    try:
        os.replace(src, dst)
    except OSError:  # another file system (MLGEOM_RESULTS elsewhere)
        shutil.move(str(src), str(dst))


def parse_names(values: list[str]) -> list[str] | None:
    """Notebook stems from ``--nb`` values (repeatable, comma or space separated).

    Returns ``None`` when no ``--nb`` was given (every notebook); raises ``ValueError`` when
    ``--nb`` was given but names nothing (``--nb ","``).
    """
    if not values:
        return None
    names = [n for item in values for n in item.replace(",", " ").split()]
    if not names:
        raise ValueError(f"--nb names no notebook: {values!r}")
    return names


def sync_twin(ipynb: Path) -> bool:
    """Bring ``ipynb``'s inputs up to date with its MyST twin (``.md``) when the twin is newer.

    The ``.md`` is what contributors edit; executing a stale ``.ipynb`` would run the old code,
    and a later ``jupytext --sync`` would then overwrite the edited ``.md`` with it. Returns
    whether the notebook was updated (outputs are kept; jupytext pairs them by cell).
    """
    import jupytext
    import nbformat

    twin = ipynb.with_suffix(".md")
    if not twin.exists() or twin.stat().st_mtime < ipynb.stat().st_mtime:
        return False

    def sources(nb: nbformat.NotebookNode) -> list[tuple[str, str]]:
        return [(c.cell_type, c.source.strip()) for c in nb.cells]

    if sources(jupytext.read(twin)) == sources(nbformat.read(ipynb, as_version=4)):
        return False  # jupytext writes the twin last when it syncs: newer, but the same
    print(f"    {twin.name} is newer than {ipynb.name}: updating the notebook from it", flush=True)
    subprocess.run(
        [sys.executable, "-m", "jupytext", "--quiet", "--sync", str(ipynb)],
        check=True,
        cwd=ipynb.parent,
    )
    return True


def run(
    profile: str = "book", names: list[str] | None = None, *, record_times: bool = False
) -> dict[str, dict]:
    """Execute notebooks at ``profile`` and return ``{notebook: {wall_time_s, peak_rss_mb}}``.

    Parameters
    ----------
    profile : {"smoke", "book", "paper"}
        The scale (see :mod:`mlgeom.book.profiles`).
    names : list of str, optional
        Notebook stems (default: every notebook).
    record_times : bool, default=False
        Also write the wall times and peak memory to the run report (``book`` and ``paper``
        profiles only, from a checkout with no uncommitted change to tracked files).

    Raises
    ------
    ValueError
        If a named notebook does not exist, or times are to be recorded from a ``smoke`` run or
        a dirty checkout.
    RuntimeError
        If a notebook fails to execute (its error is printed by papermill). Notebooks already
        finished keep their new outputs; the failed one and its record are left untouched, and
        its partial notebook is kept in ``_build/reproduce/failed/``.
    ReproduceInterrupted, KeyboardInterrupt
        On SIGTERM or Ctrl-C: the child, its kernel and the kernel's workers are stopped at
        once; the notebook being run and its record are left untouched, and nothing of the
        run is kept (no partial notebook, no scratch or temporary files).

    Notes
    -----
    A notebook whose MyST twin (``.md``) was edited after it is first updated from the twin
    (:func:`sync_twin`), so that the run executes the code the contributor wrote.
    """
    check_profile(profile)
    root = project_root()
    available = {p.stem: p for p in notebooks(root)}
    chosen = names or sorted(available)
    unknown = [n for n in chosen if n not in available]
    if unknown:
        raise ValueError(
            f"unknown notebook(s) {unknown}; available: {', '.join(sorted(available))}"
        )
    commit = _git_commit(root)  # the code that runs, taken before anything executes
    if record_times and profile == "smoke":
        raise ValueError("--record-times records book and paper runs only, not smoke runs")
    if record_times and commit.endswith("-dirty"):
        raise ValueError(
            "--record-times needs a clean checkout (the run report names the commit that ran): "
            "commit or stash your changes first"
        )
    report: dict[str, dict] = {}
    scratch_root = root / "_build" / "reproduce" / "tmp"
    previous = signal.signal(signal.SIGTERM, _raise_interrupted)
    try:
        for k, name in enumerate(chosen, 1):
            src = available[name]
            sync_twin(src)
            out = src if profile == "book" else root / "_build" / "reproduce" / profile / src.name
            print(f"[{k}/{len(chosen)}] {name} (PROFILE={profile}) ...", flush=True)
            scratch_root.mkdir(parents=True, exist_ok=True)
            scratch = Path(tempfile.mkdtemp(prefix=f"{name}.", dir=scratch_root))
            try:
                wall, peak_mb = _execute(src, profile, scratch, root)
                record = scratch / "results" / ("" if profile == "book" else profile)
                record = record / f"{name}.json"
                if not record.exists():
                    raise RuntimeError(f"{name} ran but wrote no claims record")
                # both files are complete: move them into place together
                _move(record, results_dir(profile) / f"{name}.json")
                _move(scratch / src.name, out)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
            report[name] = {"wall_time_s": round(wall, 1), "peak_rss_mb": round(peak_mb, 1)}
            print(f"    done in {wall:.1f} s, kernel peak memory {peak_mb:.0f} MB", flush=True)
            if profile == "paper":
                _stamp_paper_record(name, wall, commit)
    finally:
        signal.signal(signal.SIGTERM, previous)
        if scratch_root.exists() and not any(scratch_root.iterdir()):
            scratch_root.rmdir()
    if record_times:
        _write_report(profile, report, root, commit)
    return report


class Progress:
    """Progress of a notebook being run, read from the partial notebook papermill saves.

    One line when the section changes, and otherwise every ``every_s`` seconds: cells done
    of total, the section (the last heading above the running cell), elapsed time and an
    estimate from the last recorded run of this notebook at this profile (the run report).
    """

    def __init__(self, partial: Path, expected_s: float | None, every_s: float = 30.0):
        self.partial, self.expected_s, self.every_s = partial, expected_s, every_s
        self.t0 = time.perf_counter()
        self._last: tuple[str, float] = ("", -1e9)
        self._read: tuple[tuple[int, int], tuple[int, int, str] | None] = ((-1, -1), None)

    def state(self) -> tuple[int, int, str] | None:
        """``(cells done, code cells, section)`` or ``None`` while there is nothing to read.

        The partial notebook is parsed again only when papermill has saved it since.
        """
        try:
            st = self.partial.stat()
        except OSError:
            return None
        mtime = (st.st_mtime_ns, st.st_size)
        if mtime == self._read[0]:
            return self._read[1]
        try:
            nb = json.loads(self.partial.read_text(encoding="utf-8"))
        except (OSError, ValueError):  # caught mid-write: try again on the next poll
            return None
        done, total, section = 0, 0, ""
        for cell in nb.get("cells", []):
            if cell.get("cell_type") == "markdown":
                for line in "".join(cell.get("source", "")).splitlines():
                    if line.startswith("#") and done == total:
                        section = line.lstrip("#").strip()
                continue
            if cell.get("cell_type") != "code":
                continue
            total += 1
            if cell.get("metadata", {}).get("papermill", {}).get("status") == "completed":
                done += 1
        # The child strips papermill's metadata from the finished notebook before it exits:
        # that last save must not read as "0 cells done". Progress never goes backwards.
        prev = self._read[1]
        if prev is not None and done < prev[0]:
            done, section = prev[0], prev[2]
        self._read = (mtime, (done, total, section))
        return done, total, section

    def line(self) -> str | None:
        """Return the next progress line, or ``None`` when nothing new is worth printing."""
        now = time.perf_counter()
        elapsed = now - self.t0
        state = self.state()
        if state is None:
            return None
        done, total, section = state
        if section == self._last[0] and now - self._last[1] < self.every_s:
            return None
        self._last = (section, now)
        text = f"    {done}/{total} cells, {_clock(elapsed)} elapsed"
        if self.expected_s:
            left = self.expected_s - elapsed
            text += f", about {_clock(left)} left" if left > 0 else ", longer than the last run"
            text += f" (last run {_clock(self.expected_s)})"
        return text + (f": {section}" if section else "")


def _clock(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    return f"{seconds // 60}:{seconds % 60:02d}"


def _expected_seconds(name: str, profile: str) -> float | None:
    """Wall time of the last recorded run of ``name`` at ``profile`` (the run report), if any."""
    path = results_dir("book") / "run-report.json"
    try:
        return float(json.loads(path.read_text(encoding="utf-8"))[profile][name]["wall_time_s"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _execute(src: Path, profile: str, scratch: Path, root: Path) -> tuple[float, float]:
    """Run one notebook in a child process, printing its progress; return (wall s, peak MB)."""
    # The child's own temporary folder, short enough for IPC socket paths: the kernel's
    # connection file and sockets and the workers' files go there, and it goes when the run ends.
    private = tempfile.mkdtemp(prefix="mlgeom-run-")
    env = {
        **os.environ,
        "MLGEOM_RESULTS": str(scratch / "results"),
        "TMPDIR": private,
        "TEMP": private,
        "TMP": private,
        _RUN_TMP: private,
    }
    try:
        return _execute_in(src, profile, scratch, root, env)
    finally:
        shutil.rmtree(private, ignore_errors=True)


def _execute_in(
    src: Path, profile: str, scratch: Path, root: Path, env: dict[str, str]
) -> tuple[float, float]:
    expected = _expected_seconds(src.stem, profile)
    if expected:
        print(f"    the last recorded run took {_clock(expected)}", flush=True)
    progress = Progress(scratch / src.name, expected)
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mlgeom.book.reproduce",
            "--run-one",
            str(src),
            profile,
            str(scratch / src.name),
        ],
        cwd=root,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # Ctrl-C reaches the parent only, which stops the child cleanly
    )
    try:
        while proc.poll() is None:
            time.sleep(1.0)
            line = progress.line()
            if line:
                print(line, flush=True)
        stdout = proc.stdout.read() if proc.stdout else ""
    except BaseException:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM must not cut this
        _stop(proc)
        raise
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{src.stem} failed at PROFILE={profile} after {wall:.0f} s (see above)")
    peak_mb = json.loads(stdout.strip().splitlines()[-1])["peak_rss_kb"] / 1024
    return wall, peak_mb


def _machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def _stamp_paper_record(name: str, wall: float, commit: str) -> None:
    path = results_dir("paper") / f"{name}.json"
    if not path.exists():
        return
    rec = json.loads(path.read_text(encoding="utf-8"))
    rec["provenance"] = {
        "commit": commit,
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": _machine(),
        "wall_time_s": round(wall, 1),
    }
    path.write_text(json.dumps(rec, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _write_report(profile: str, report: dict[str, dict], root: Path, commit: str) -> None:
    path = results_dir("book") / "run-report.json"
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    stamp = {
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": commit,
        "machine": _machine(),
        "python": platform.python_version(),
    }
    for name, entry in report.items():
        data.setdefault(profile, {})[name] = {**entry, **stamp}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"run report: {path}")


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point (see the module docstring)."""
    args_in = sys.argv[1:] if argv is None else argv
    if args_in[:1] == ["--run-one"]:
        _run_one(Path(args_in[1]), args_in[2], Path(args_in[3]))
        return 0
    parser = argparse.ArgumentParser(
        prog="python -m mlgeom.book.reproduce", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--profile", default="book", choices=PROFILES)
    parser.add_argument(
        "--nb", action="append", default=[], help="notebook stem (repeatable); default: all"
    )
    parser.add_argument(
        "--record-times",
        action="store_true",
        help="write wall times and peak memory to data/results/run-report.json",
    )
    args = parser.parse_args(args_in)
    try:
        run(args.profile, parse_names(args.nb), record_times=args.record_times)
    except (ValueError, RuntimeError) as exc:
        print(f"reproduce: {exc}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, ReproduceInterrupted) as exc:
        print(
            f"reproduce: interrupted ({exc or 'Ctrl-C'}); nothing written for this notebook",
            file=sys.stderr,
        )
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
