"""When each claim's criterion was registered, relative to its first measurement, from git.

The registries (``data/claims/<notebook>.toml``) are the book's preregistration, and the records
(``data/results/<notebook>.json``) its measurements. Whether a criterion was fixed before the
run that judged it is a fact of the repository's history, so it is *derived* from git, never
typed: for each claim, the commit that first registered it, the commit whose record first held
it, and every later change of its criterion (text, judge or kind)::

    python -m mlgeom.book.provenance            # print the summary
    python -m mlgeom.book.provenance --write    # write data/results/provenance.json
    python -m mlgeom.book.provenance --check    # exit 1 when the stored file is stale

The status page shows one of ``"registered before the run"``, ``"registered with the run"``
(the criterion first appeared in the commit that wrote its record), ``"registered after the
run"`` (the record held the claim first), ``"not yet measured"``; with ``"criterion revised
after results"`` added where the criterion changed once a record held the claim.

The stored file is refreshed in a commit *after* the one that changes a registry or a record
(it is not itself an input, so refreshing it changes nothing it says).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mlgeom.book.paths import project_root

__all__ = [
    "CUTOFF",
    "Provenance",
    "compute_provenance",
    "load_provenance",
    "mixed_commits",
    "provenance_path",
]

#: Commits after this date must not change a registry and a record together (the book's rule
#: since the registries became the preregistration of every claim; older commits are shown as
#: they happened, "registered with the run").
CUTOFF = "2026-11-28T14:00:00+00:00"


@dataclass
class Provenance:
    """The registration history of one claim."""

    registered: str | None = None  # ISO date of the commit that first registered it
    registered_commit: str | None = None
    first_measured: str | None = None
    measured_commit: str | None = None
    revisions: list[dict[str, str]] = field(default_factory=list)
    _reg_order: int | None = None
    _meas_order: int | None = None

    @property
    def status(self) -> str:
        """The relation of registration and first measurement, in words."""
        if self._meas_order is None:
            base = "not yet measured"
        elif self._reg_order is None or self._reg_order > self._meas_order:
            base = "registered after the run"
        elif self._reg_order == self._meas_order:
            base = "registered with the run"
        else:
            base = "registered before the run"
        late = [r for r in self.revisions if r.get("after_results") == "yes"]
        return f"{base}; criterion revised after results" if late else base

    def to_json(self) -> dict[str, Any]:
        """Return the stored form."""
        return {
            "status": self.status,
            "registered": self.registered,
            "registered_commit": self.registered_commit,
            "first_measured": self.first_measured,
            "measured_commit": self.measured_commit,
            "revisions": [{k: v for k, v in r.items() if k != "order"} for r in self.revisions],
        }


def provenance_path() -> Path:
    """Return ``data/results/provenance.json``."""
    return project_root() / "data" / "results" / "provenance.json"


def _git(*args: str, root: Path) -> str:
    out = subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, check=False, encoding="utf-8"
    )
    if out.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {out.stderr.strip()}")
    return out.stdout


def _commits(root: Path) -> list[tuple[str, str, list[str]]]:
    """Non-merge commits touching the registries or records, oldest first, with their files."""
    text = _git(
        "log",
        "--no-merges",
        "--topo-order",
        "--reverse",
        "--format=@%H %cI",
        "--name-only",
        "--",
        "data/claims",
        "data/results",
        root=root,
    )
    commits: list[tuple[str, str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("@"):
            sha, date = line[1:].split(" ", 1)
            commits.append((sha, date, []))
        elif line.strip() and commits:
            commits[-1][2].append(line.strip())
    return commits


def _is_registry(path: str) -> bool:
    return path.startswith("data/claims/") and path.endswith(".toml")


def _is_record(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return (
        path.startswith("data/results/")
        and path.count("/") == 2
        and name.endswith(".json")
        and name not in ("run-report.json", "provenance.json")
    )


def _criteria(text: str) -> dict[str, tuple[str, str, str]]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}
    out = {}
    for c in data.get("claim", []):
        if isinstance(c, dict) and isinstance(c.get("id"), str):
            out[c["id"]] = (
                str(c.get("criterion")),
                str(c.get("judge", "point")),
                str(c.get("kind")),
            )
    return out


_NAMED = re.compile(r"[-+]?[0-9][0-9.,eE+-]* \(([A-Za-z_]\w*)\)")


def _record_criteria(text: str) -> dict[str, str]:
    """``{id: criterion as recorded}``, a value computed at run time shown by its name."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return {}
    claims = data.get("claims", []) if isinstance(data, dict) else []
    return {
        c["id"]: _NAMED.sub(lambda m: f"<{m.group(1)}>", str(c.get("criterion")))
        for c in claims
        if isinstance(c, dict) and isinstance(c.get("id"), str)
    }


