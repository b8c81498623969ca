"""Sphinx extension: the "Reproduction status" table, rendered from the claims records.

Usage in a MyST page::

    ```{claims-status}
    ```

For every notebook of the book (``notebooks/*.ipynb`` in the table of contents) the
directive reads its record
``data/results/<notebook>.json`` (written by the notebook when it last ran; see
``mlgeom.book.claims``) and renders one table row per claim: the claim (linked to the notebook
section that checks it), the paper's value, the measured value, the criterion and the
computed verdict, plus a per-notebook summary. Nothing is executed at build time. A notebook
without a record, or a record that fails validation, is a build warning (an error under
``-W``); so is a claim whose ``section`` label does not exist (under ``-n``).
"""

from __future__ import annotations

import json
from pathlib import Path

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

def _fmt(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _load(path: Path) -> dict:
    """Read a record with the package's own validation (duplicate ids, notebook name, fields)."""
    from mlgeom.book.claims import load_record

    return load_record(path)


def _table(headers: list[str], widths: list[int], rows: list[list[nodes.Node]], classes: list[str]):
    table = nodes.table(classes=classes)
    group = nodes.tgroup(cols=len(headers))
    table += group
    for w in widths:
        group += nodes.colspec(colwidth=w)
    head = nodes.thead()
    group += head
    hrow = nodes.row()
    for h in headers:
        hrow += nodes.entry("", nodes.paragraph(text=h))
    head += hrow
    body = nodes.tbody()
    group += body
    for cells in rows:
        row = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            entry += (
                cell
                if isinstance(cell, nodes.Element) and not isinstance(cell, nodes.Inline)
                else nodes.paragraph("", "", cell)
            )
            row += entry
        body += row
    return table


def _xref(text: str, reftype: str, target: str, refdoc: str) -> pending_xref:
    ref = pending_xref(
        "",
        refdomain="std",
        reftype=reftype,
        reftarget=target,
        refexplicit=True,
        refwarn=True,
        refdoc=refdoc,
    )
    ref += nodes.inline(text, text)
    return ref


def book_notebooks(env) -> list[Path]:
    """The chapter notebooks that are in the book (its table of contents), not every file."""
    root = Path(env.srcdir)
    return [
        nb
        for nb in sorted((root / "notebooks").glob("*.ipynb"))
        if f"notebooks/{nb.stem}" in env.found_docs
    ]


class ClaimsStatus(SphinxDirective):
    """Render every notebook's claims record as tables."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        root = Path(self.env.srcdir)
        notebooks = book_notebooks(self.env)
        summary_rows: list[list[nodes.Node]] = []
        claim_rows: list[list[nodes.Node]] = []
        for nb in notebooks:
            stem = nb.stem
            docname = f"notebooks/{stem}"
            record = root / "data" / "results" / f"{stem}.json"
            self.env.note_dependency(str(record))
            if not record.exists():
                logger.warning(
                    f"claims-status: no claims record {record} for {nb.name}",
                    location=self.get_location(),
                )
                continue
            try:
                data = _load(record)
            except (ValueError, json.JSONDecodeError) as exc:
                logger.warning(f"claims-status: {record}: {exc}", location=self.get_location())
                continue
            # The committed PROFILE=paper snapshot, when there is one (data/results/paper/).
            paper_record = root / "data" / "results" / "paper" / f"{stem}.json"
            self.env.note_dependency(str(paper_record))
            at_scale = {}
            if paper_record.exists():
                try:
                    at_scale = {c["id"]: c for c in _load(paper_record)["claims"]}
                except (ValueError, json.JSONDecodeError) as exc:
                    logger.warning(
                        f"claims-status: {paper_record}: {exc}", location=self.get_location()
                    )
            claims = data["claims"]
            n_hold = sum(c["holds"] for c in claims)
            summary_rows.append(
                [
                    _xref(stem, "doc", f"/{docname}", self.env.docname),
                    nodes.Text(str(len(claims))),
                    nodes.Text(str(n_hold)),
                    nodes.Text(str(len(claims) - n_hold)),
                    nodes.Text(str(data.get("profile", "?"))),
                ]
            )
            for c in claims:
                if c.get("section"):
                    link = _xref(c["id"], "ref", c["section"], self.env.docname)
                else:
                    link = _xref(c["id"], "doc", f"/{docname}", self.env.docname)
                claim_cell = nodes.paragraph()
                claim_cell += link
                claim_cell += nodes.inline("", c["statement"], classes=["claim-statement"])
                if c.get("note"):
                    claim_cell += nodes.emphasis("", f"Why: {c['note']}", classes=["claim-note"])
                verdict = nodes.inline(
                    "",
                    "✓ holds" if c["holds"] else "✗ does not hold",
                    classes=["claim-holds" if c["holds"] else "claim-fails"],
                )
                big = at_scale.get(c["id"])
                scale_cell = (
                    nodes.Text("—")
                    if big is None
                    else nodes.inline(
                        "",
                        f"{_fmt(big['measured'])} {'✓' if big['holds'] else '✗'}",
                        classes=["claim-holds" if big["holds"] else "claim-fails"],
                    )
                )
                claim_rows.append(
                    [
                        claim_cell,
                        nodes.Text(_fmt(c["paper"])),
                        nodes.Text(_fmt(c["measured"])),
                        nodes.Text(str(c["criterion"])),
                        verdict,
                        scale_cell,
                    ]
                )
        out: list[nodes.Node] = []
        out.append(
            _table(
                ["Notebook", "Claims", "Hold", "Do not hold", "Profile"],
                [30, 10, 10, 12, 10],
                summary_rows,
                ["claims-summary"],
            )
        )
        out.append(
            _table(
                ["Claim", "Paper", "Measured", "Criterion", "Verdict", "Paper scale"],
                [44, 8, 9, 16, 12, 11],
                claim_rows,
                ["claims-status"],
            )
        )
        return out


RUN_FIELDS = ("wall_time_s", "peak_rss_mb", "date", "commit", "machine")
#: What a reader needs: the book's own runs and the papers' scale (smoke runs are not shown).
SHOWN_PROFILES = ("book", "paper")


def load_run_report(path: Path) -> dict[str, dict[str, dict]]:
    """Read ``data/results/run-report.json``: ``{profile: {notebook: {wall_time_s, ...}}}``."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError("not a run report (needs {profile: {notebook: run}})")
    for profile, runs in data.items():
        if not isinstance(runs, dict):
            raise ValueError(f"profile {profile!r}: expected {{notebook: run}}")
        for name, run in runs.items():
            missing = [k for k in RUN_FIELDS if k not in run]
            if missing:
                raise ValueError(f"{profile}/{name}: misses {missing}")
    return data


class RunTimes(SphinxDirective):
    """Render the last measured wall time and peak memory of every notebook at every profile.

    The numbers come from ``make run-times`` (``mlgeom.book.reproduce --record-times``), which
    rewrites ``data/results/run-report.json`` from a clean checkout; nothing is timed at build
    time. Only the ``book`` and ``paper`` runs are shown; a run of uncommitted code is a
    warning.
    """

    has_content = False

    def run(self) -> list[nodes.Node]:
        root = Path(self.env.srcdir)
        path = root / "data" / "results" / "run-report.json"
        self.env.note_dependency(str(path))
        if not path.exists():
            logger.warning(f"run-times: no run report {path}", location=self.get_location())
            return []
        try:
            report = load_run_report(path)
        except (ValueError, json.JSONDecodeError) as exc:
            logger.warning(f"run-times: {path}: {exc}", location=self.get_location())
            return []
        in_book = {nb.stem for nb in book_notebooks(self.env)}
        runs = [
            (stem, profile, report[profile][stem])
            for stem in sorted(in_book)
            for profile in SHOWN_PROFILES
            if stem in report.get(profile, {})
        ]
        dirty = [f"{s} ({p})" for s, p, run in runs if run["commit"].endswith("-dirty")]
        if dirty:
            logger.warning(
                f"run-times: runs of uncommitted code in the report: {', '.join(dirty)} "
                "(record times from a clean checkout: `make run-times`)",
                location=self.get_location(),
            )
        machines = sorted({run["machine"] for _, _, run in runs})
        rows: list[list[nodes.Node]] = []
        for stem, profile, run in runs:
            cells = [
                _xref(stem, "doc", f"/notebooks/{stem}", self.env.docname),
                nodes.Text(profile),
                nodes.Text(f"{run['wall_time_s']:.0f} s"),
                nodes.Text(f"{run['peak_rss_mb']:.0f} MB"),
                nodes.Text(str(run["date"])[:10]),
                nodes.literal("", str(run["commit"])[:10]),
            ]
            if len(machines) > 1:
                cells.append(nodes.Text(str(run["machine"])))
            rows.append(cells)
        missing = sorted(s for s in in_book if s not in report.get("book", {}))
        if missing:
            logger.warning(
                f"run-times: no book-profile run recorded for {', '.join(missing)} "
                "(run `make reproduce NB=<name>`)",
                location=self.get_location(),
            )
        headers = ["Notebook", "Profile", "Wall time", "Peak memory", "Date", "Commit"]
        widths = [34, 9, 10, 11, 12, 12]
        if len(machines) > 1:
            headers, widths = [*headers, "Machine"], [*widths, 23]
        out: list[nodes.Node] = []
        if len(machines) == 1:
            out.append(nodes.paragraph(text=f"Machine: {machines[0]}."))
        out.append(_table(headers, widths, rows, ["run-times"]))
        return out


def _add_static(app, config):
    config.html_static_path.append(str(Path(__file__).parent / "static"))


def setup(app):
    app.add_directive("claims-status", ClaimsStatus)
    app.add_directive("run-times", RunTimes)
    app.connect("config-inited", _add_static)
    app.add_css_file("claims_status.css")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
