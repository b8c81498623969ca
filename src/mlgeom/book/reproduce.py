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

Every notebook runs in its own child process, which reports the kernel's peak resident memory;
wall time and peak memory per notebook go to the run report
``data/results/run-report.json`` (a local file, not committed: timings are volatile).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mlgeom.book.paths import project_root, results_dir
from mlgeom.book.profiles import PROFILES, check_profile

__all__ = ["CPU_PINS", "notebooks", "run", "strip_volatile"]

#: Environment that pins OpenBLAS's and numpy's run-time kernels to the AVX2 ones on x86-64, so
#: that stored outputs do not depend on whether a machine has AVX-512 (the Makefile exports the
#: same values; a value already set in the environment wins).
CPU_PINS = {
    "OPENBLAS_CORETYPE": "Haswell",
    "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR",
}

_VOLATILE_CELL_KEYS = ("papermill", "execution")


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


def _run_one(nb_path: Path, profile: str, out_path: Path) -> None:
    """Child-process body: execute one notebook, print the kernel's peak RSS (kB) as JSON."""
    import nbformat
    import papermill as pm

    params = None if profile == "book" else {"PROFILE": profile}
    os.environ["MLGEOM_PROGRESS"] = "0"  # the kernel inherits it: no tqdm bar in stored outputs
    if platform.machine() in ("x86_64", "AMD64"):
        for key, value in CPU_PINS.items():
            os.environ.setdefault(key, value)  # before the kernel starts and imports numpy
    out_path.parent.mkdir(parents=True, exist_ok=True)
    # The partial notebook lives outside notebooks/ (no build or test may see it half-written);
    # _build/ is on the same file system, so the final os.replace stays atomic.
    scratch = project_root() / "_build" / "reproduce" / "tmp"
    scratch.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".ipynb", dir=scratch, prefix=f"{nb_path.stem}.")
    os.close(fd)
    try:
        pm.execute_notebook(
            str(nb_path),
            tmp,
            parameters=params,
            cwd=str(nb_path.parent),
            kernel_name="python3",
            progress_bar=sys.stderr.isatty(),
            log_output=False,
            report_mode=False,
        )
        nb = nbformat.read(tmp, as_version=4)
        strip_volatile(nb)
        nbformat.write(nb, tmp)
        os.replace(tmp, out_path)
    except Exception:
        failed = project_root() / "_build" / "reproduce" / "failed" / nb_path.name
        failed.parent.mkdir(parents=True, exist_ok=True)
        if Path(tmp).exists():
            os.replace(tmp, failed)
            print(f"partial run kept for inspection: {failed}", file=sys.stderr)
        raise
    finally:
        Path(tmp).unlink(missing_ok=True)
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps({"peak_rss_kb": peak_kb}))


def run(profile: str = "book", names: list[str] | None = None) -> dict[str, dict]:
    """Execute notebooks at ``profile`` and return ``{notebook: {wall_time_s, peak_rss_mb}}``.

    Parameters
    ----------
    profile : {"smoke", "book", "paper"}
        The scale (see :mod:`mlgeom.book.profiles`).
    names : list of str, optional
        Notebook stems (default: every notebook).

    Raises
    ------
    ValueError
        If a named notebook does not exist.
    RuntimeError
        If a notebook fails to execute (its error is printed by papermill).
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
    report: dict[str, dict] = {}
    commit = _git_commit(root)  # the code that runs, taken before anything executes
    for k, name in enumerate(chosen, 1):
        src = available[name]
        out = src if profile == "book" else root / "_build" / "reproduce" / profile / src.name
        print(f"[{k}/{len(chosen)}] {name} (PROFILE={profile}) ...", flush=True)
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "mlgeom.book.reproduce", "--run-one", str(src), profile,
             str(out)],
            cwd=root,
            stdout=subprocess.PIPE,
            text=True,
        )
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            raise RuntimeError(f"{name} failed at PROFILE={profile} after {wall:.0f} s (see above)")
        peak_mb = json.loads(proc.stdout.strip().splitlines()[-1])["peak_rss_kb"] / 1024
        report[name] = {"wall_time_s": round(wall, 1), "peak_rss_mb": round(peak_mb, 1)}
        print(f"    done in {wall:.1f} s, kernel peak memory {peak_mb:.0f} MB", flush=True)
        if profile == "paper":
            _stamp_paper_record(name, wall, commit)
    _write_report(profile, report, root)
    return report


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


def _write_report(profile: str, report: dict[str, dict], root: Path) -> None:
    path = results_dir("book") / "run-report.json"
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    stamp = {
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": _git_commit(root),
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
    args = parser.parse_args(args_in)
    names = [n for item in args.nb for n in item.replace(",", " ").split()]
    try:
        run(args.profile, names or None)
    except (ValueError, RuntimeError) as exc:
        print(f"reproduce: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