def _show(sha: str, path: str, root: Path) -> str | None:
    out = subprocess.run(
        ["git", "show", f"{sha}:{path}"], cwd=root, capture_output=True, text=True, check=False
    )
    return out.stdout if out.returncode == 0 else None


def compute_provenance(root: str | Path | None = None) -> dict[str, dict[str, Any]]:
    """Derive every claim's registration history from the git history of ``root``.

    Parameters
    ----------
    root : path-like, optional
        The repository (default: the project).

    Returns
    -------
    dict
        ``{claim id: Provenance.to_json()}``, sorted by id.

    Raises
    ------
    RuntimeError
        When ``root`` is not a git checkout with history.
    """
    r = Path(root) if root is not None else project_root()
    info: dict[str, Provenance] = {}
    last: dict[str, tuple[str, str, str]] = {}
    recorded: dict[str, str] = {}
    recorded_at: dict[str, int] = {}
    for order, (sha, date, files) in enumerate(_commits(r)):
        short = sha[:10]
        for path in files:
            if _is_registry(path):
                text = _show(sha, path, r)
                if text is None:
                    continue
                for cid, crit in _criteria(text).items():
                    p = info.setdefault(cid, Provenance())
                    if p._reg_order is None:
                        p._reg_order, p.registered, p.registered_commit = order, date, short
                    elif last.get(cid) != crit:
                        old = last.get(cid, ("", "", ""))
                        after = p._meas_order is not None and order >= p._meas_order
                        p.revisions.append(
                            {
                                "date": date,
                                "commit": short,
                                "from": f"{old[0]} ({old[1]}, {old[2]})",
                                "to": f"{crit[0]} ({crit[1]}, {crit[2]})",
                                "after_results": "yes" if after else "no",
                                "order": order,
                            }
                        )
                    last[cid] = crit
        for path in files:
            if _is_record(path):
                text = _show(sha, path, r)
                if text is None:
                    continue
                for cid, crit in _record_criteria(text).items():
                    p = info.setdefault(cid, Provenance())
                    seen_change = any(
                        rev["order"] > recorded_at.get(cid, -1) for rev in p.revisions
                    )
                    if cid in recorded and recorded[cid] != crit and not seen_change:
                        # a criterion changed in the record without a registry revision since
                        # its last record (before the registries, criteria lived in notebooks)
                        p.revisions.append(
                            {
                                "date": date,
                                "commit": short,
                                "from": f"{recorded[cid]} (as recorded)",
                                "to": f"{crit} (as recorded)",
                                "after_results": "yes",
                                "order": order,
                            }
                        )
                    recorded[cid], recorded_at[cid] = crit, order
                    if p._meas_order is None:
                        p._meas_order, p.first_measured, p.measured_commit = order, date, short
                        # a criterion changed in this very commit was revised with the results
                        for rev in p.revisions:
                            if rev["commit"] == short:
                                rev["after_results"] = "yes"
    return {cid: info[cid].to_json() for cid in sorted(info)}


def mixed_commits(root: str | Path | None = None, since: str = CUTOFF) -> list[str]:
    """List the commits after ``since`` that change a registry and a record together.

    Returns
    -------
    list of str
        ``"<sha> <date>"`` per offending commit (empty when every criterion was committed
        apart from the records it judges).
    """
    r = Path(root) if root is not None else project_root()
    bad = []
    for sha, date, files in _commits(r):
        if date <= since:
            continue
        if any(_is_registry(f) for f in files) and any(_is_record(f) for f in files):
            bad.append(f"{sha[:10]} {date}")
    return bad


def load_provenance(path: str | Path | None = None) -> dict[str, dict[str, Any]]:
    """Read the stored provenance (``{}`` when the file does not exist)."""
    p = Path(path) if path is not None else provenance_path()
    if not p.is_file():
        return {}
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{p}: cannot be read as JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise ValueError(f"{p}: must be a JSON object of claim ids")
    return data


def main(argv: list[str] | None = None) -> int:
    """Command line: print, ``--write`` or ``--check`` the provenance of every claim."""
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["--write"], ["--check"]):
        print("usage: python -m mlgeom.book.provenance [--write | --check]", file=sys.stderr)
        return 2
    data = compute_provenance()
    if args == ["--write"]:
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        provenance_path().write_text(text, encoding="utf-8")
        print(f"wrote {provenance_path()} ({len(data)} claims)")
        return 0
    if args == ["--check"]:
        if load_provenance() != data:
            print(
                f"{provenance_path()} is stale: run `make provenance` and commit it",
                file=sys.stderr,
            )
            return 1
        print("provenance: the stored file matches the git history")
        return 0
    counts: dict[str, int] = {}
    for v in data.values():
        counts[v["status"]] = counts.get(v["status"], 0) + 1
    for status, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"{n:5d}  {status}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
