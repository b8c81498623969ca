"""``make reproduce`` writes a notebook and its record together, only when the run succeeded.

Each test runs a real (tiny) notebook with papermill in a throw-away project: the failure
modes are those of real kernels (a cell that raises after the record was written, SIGTERM while
a cell runs), not of mocks.
"""

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import psutil
import pytest

from mlgeom.book import reproduce
from mlgeom.book.registry import load_registry, registry_path

CELLS = [
    ('PROFILE = "book"', ["parameters"]),
    (
        "import os, pathlib, time\n"
        'pathlib.Path(os.environ["TINY_PIDFILE"]).write_text(str(os.getpid()))\n'
        'time.sleep(float(os.environ.get("TINY_SLEEP", "0")))',
        [],
    ),
    (
        "from mlgeom.book import claims as C\n"
        'record = C.ClaimsRecord("tiny", PROFILE)\n'
        'record.measure("tiny.x", 1.0)\n'
        "record.write()",
        [],
    ),
    ('if os.environ.get("TINY_FAIL"):\n    raise RuntimeError("fails after the record")', []),
]

#: The tiny notebook's criteria registry, ``data/claims/tiny.toml`` of the throw-away project.
REGISTRY = """notebook = "tiny"

[[claim]]
id = "tiny.x"
kind = "check"
statement = "x is small"
criterion = "<= 2"
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project root with one notebook, ``notebooks/tiny.ipynb`` (mode 0o664, no outputs)."""
    (tmp_path / "_toc.yml").write_text("root: intro\n")
    (tmp_path / "pyproject.toml").write_text("")
    nb = nbformat.v4.new_notebook()
    for source, tags in CELLS:
        cell = nbformat.v4.new_code_cell(source)
        cell.metadata["tags"] = tags
        nb.cells.append(cell)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    path = tmp_path / "notebooks" / "tiny.ipynb"
    path.parent.mkdir()
    nbformat.write(nb, path)
    registry = tmp_path / "data" / "claims" / "tiny.toml"
    registry.parent.mkdir(parents=True)
    registry.write_text(REGISTRY, encoding="utf-8")
    os.chmod(path, 0o664)
    monkeypatch.setenv("MLGEOM_ROOT", str(tmp_path))
    monkeypatch.setenv("TINY_PIDFILE", str(tmp_path / "kernel.pid"))
    return tmp_path


def test_the_registry_is_found_under_mlgeom_root(project):
    assert registry_path("tiny") == project / "data" / "claims" / "tiny.toml"
    assert list(load_registry("tiny").entries) == ["tiny.x"]


def _scratch_left(root):
    tmp = root / "_build" / "reproduce" / "tmp"
    return sorted(p.name for p in tmp.iterdir()) if tmp.exists() else []


def test_success_writes_notebook_and_record_and_keeps_the_mode(project):
    report = reproduce.run("book", ["tiny"])
    record = json.loads((project / "data" / "results" / "tiny.json").read_text())
    assert record["notebook"] == "tiny" and record["claims"][0]["holds"] is True
    claim = record["claims"][0]
    assert (claim["id"], claim["kind"], claim["statement"], claim["criterion"]) == (
        "tiny.x",
        "check",
        "x is small",
        "≤ 2",
    )
    nb_path = project / "notebooks" / "tiny.ipynb"
    nb = nbformat.read(nb_path, as_version=4)
    assert all(c.execution_count for c in nb.cells)
    assert stat.S_IMODE(nb_path.stat().st_mode) == 0o664
    assert set(report["tiny"]) == {"wall_time_s", "peak_rss_mb"}
    assert _scratch_left(project) == []
    assert not (project / "data" / "results" / "run-report.json").exists()


def test_failure_after_the_record_was_written_changes_nothing(project, monkeypatch):
    monkeypatch.setenv("TINY_FAIL", "1")
    before = (project / "notebooks" / "tiny.ipynb").read_bytes()
    with pytest.raises(RuntimeError, match="tiny failed"):
        reproduce.run("book", ["tiny"])
    assert (project / "notebooks" / "tiny.ipynb").read_bytes() == before
    assert not (project / "data" / "results" / "tiny.json").exists()
    assert _scratch_left(project) == []
    assert (project / "_build" / "reproduce" / "failed" / "tiny.ipynb").exists()


