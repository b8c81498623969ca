import os
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _project_root_env(monkeypatch):
    """Tests run from anywhere: point mlgeom.book.paths at this checkout, not a user setting."""
    monkeypatch.setenv("MLGEOM_ROOT", str(ROOT))
    for var in ("MLGEOM_RESULTS", "MLGEOM_DATA"):
        monkeypatch.delenv(var, raising=False)
    yield


def pytest_configure(config):
    os.environ.setdefault("MPLBACKEND", "Agg")
    # No tqdm bars from mlgeom.parallel.pmap in test output or in the notebooks the tests run
    # (their kernels inherit this environment); tests of the bars set it themselves.
    os.environ["MLGEOM_PROGRESS"] = "0"


# Property tests draw the same examples on every run (CI must not fail on a new random draw it
# never saw locally); HYPOTHESIS_PROFILE=explore searches afresh, with more examples.

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("explore", max_examples=500, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
