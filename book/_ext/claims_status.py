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
    if len(widths) != len(headers) or any(len(r) != len(headers) for r in rows):
        raise ValueError(
            f"claims-status table {classes}: {len(headers)} headers, {len(widths)} widths and "
            f"rows of {sorted({len(r) for r in rows})} cells must all agree"
        )
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


KIND_ORDER = ("result", "erratum", "check")
KIND_TITLES = {
    "result": "Results: what the paper claims, measured",
    "erratum": "Errata: printed errors, shown by computation",
    "check": "Checks: implementation and identity checks behind the narrative",
}
#: (summary key, short label, colour) in the order of the summary table and the overview figure.
COUNT_COLUMNS = (
    ("results held", "held", "#1a7f37"),
    ("results held, no baseline", "held, no baseline", "#4ac26b"),
    ("results held, not discriminating", "held, not discriminating", "#bf8700"),
    ("results not held", "not held", "#cf222e"),
    ("errata confirmed", "errata", "#8250df"),
    ("checks passed", "checks passed", "#8c959f"),
    ("checks failed", "checks failed", "#57606a"),
    ("not comparable", "not comparable (shown)", "#d0d7de"),
)


def _verdict(c: dict) -> nodes.inline:
    from mlgeom.book.claims import summarize

    counts = summarize([c])
    if counts["not comparable"]:
        return nodes.inline("", "— not comparable", classes=["claim-verdict", "claim-nc"])
    if counts["results held, no baseline"]:
        return nodes.inline("", "✓ holds (no baseline)", classes=["claim-verdict", "claim-holds"])
    if counts["results held"] or counts["checks passed"]:
        return nodes.inline("", "✓ holds", classes=["claim-verdict", "claim-holds"])
    if counts["results held, not discriminating"]:
        return nodes.inline(
            "", "≈ holds, not discriminating", classes=["claim-verdict", "claim-weak"]
        )
    if counts["errata confirmed"]:
        return nodes.inline("", "✓ erratum confirmed", classes=["claim-verdict", "claim-erratum"])
    if counts["errata not confirmed"]:
        return nodes.inline("", "✗ printed text holds", classes=["claim-verdict", "claim-fails"])
    return nodes.inline("", "✗ does not hold", classes=["claim-verdict", "claim-fails"])


def _measured_cell(c: dict) -> nodes.paragraph:
    cell = nodes.paragraph()
    cell += nodes.Text(_fmt(c["measured"]))
    iv = c.get("interval")
    if iv:
        cell += nodes.inline(
            "",
            f"[{_fmt(iv['low'])}, {_fmt(iv['high'])}] {iv['method']}",
            classes=["claim-interval"],
        )
    elif c.get("seeds"):
        cell += nodes.inline("", f"{c['seeds']} seeds", classes=["claim-interval"])
    return cell


def _baseline_cell(c: dict) -> nodes.Node:
    base = c.get("baseline")
    if base is None:
        return nodes.Text("—")
    if isinstance(base, str):
        return nodes.inline("", f"none: {base}", classes=["claim-nobaseline"])
    cell = nodes.paragraph()
    cell += nodes.Text(f"{base['name']}: {_fmt(base['measured'])} ")
    cell += nodes.inline(
        "",
        "passes too" if base["holds"] else "fails",
        classes=["claim-weak" if base["holds"] else "claim-holds"],
    )
    return cell


def load_records(env) -> list[tuple[str, dict | None, str | None]]:
    """``(notebook, record or None, problem or None)`` for every chapter in the book."""
    root = Path(env.srcdir)
    out = []
    for nb in book_notebooks(env):
        path = root / "data" / "results" / f"{nb.stem}.json"
        env.note_dependency(str(path))
        if not path.exists():
            out.append((nb.stem, None, f"no claims record {path} for {nb.name}"))
            continue
        try:
            out.append((nb.stem, _load(path), None))
        except (ValueError, json.JSONDecodeError) as exc:
            out.append((nb.stem, None, f"{path}: {exc}"))
    return out


