"""Provenance of every claim's criterion, derived from git (issue 29)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from mlgeom.book import provenance as P
from mlgeom.book.paths import project_root

ROOT = project_root()
HAS_GIT = shutil.which("git") is not None and (ROOT / ".git").exists()
needs_git = pytest.mark.skipif(not HAS_GIT, reason="not a git checkout")


def _shallow() -> bool:
    out = subprocess.run(
        ["git", "rev-parse", "--is-shallow-repository"], cwd=ROOT, capture_output=True, text=True
    )
    return out.stdout.strip() == "true"


@needs_git
def test_the_stored_provenance_is_the_one_git_gives():
    if _shallow():
        pytest.skip("a shallow clone has no history to derive provenance from")
    assert P.load_provenance() == P.compute_provenance(), (
        "data/results/provenance.json is stale: run `make provenance` and commit it "
        "(in a commit after the registry or record change)"
    )


@needs_git
def test_no_commit_since_the_rule_changes_a_criterion_together_with_a_record():
    assert P.mixed_commits() == [], (
        "these commits change a registry (data/claims) and a record (data/results) together; "
        "register criteria in a registry-only commit before the run"
    )


def _commit(repo, files, message, date):
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    env = {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date, "PATH": "/usr/bin:/bin"}
    run = dict(cwd=repo, check=True, capture_output=True, env=env)
    subprocess.run(["git", "add", "-A"], **run)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", message], **run
    )


def _toml(criterion):
    return (
        'notebook = "demo"\n[[claim]]\nid = "d.a"\nkind = "check"\nstatement = "s"\n'
        f'criterion = "{criterion}"\n'
    )


def _rec(criterion):
    return (
        '{"notebook": "demo", "profile": "book", "claims": '
        f'[{{"id": "d.a", "criterion": "{criterion}"}}]}}'
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="no git")
def test_statuses_on_a_made_up_history(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    reg, rec = "data/claims/demo.toml", "data/results/demo.json"
    _commit(tmp_path, {reg: _toml("<= 2")}, "register", "2026-11-28T15:00:00+00:00")
    _commit(tmp_path, {rec: _rec("≤ 2")}, "measure", "2026-11-28T15:01:00+00:00")
    d = P.compute_provenance(tmp_path)
    assert d["d.a"]["status"] == "registered before the run"
    _commit(tmp_path, {reg: _toml("<= 3")}, "loosen", "2026-11-28T15:02:00+00:00")
    d = P.compute_provenance(tmp_path)
    assert d["d.a"]["status"] == "registered before the run; criterion revised after results"
    assert d["d.a"]["revisions"][0]["to"].startswith("<= 3")
    _commit(tmp_path, {reg: _toml("<= 4"), rec: _rec("≤ 4")}, "both", "2026-11-28T15:03:00+00:00")
    assert len(P.mixed_commits(tmp_path)) == 1