def _start_tiny_run(project, request):
    """Start ``python -m mlgeom.book.reproduce --nb tiny`` with a 60 s cell; wait for the kernel.

    The run's temporary directory is a fresh one (short: IPC socket paths are limited to about
    100 characters), so that what the run leaves there can be listed. Returns
    ``(process, kernel pid, temporary directory)``.
    """
    tmp = Path(tempfile.mkdtemp(prefix="t34-"))
    request.addfinalizer(lambda: shutil.rmtree(tmp, ignore_errors=True))
    env = {**os.environ, "TINY_SLEEP": "60", "TMPDIR": str(tmp)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mlgeom.book.reproduce", "--nb", "tiny"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    pidfile = project / "kernel.pid"
    deadline = time.monotonic() + 60
    while not pidfile.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert pidfile.exists(), "the kernel never started"
    time.sleep(0.5)  # the cell is now sleeping
    return proc, int(pidfile.read_text()), tmp


def _gone(pid):
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def _nothing_kept(project, tmp):
    assert _scratch_left(project) == []
    assert not (project / "_build" / "reproduce" / "failed").exists(), "a partial notebook kept"
    assert sorted(p.name for p in tmp.iterdir()) == [], "files left in the temporary directory"
    assert not (project / "data" / "results" / "tiny.json").exists()


def test_sigterm_stops_the_run_within_5_s_and_leaves_nothing(project, request):
    """Issue 34: SIGTERM took >= 20 s and left sockets, kernel files and a partial notebook."""
    before = (project / "notebooks" / "tiny.ipynb").read_bytes()
    proc, kernel, tmp = _start_tiny_run(project, request)
    family = psutil.Process(proc.pid).children(recursive=True)
    assert any(p.pid == kernel for p in family)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    took = time.monotonic() - t0
    assert proc.returncode == 130, err
    assert "interrupted" in err
    print(f"SIGTERM to exit: {took:.2f} s")
    assert took < 5.0, f"the run took {took:.1f} s to stop"
    _, alive = psutil.wait_procs(family, timeout=0.5)
    assert [p for p in alive if not _gone(p.pid)] == [], "the child or the kernel outlived the run"
    assert (project / "notebooks" / "tiny.ipynb").read_bytes() == before
    _nothing_kept(project, tmp)


def test_a_child_whose_parent_is_killed_stops_its_kernel(project, request):
    """A killed parent (make gone) must not leave the ``--run-one`` child and its kernel running."""
    proc, kernel, tmp = _start_tiny_run(project, request)
    family = psutil.Process(proc.pid).children(recursive=True)
    proc.kill()
    proc.communicate(timeout=10)
    _, alive = psutil.wait_procs(family, timeout=5)
    assert [p for p in alive if not _gone(p.pid)] == [], "the child or its kernel ran on"
    assert sorted(p.name for p in tmp.iterdir()) == [], "files left in the temporary directory"


@pytest.mark.parametrize("values", [[","], [" "], ["", ","]])
def test_an_nb_option_naming_nothing_is_an_error(values):
    with pytest.raises(ValueError, match="names no notebook"):
        reproduce.parse_names(values)


def test_nb_option_lists(capsys):
    assert reproduce.parse_names([]) is None
    assert reproduce.parse_names(["a,b", "c"]) == ["a", "b", "c"]
    assert reproduce.main(["--nb", ","]) == 1
    assert "names no notebook" in capsys.readouterr().err


def test_times_are_recorded_only_on_request_and_never_for_smoke(project):
    with pytest.raises(ValueError, match="not smoke"):
        reproduce.run("smoke", ["tiny"], record_times=True)
    reproduce.run("book", ["tiny"])
    assert not (project / "data" / "results" / "run-report.json").exists()
    reproduce.run("book", ["tiny"], record_times=True)  # not a git checkout: commit "unknown"
    data = json.loads((project / "data" / "results" / "run-report.json").read_text())
    assert set(data) == {"book"} and data["book"]["tiny"]["commit"] == "unknown"


def _partial(path, statuses):
    """A partial notebook as papermill saves it: headings, then code cells with a status each."""
    cells = []
    for k, status in enumerate(statuses):
        cells.append({"cell_type": "markdown", "metadata": {}, "source": f"## Section {k}\n"})
        cells.append(
            {"cell_type": "code", "metadata": {"papermill": {"status": status}}, "source": "1"}
        )
    path.write_text(json.dumps({"cells": cells}))


def test_progress_names_cells_section_and_estimate(tmp_path):
    partial = tmp_path / "nb.ipynb"
    progress = reproduce.Progress(partial, expected_s=600.0, every_s=30.0)
    assert progress.line() is None  # nothing saved yet
    _partial(partial, ["completed", "completed", "running", "pending"])
    line = progress.line()
    assert line.startswith("    2/4 cells, 0:00 elapsed, about 10:00 left (last run 10:00)")
    assert line.endswith(": Section 2")
    assert progress.line() is None  # same section, too soon: quiet
    _partial(partial, ["completed", "completed", "completed", "running"])
    assert progress.line().endswith(": Section 3")  # a new section is printed at once
    assert reproduce.Progress(partial, None).line().startswith("    3/4 cells, 0:00 elapsed: ")


def test_progress_never_goes_back_when_the_finished_notebook_is_stripped(tmp_path):
    """The child removes papermill's metadata before exiting: not "0/4 cells" after "4/4"."""
    partial = tmp_path / "nb.ipynb"
    progress = reproduce.Progress(partial, None, every_s=0.0)
    _partial(partial, ["completed"] * 4)
    assert progress.state() == (4, 4, "Section 3")
    _partial(partial, [None] * 4)  # the stripped notebook: no status on any cell
    assert progress.state() == (4, 4, "Section 3")
    assert progress.line().startswith("    4/4 cells")


def test_a_run_prints_its_progress(project, capsys):
    reproduce.run("book", ["tiny"])
    out = capsys.readouterr().out
    assert "[1/1] tiny (PROFILE=book) ..." in out and "done in" in out


def test_an_edited_md_twin_is_synced_before_the_run(tmp_path):
    """`make reproduce` runs what the contributor edited (the .md), not a stale .ipynb."""
    import jupytext

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1")]
    nb.metadata["jupytext"] = {"formats": "ipynb,md:myst"}
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    ipynb = tmp_path / "nb.ipynb"
    nbformat.write(nb, ipynb)
    assert reproduce.sync_twin(ipynb) is False  # no twin: nothing to do
    md = tmp_path / "nb.md"
    jupytext.write(nb, md, fmt="md:myst")
    old = time.time() - 60
    os.utime(ipynb, (old, old))
    md.write_text(md.read_text().replace("x = 1", "x = 2"))
    assert reproduce.sync_twin(ipynb) is True
    assert nbformat.read(ipynb, as_version=4).cells[0].source == "x = 2"
    assert reproduce.sync_twin(ipynb) is False  # now up to date


def test_strip_volatile_drops_run_metadata_and_the_empty_tags_papermill_adds():
    from mlgeom.book.reproduce import strip_volatile

    nb = {
        "metadata": {"papermill": {"duration": 1.0}, "kernelspec": {"name": "python3"}},
        "cells": [
            {"cell_type": "markdown", "metadata": {"tags": []}, "source": "x"},
            {"cell_type": "code", "metadata": {"tags": ["remove-cell"]}, "source": "y"},
        ],
    }
    out = strip_volatile(nb)
    assert out["metadata"] == {"kernelspec": {"name": "python3"}}
    assert out["cells"][0]["metadata"] == {}
    assert out["cells"][1]["metadata"] == {"tags": ["remove-cell"]}
