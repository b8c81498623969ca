"""Profiles, paths, statistics and the reproduce runner's metadata scrubbing."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mlgeom.book.paths import project_root, results_dir
from mlgeom.book.profiles import check_profile, pick
from mlgeom.book.reproduce import notebooks, strip_volatile
from mlgeom.stats import loglog_slope

ROOT = Path(__file__).resolve().parents[2]


def test_pick_and_check_profile():
    assert pick("smoke", smoke=1, book=2, paper=3) == 1
    assert pick("paper", smoke=1, book=2, paper=3) == 3
    with pytest.raises(ValueError, match="PROFILE must be one of smoke, book, paper; got 'Book'"):
        check_profile("Book")


def test_project_root_walks_up(tmp_path, monkeypatch):
    monkeypatch.delenv("MLGEOM_ROOT")
    (tmp_path / "_toc.yml").write_text("")
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "notebooks").mkdir()
    assert project_root(tmp_path / "notebooks") == tmp_path
    with pytest.raises(FileNotFoundError, match="no project root"):
        project_root(tmp_path.parent)


def test_results_dir(tmp_path, monkeypatch):
    assert results_dir("book") == project_root() / "data" / "results"
    monkeypatch.setenv("MLGEOM_RESULTS", str(tmp_path))
    assert results_dir("paper") == tmp_path / "paper"


@given(st.floats(-3, 3), st.floats(0.1, 10))
def test_loglog_slope_recovers_power_laws(slope, c):
    x = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
    fit = loglog_slope(x, c * x**slope)
    assert fit.slope == pytest.approx(slope, abs=1e-9)
    assert fit.stderr == pytest.approx(0.0, abs=1e-6)
    np.testing.assert_allclose(fit.predict(x), c * x**slope, rtol=1e-8)


def test_loglog_slope_bad_inputs():
    with pytest.raises(ValueError, match="> 0"):
        loglog_slope([1, 2], [1, 0])
    with pytest.raises(ValueError, match="length >= 2"):
        loglog_slope([1], [1])


def test_strip_volatile_removes_timings_only():
    nb = {
        "metadata": {"papermill": {"duration": 3.2}, "kernelspec": {"name": "python3"}},
        "cells": [
            {
                "metadata": {
                    "tags": ["x"],
                    "papermill": {"start_time": "t"},
                    "execution": {"iopub.execute_input": "t"},
                }
            }
        ],
    }
    strip_volatile(nb)
    assert nb == {
        "metadata": {"kernelspec": {"name": "python3"}},
        "cells": [{"metadata": {"tags": ["x"]}}],
    }


def test_every_notebook_is_found():
    assert "geometry_primer" in [p.stem for p in notebooks()]


def test_ci_installs_the_browser_and_runs_make_test():
    script = (ROOT / ".ci" / "run").read_text()
    assert "apt-get install" in script and "chromium chromium-driver" in script
    assert script.rstrip().endswith("make test")


def test_make_test_includes_the_browser_suite():
    makefile = (ROOT / "Makefile").read_text()
    test_line = next(line for line in makefile.splitlines() if line.startswith("test:"))
    assert "browser" in test_line.split("##")[0]
    assert "--ignore=tests/browser" in makefile  # the unit run does not open a browser


def test_github_workflow_runs_ci_and_publishes_main_to_pages():
    import yaml

    wf = yaml.safe_load((ROOT / ".github" / "workflows" / "book.yml").read_text())
    on = wf.get("on", wf.get(True))
    assert on["push"]["branches"] == ["main"] and "pull_request" in on
    test = wf["jobs"]["test"]
    assert any(step.get("run") == "bash .ci/run" for step in test["steps"])
    uploads = [s for s in test["steps"] if "upload-pages-artifact" in s.get("uses", "")]
    assert uploads and uploads[0]["with"]["path"] == "_build/html"
    assert "refs/heads/main" in uploads[0]["if"]
    publish = wf["jobs"]["publish"]
    assert publish["needs"] == "test" and "refs/heads/main" in publish["if"]
    assert publish["permissions"] == {"pages": "write", "id-token": "write"}
    assert any("deploy-pages" in s.get("uses", "") for s in publish["steps"])


def test_results_dir_figure_and_bounds_refuse_bad_values():
    from mlgeom.book.plotting import figure
    from mlgeom.book.registry import Bounds

    with pytest.raises(ValueError, match="PROFILE must be one of"):
        results_dir("papers")  # used to return data/results/papers silently
    with pytest.raises(ValueError, match=r"ncols must be an integer >= 1; got 1.5"):
        figure(1.5)  # used to fail inside matplotlib
    with pytest.raises(ValueError, match=r"width must be a finite real number .*; got nan"):
        figure(width=float("nan"))
    b = Bounds(high=1.0)
    with pytest.raises(ValueError, match=r"low must be a finite number; got nan"):
        b.contains_any(float("nan"), 0.5)  # used to answer False
    with pytest.raises(ValueError, match=r"high must be a finite number; got '1'"):
        b.contains_all(0.0, "1")
    with pytest.raises(ValueError, match=r"low must be <= high"):
        b.contains_any(0.8, 0.2)
    assert b.contains_all(0.0, 1.0) and not b.contains_any(1.5, 2.0)