class ClaimsStatus(SphinxDirective):
    """Render every notebook's claims record: a summary of counts, then each chapter by kind."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from mlgeom.book.claims import summarize

        root = Path(self.env.srcdir)
        summary_rows: list[list[nodes.Node]] = []
        totals = dict.fromkeys([k for k, _, _ in COUNT_COLUMNS], 0)
        chapters: list[nodes.Node] = []
        for stem, data, problem in load_records(self.env):
            if data is None:
                logger.warning(f"claims-status: {problem}", location=self.get_location())
                continue
            docname = f"notebooks/{stem}"
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
            counts = summarize(claims)
            for k in totals:
                totals[k] += counts[k]
            summary_rows.append(
                [_xref(stem, "doc", f"/{docname}", self.env.docname)]
                + [nodes.Text(str(counts[k])) for k, _, _ in COUNT_COLUMNS]
                + [nodes.Text(str(data.get("profile", "?")))]
            )
            heading = nodes.rubric()
            heading += _xref(stem, "doc", f"/{docname}", self.env.docname)
            chapters.append(heading)
            for kind in KIND_ORDER:
                of_kind = [c for c in claims if c.get("kind") == kind]
                if not of_kind:
                    continue
                chapters.append(nodes.paragraph("", "", nodes.strong("", KIND_TITLES[kind])))
                chapters.append(self._kind_table(kind, of_kind, docname, at_scale))
        summary_rows.append(
            [nodes.strong("", "all chapters")]
            + [nodes.strong("", str(totals[k])) for k, _, _ in COUNT_COLUMNS]
            + [nodes.Text("")]
        )
        summary = _table(
            ["Notebook", *[label for _, label, _ in COUNT_COLUMNS], "Profile"],
            [22, 7, 9, 10, 7, 7, 8, 8, 9, 7],
            summary_rows,
            ["claims-summary"],
        )
        return [summary, *chapters]

    def _kind_table(self, kind: str, claims: list[dict], docname: str, at_scale: dict):
        rows = []
        for c in claims:
            if c.get("section"):
                link = _xref(c["id"], "ref", c["section"], self.env.docname)
            else:
                link = _xref(c["id"], "doc", f"/{docname}", self.env.docname)
            claim_cell = nodes.paragraph()
            claim_cell += link
            claim_cell += nodes.inline("", c["statement"], classes=["claim-statement"])
            if c.get("scale"):
                claim_cell += nodes.inline("", f"Scale: {c['scale']}", classes=["claim-scale"])
            if c.get("note"):
                claim_cell += nodes.emphasis("", f"Why: {c['note']}", classes=["claim-note"])
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
            row = [
                claim_cell,
                nodes.Text(_fmt(c["paper"])),
                _measured_cell(c),
                nodes.Text(str(c["criterion"])),
                _verdict(c),
            ]
            if kind == "result":
                row += [_baseline_cell(c), scale_cell]
            rows.append(row)
        headers = ["Claim", "Paper", "Measured", "Criterion", "Verdict"]
        widths = [40, 8, 12, 14, 12]
        if kind == "result":
            headers += ["Baseline (same criterion)", "Paper scale"]
            widths = [34, 7, 12, 12, 11, 15, 9]
        return _table(headers, widths, rows, ["claims-status", f"claims-{kind}"])


def _overview_svg(rows: list[tuple[str, dict[str, int]]]) -> str:
    """A horizontal stacked bar per chapter, one segment per count (no external file)."""
    from html import escape

    bar_h, gap, label_w, width = 22, 10, 250, 720
    longest = max((sum(c.values()) for _, c in rows), default=1) or 1
    unit = (width - label_w - 40) / longest
    legend_h = 28
    height = legend_h + len(rows) * (bar_h + gap) + 4
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'role="img" class="claims-overview" aria-labelledby="claims-overview-title">',
        '<title id="claims-overview-title">Claims per chapter, by kind and verdict</title>',
    ]
    x = 0.0
    for _, label, colour in COUNT_COLUMNS:
        parts.append(f'<rect x="{x:.0f}" y="4" width="12" height="12" fill="{colour}"/>')
        parts.append(f'<text x="{x + 16:.0f}" y="15" font-size="12">{escape(label)}</text>')
        x += 16 + 7.2 * len(label) + 16
    for i, (stem, counts) in enumerate(rows):
        y = legend_h + i * (bar_h + gap)
        parts.append(
            f'<text x="{label_w - 8}" y="{y + bar_h * 0.7:.0f}" font-size="13" '
            f'text-anchor="end">{escape(stem)}</text>'
        )
        x = float(label_w)
        for key, label, colour in COUNT_COLUMNS:
            n = counts.get(key, 0)
            if not n:
                continue
            w = n * unit
            parts.append(
                f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="{colour}">'
                f"<title>{escape(stem)}: {n} {escape(label)}</title></rect>"
            )
            if w >= 18:
                parts.append(
                    f'<text x="{x + w / 2:.1f}" y="{y + bar_h * 0.7:.0f}" font-size="12" '
                    f'class="bar-count" text-anchor="middle">{n}</text>'
                )
            x += w
        parts.append(
            f'<text x="{x + 6:.1f}" y="{y + bar_h * 0.7:.0f}" font-size="12">'
            f"{sum(counts.values())}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


class ClaimsOverview(SphinxDirective):
    """A captioned figure of every chapter's claims, by kind and verdict (from the records).

    The directive's content is the caption.
    """

    has_content = True
    option_spec = {"name": lambda arg: arg.strip()}

    def run(self) -> list[nodes.Node]:
        from mlgeom.book.claims import summarize

        rows = []
        for stem, data, problem in load_records(self.env):
            if data is None:
                logger.warning(f"claims-overview: {problem}", location=self.get_location())
                continue
            rows.append((stem, summarize(data["claims"])))
        figure = nodes.figure(classes=["claims-overview-figure"])
        figure += nodes.raw("", _overview_svg(rows), format="html")
        caption = nodes.caption()
        text = "\n".join(self.content) or "Claims per chapter, by kind and verdict."
        inline, messages = self.state.inline_text(text, self.lineno)
        caption += inline
        figure += caption
        if "name" in self.options:
            self.add_name(figure)
        return [figure, *messages]


def claims_counts_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{claims-counts}`notebook``: the chapter's counts in a few words (intro's table)."""
    from mlgeom.book.claims import summarize

    env = inliner.document.settings.env
    path = Path(env.srcdir) / "data" / "results" / f"{text}.json"
    env.note_dependency(str(path))
    try:
        counts = summarize(_load(path)["claims"])
    except (ValueError, OSError) as exc:
        msg = inliner.reporter.warning(f"claims-counts: {exc}", line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    results = sum(v for k, v in counts.items() if k.startswith("results"))
    checks = counts["checks passed"] + counts["checks failed"]
    errata = counts["errata confirmed"] + counts["errata not confirmed"]
    words = (
        f"results: {counts['results held']} of {results} hold and discriminate, "
        f"{counts['results held, no baseline']} hold with no baseline, "
        f"{counts['results held, not discriminating']} hold without discriminating, "
        f"{counts['results not held']} fail; "
        f"errata: {counts['errata confirmed']} of {errata} confirmed; "
        f"checks: {counts['checks passed']} of {checks} pass"
    )
    return [nodes.inline(rawtext, words, classes=["claims-counts"])], []


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
    app.add_directive("claims-overview", ClaimsOverview)
    app.add_role("claims-counts", claims_counts_role)
    app.add_directive("run-times", RunTimes)
    app.connect("config-inited", _add_static)
    app.add_css_file("claims_status.css")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
