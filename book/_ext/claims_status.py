"""Sphinx extension: the book's verdicts, rendered from the claims registries and records.

Nothing is executed at build time: every directive reads the chapters' registries
(``data/claims/<notebook>.toml``), their records (``data/results/<notebook>.json``, written
by the notebooks), the provenance derived from git (``data/results/provenance.json``) and the
run report (``data/results/run-report.json``). The chapters come in the order of the sidebar
(``_toc.yml``).

Directives:

``headline-verdicts``
    The landing page: one row per paper with its headline verdicts counted, then each paper's
    headline claims on one line each (verdict, title linked to the chapter's section, our
    number beside the paper's, one line of why). The content, optional, gives each paper's
    citation as ``<notebook>: <MyST inline text>`` lines.
``verdict-definitions``
    The five verdict words defined once (``mlgeom.book.verdicts.DEFINITIONS``), each a
    reference target ``verdict-<slug>`` for the other pages.
``chapter-summary <notebook>``
    A chapter's first-screen box: its headline claims with the verdict, the paper's number,
    ours and the natural competitor's, and a note on Holm's correction where a verdict rests
    on not correcting.
``rerun-box <notebook>``
    The "Rerun this chapter" box: the commands, the last measured run times, and the
    chapter's own markdown (the directive's content).
``claims-table <notebook>``
    Every claim of a chapter grouped by the chapter's sections (appendix and status pages),
    with a select that shows one verdict kind only.
``status-overview``
    The status page: a paragraph per verdict, every paper's headline claims in one table, and
    each chapter's claims counted by kind.
``errata-list``
    Every erratum with the printed text quoted (its location), the computation that refutes
    it, and its outcome.
``beyond-findings``
    What the book found beyond the papers: printed errors with their corrections, typos,
    ambiguous source text, the book's own claims (scope "beyond") and the headline claims
    where a simpler method does as well.
``run-times``
    Every chapter's last measured wall time and peak memory (the execution page).

A missing record, a record or registry that fails validation, or a headline whose supporting
claims are missing from the record is a build warning (an error under ``-W``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

logger = logging.getLogger(__name__)

#: The verdict words' CSS slugs (``verdict-<slug>`` classes and reference targets).
VERDICT_SLUGS = {
    "Reproduced": "reproduced",
    "Reproduced, but a simpler method does as well": "simpler",
    "Not reproduced": "not-reproduced",
    "Not testable here": "untestable",
    "Printed error": "printed-error",
}


# --------------------------------------------------------------------------- small helpers


def _fmt(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _load(path: Path) -> dict:
    """Read a record with the package's own validation (duplicate ids, notebook name, fields)."""
    from mlgeom.book.claims import load_record

    return load_record(path)


def _table(
    headers: list[str],
    widths: list[int],
    rows: list[list[nodes.Node]],
    classes: list[str],
    row_attrs: list[dict] | None = None,
):
    """A docutils table; ``row_attrs`` gives each body row its ``ids`` and ``classes``."""
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
    for i, cells in enumerate(rows):
        row = nodes.row()
        if row_attrs is not None:
            row["ids"] = list(row_attrs[i].get("ids", []))
            row["classes"] = list(row_attrs[i].get("classes", []))
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


def _xref(text: str | None, reftype: str, target: str, refdoc: str) -> pending_xref:
    """A cross-reference; ``text=None`` lets Sphinx use the target's title."""
    ref = pending_xref(
        "",
        refdomain="std",
        reftype=reftype,
        reftarget=target,
        refexplicit=text is not None,
        refwarn=True,
        refdoc=refdoc,
    )
    if text is not None:
        ref += nodes.inline(text, text)
    else:
        ref += nodes.inline(target, target)
    return ref


def _badge(verdict: str) -> nodes.inline:
    slug = VERDICT_SLUGS.get(verdict, "other")
    return nodes.inline("", verdict, classes=["verdict-badge", f"verdict-{slug}"])


def _muted(text: str, *classes: str) -> nodes.inline:
    return nodes.inline("", text, classes=["claim-muted", *classes])


def toc_notebooks(srcdir: str | Path) -> list[str]:
    """The chapter notebooks in the order of the sidebar (``_toc.yml``)."""
    import yaml

    toc = yaml.safe_load((Path(srcdir) / "_toc.yml").read_text(encoding="utf-8"))
    out: list[str] = []

    def walk(entries):
        for e in entries or []:
            f = e.get("file", "")
            if f.startswith("notebooks/"):
                out.append(Path(f).name)
            walk(e.get("sections"))
            walk(e.get("chapters"))

    for part in toc.get("parts", []):
        walk(part.get("chapters"))
    walk(toc.get("chapters"))
    return out


def book_notebooks(env) -> list[Path]:
    """The chapter notebooks that are in the book, in the sidebar's order."""
    root = Path(env.srcdir)
    env.note_dependency(str(root / "_toc.yml"))
    return [
        root / "notebooks" / f"{stem}.ipynb"
        for stem in toc_notebooks(root)
        if f"notebooks/{stem}" in env.found_docs
    ]


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


def load_chapter(env, notebook: str):
    """``(record, registry, headline verdicts)`` of one chapter; raises ``ValueError``."""
    from mlgeom.book.registry import load_registry
    from mlgeom.book.verdicts import headline_verdicts

    root = Path(env.srcdir)
    rec_path = root / "data" / "results" / f"{notebook}.json"
    reg_path = root / "data" / "claims" / f"{notebook}.toml"
    env.note_dependency(str(rec_path))
    env.note_dependency(str(reg_path))
    if not rec_path.exists():
        raise ValueError(f"no claims record {rec_path} for {notebook}")
    record = _load(rec_path)
    registry = load_registry(notebook, reg_path)
    return record, registry, headline_verdicts(notebook, record=record, registry=registry)


def load_provenance_map(env) -> dict[str, dict]:
    """Each claim id's registration history (``make provenance``); empty without the file."""
    from mlgeom.book.provenance import load_provenance

    path = Path(env.srcdir) / "data" / "results" / "provenance.json"
    env.note_dependency(str(path))
    if not path.exists():
        return {}
    return load_provenance(path)


def section_titles(env, notebook: str) -> dict[str, str]:
    """The chapter's section labels and their MyST titles, read from ``notebooks/<nb>.md``."""
    path = Path(env.srcdir) / "notebooks" / f"{notebook}.md"
    env.note_dependency(str(path))
    if not path.exists():
        return {}
    out: dict[str, str] = {}
    label = None
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\(([^()\s]+)\)=\s*$", line)
        if m:
            label = m.group(1)
            continue
        h = re.match(r"^#{1,6}\s+(.+?)\s*#*\s*$", line)
        if h and label:
            out[label] = h.group(1)
            label = None
        elif line.strip():
            label = None
    return out


def _chapter_title(env, notebook: str) -> str:
    """The chapter's title (MyST, may carry ``$…$``), from its first heading."""
    path = Path(env.srcdir) / "notebooks" / f"{notebook}.md"
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.match(r"^#\s+(.+?)\s*$", line)
            if m:
                return m.group(1)
    return notebook.replace("_", " ")


def _inline_myst(directive: SphinxDirective, text: str) -> list[nodes.Node]:
    """Render inline MyST (``$…$`` maths, roles); plain text when there is no markup."""
    if "$" not in text and "{" not in text and "`" not in text:
        return [nodes.Text(text)]
    parsed, messages = directive.state.inline_text(text, directive.lineno)
    return [*parsed, *messages]


# --------------------------------------------------------------------- claim-level verdicts

#: Claim verdict groups shown by the filter on the claims tables: (group, label).
CLAIM_GROUPS = (
    ("holds", "Holds"),
    ("simpler", "Holds, and a simpler method or the strawman passes too"),
    ("fails", "Does not hold"),
    ("erratum", "Printed errors, typos and ambiguous text"),
    ("caused", "Fails because of a printed error"),
    ("shown", "Shown beside the paper, not judged"),
)


def claim_verdict(c: dict) -> tuple[str, str]:
    """A claim's verdict in words and its filter group (never "discriminating")."""
    kind, holds = c.get("kind", "check"), bool(c.get("holds"))
    if c.get("not_comparable") is not None:
        return "Shown beside the paper, not judged", "shown"
    if kind == "erratum":
        outcome = c.get("outcome")
        if outcome == "typo":
            return "Typo", "erratum"
        if outcome == "source text ambiguous":
            return "Source text ambiguous", "erratum"
        if holds:
            return "The printed text holds", "fails"
        if outcome is None:
            return "Printed error (re-reading pending)", "erratum"
        return "Printed error", "erratum"
    if kind == "check":
        if holds:
            return "Passes", "holds"
        if c.get("caused_by"):
            return "Fails because of a printed error", "caused"
        return "Fails", "fails"
    if not holds:
        return "Does not hold", "fails"
    comp = c.get("competitor")
    if isinstance(comp, dict) and comp.get("holds"):
        return "Holds; the simpler method passes too", "simpler"
    base = c.get("baseline")
    if isinstance(base, dict) and base.get("holds"):
        return "Holds; the strawman passes too", "simpler"
    return "Holds", "holds"


def _measured(c: dict) -> nodes.paragraph:
    cell = nodes.paragraph()
    cell += nodes.Text(_fmt(c.get("measured")))
    iv = c.get("interval")
    if isinstance(iv, dict):
        method = iv.get("method", "")
        cell += _muted(f"[{_fmt(iv['low'])}, {_fmt(iv['high'])}] {method}".strip(), "block")
    elif c.get("judge") == "exact":
        cell += _muted("exact", "block")
    elif c.get("seeds"):
        cell += _muted(f"{c['seeds']} seeds", "block")
    if c.get("criterion"):
        cell += _muted(f"criterion: {c['criterion']}", "block")
    return cell


def _arm(arm: dict, role: str) -> nodes.inline:
    text = f"{role} ({arm['name']}): {_fmt(arm.get('measured'))}"
    iv = arm.get("interval")
    if isinstance(iv, dict):
        text += f" [{_fmt(iv['low'])}, {_fmt(iv['high'])}]"
    text += ", passes too" if arm.get("holds") else ", fails"
    return nodes.inline("", text, classes=["block"])


def _arms_cell(c: dict) -> nodes.Node:
    cell = nodes.paragraph()
    base, comp = c.get("baseline"), c.get("competitor")
    if isinstance(comp, dict):
        cell += _arm(comp, "Simpler method")
    if isinstance(base, dict):
        cell += _arm(base, "Strawman")
    elif isinstance(base, str):
        cell += _muted(f"No strawman: {base}", "block")
    if not cell.children:
        cell += nodes.Text("—")
    return cell


# ------------------------------------------------------------------------------- directives


class HeadlineVerdicts(SphinxDirective):
    """The landing page: every paper's headline claims with their verdicts (one screen)."""

    has_content = True

    def _citations(self) -> dict[str, str]:
        out = {}
        for line in self.content:
            if ":" in line:
                nb, text = line.split(":", 1)
                out[nb.strip()] = text.strip()
        return out

    def run(self) -> list[nodes.Node]:
        from mlgeom.book.verdicts import VERDICTS

        cites = self._citations()
        tally_rows, cards = [], []
        for nb in book_notebooks(self.env):
            stem = nb.stem
            try:
                _, _, verdicts = load_chapter(self.env, stem)
            except (ValueError, json.JSONDecodeError) as exc:
                logger.warning(f"headline-verdicts: {exc}", location=self.get_location())
                continue
            anchor = f"headlines-{nodes.make_id(stem)}"
            paper = nodes.paragraph(classes=["hv-paper"])
            paper += _xref(None, "doc", f"/notebooks/{stem}", self.env.docname)
            if stem in cites:
                paper += nodes.Text(" — ")
                paper += _inline_myst(self, cites[stem])
            tally = nodes.paragraph(classes=["hv-tally"])
            if not verdicts:
                tally += _muted("headline claims not yet registered", "headlines-pending")
            counts = Counter(v.verdict for v in verdicts)
            for word in VERDICTS:
                if counts[word]:
                    ref = nodes.reference("", "", refid=anchor, classes=["hv-tally-item"])
                    ref += _badge(word)
                    ref += nodes.inline("", f" × {counts[word]}", classes=["hv-count"])
                    tally += ref
            tally_rows.append([paper, tally])

            card = nodes.container(classes=["hv-card"], ids=[anchor])
            head = nodes.paragraph(classes=["hv-card-title"])
            head += _xref(None, "doc", f"/notebooks/{stem}", self.env.docname)
            card += head
            if not verdicts:
                card += nodes.paragraph(
                    "",
                    "Headline claims not yet registered for this chapter; every claim it "
                    "checks is on its status page.",
                    classes=["headlines-pending"],
                )
            lines = nodes.bullet_list(classes=["hv-list"])
            for v in verdicts:
                item = nodes.list_item(classes=["hv-item"])
                p = nodes.paragraph()
                p += _badge(v.verdict)
                title = nodes.inline("", "", classes=["hv-title"])
                if v.section:
                    title += _xref(v.title, "ref", v.section, self.env.docname)
                else:
                    title += nodes.Text(v.title)
                p += title
                nums = f"ours {v.ours} · paper {v.paper}"
                p += nodes.abbreviation("", nums, classes=["hv-numbers"], explanation=nums)
                p += nodes.abbreviation("", v.why, classes=["hv-why"], explanation=v.why)
                item += p
                lines += item
            if verdicts:
                card += lines
            cards.append(card)
        tally = _table(["Paper", "Headline claims"], [45, 55], tally_rows, ["hv-tally-table"])
        return [nodes.container("", tally, *cards, classes=["headline-verdicts"])]


class VerdictDefinitions(SphinxDirective):
    """The five verdict words, each defined once, each a target ``verdict-<slug>``."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from mlgeom.book.verdicts import DEFINITIONS, VERDICTS

        std = self.env.get_domain("std")
        dl = nodes.definition_list(classes=["verdict-definitions"], ids=["verdict-definitions"])
        std.note_hyperlink_target(
            "verdict-definitions", self.env.docname, "verdict-definitions", "The verdicts"
        )
        for word in VERDICTS:
            slug = VERDICT_SLUGS[word]
            target = f"verdict-{slug}"
            item = nodes.definition_list_item()
            term = nodes.term(ids=[target])
            term += _badge(word)
            item += term
            text = DEFINITIONS[word]
            item += nodes.definition("", nodes.paragraph(text=text[:1].upper() + text[1:]))
            dl += item
            std.note_hyperlink_target(target, self.env.docname, target, word)
        return [dl]


class ChapterSummary(SphinxDirective):
    """A chapter's first-screen verdict box (ReScience C style)."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        stem = self.arguments[0]
        box = nodes.container(classes=["chapter-summary"])
        title = nodes.paragraph(classes=["chapter-summary-title"])
        title += nodes.strong("", "The paper's headline claims, reproduced?")
        box += title
        try:
            _, _, verdicts = load_chapter(self.env, stem)
        except (ValueError, json.JSONDecodeError) as exc:
            logger.warning(f"chapter-summary: {exc}", location=self.get_location())
            return [box]
        if not verdicts:
            p = nodes.paragraph(classes=["headlines-pending"])
            p += nodes.Text("Headline claims not yet registered for this chapter; every claim is ")
            p += _xref("on its status page", "doc", f"/book/status/{stem}", self.env.docname)
            p += nodes.Text(".")
            box += p
            return [box]
        rows = []
        any_comp = any(v.competitor for v in verdicts)
        for v in verdicts:
            claim = nodes.paragraph()
            if v.section:
                claim += _xref(v.title, "ref", v.section, self.env.docname)
            else:
                claim += nodes.Text(v.title)
            claim += _muted(v.why, "block", "cs-why")
            verdict = nodes.paragraph()
            verdict += _badge(v.verdict)
            if v.holm_dependent:
                verdict += nodes.inline("", " †", classes=["holm-mark"])
            row = [claim, verdict, nodes.Text(v.paper), nodes.Text(v.ours)]
            if any_comp:
                row.append(nodes.Text(v.competitor or "—"))
            rows.append(row)
        headers = ["Claim", "Verdict", "Paper", "Ours"]
        widths = [34, 17, 22, 14]
        if any_comp:
            headers.append("Simpler method")
            widths.append(14)
        box += _table(headers, widths, rows, ["chapter-summary-table", "colwidths-given"])
        if any(v.holm_dependent for v in verdicts):
            box += nodes.paragraph(
                "",
                "† Reproduced only without correcting for multiplicity: with Holm's correction "
                f"over this chapter's {len(verdicts)} headline claims, the supporting interval "
                "no longer clears the criterion.",
                classes=["holm-note"],
            )
        more = nodes.paragraph(classes=["cs-more"])
        more += nodes.Text("Verdict words: ")
        more += _xref("defined on the first page", "ref", "verdict-definitions", self.env.docname)
        more += nodes.Text("; every claim of the chapter: ")
        more += _xref("status page", "doc", f"/book/status/{stem}", self.env.docname)
        more += nodes.Text(".")
        box += more
        return [box]


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


def _run_report(directive: SphinxDirective, name: str) -> dict | None:
    path = Path(directive.env.srcdir) / "data" / "results" / "run-report.json"
    directive.env.note_dependency(str(path))
    if not path.exists():
        logger.warning(f"{name}: no run report {path}", location=directive.get_location())
        return None
    try:
        return load_run_report(path)
    except (ValueError, json.JSONDecodeError) as exc:
        logger.warning(f"{name}: {path}: {exc}", location=directive.get_location())
        return None


def run_sentence(report: dict, stem: str) -> str:
    """The chapter's last measured runs in words."""
    parts, machines = [], set()
    for profile in SHOWN_PROFILES:
        run = report.get(profile, {}).get(stem)
        if run is None:
            continue
        machines.add(run["machine"])
        parts.append(
            f"PROFILE={profile}: {run['wall_time_s']:.0f} s, peak memory "
            f"{run['peak_rss_mb']:.0f} MB ({str(run['date'])[:10]}, commit "
            f"{str(run['commit'])[:10]})"
        )
    if not parts:
        return "No run of this chapter is recorded yet (make run-times)."
    where = f" on {', '.join(sorted(machines))}" if machines else ""
    return f"Last measured runs{where}: " + "; ".join(parts) + "."


class RerunBox(SphinxDirective):
    """The "Rerun this chapter" box at the end of a chapter; its content is the chapter's."""

    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        stem = self.arguments[0]
        box = nodes.admonition(classes=["rerun-box"])
        box += nodes.title("", "Rerun this chapter")
        box += nodes.paragraph(
            "",
            "The page shows the stored run at the book's scale (PROFILE=book, fixed seeds); "
            "from a clone of the repository:",
        )
        commands = (
            f"make reproduce NB={stem}                 # the book's scale, outputs rewritten\n"
            f"make reproduce NB={stem} PROFILE=paper   # the paper's scale (slow)"
        )
        block = nodes.literal_block(commands, commands, language="bash")
        box += block
        report = _run_report(self, "rerun-box")
        if report is not None:
            box += nodes.paragraph("", run_sentence(report, stem), classes=["rerun-times"])
        if self.content:
            self.state.nested_parse(self.content, self.content_offset, box)
        return [box]


class ClaimsTable(SphinxDirective):
    """Every claim of a chapter, grouped by the chapter's sections, with a verdict filter."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        stem = self.arguments[0]
        try:
            record, registry, _ = load_chapter(self.env, stem)
        except (ValueError, json.JSONDecodeError) as exc:
            logger.warning(f"claims-table: {exc}", location=self.get_location())
            return []
        prov = load_provenance_map(self.env)
        titles = section_titles(self.env, stem)
        at_scale = self._paper_scale(stem)
        claims = record["claims"]
        by_section: dict[str | None, list[dict]] = {}
        for c in claims:
            by_section.setdefault(c.get("section"), []).append(c)
        groups = Counter(claim_verdict(c)[1] for c in claims)
        out: list[nodes.Node] = [self._filter(stem, groups)]
        for section, of_section in by_section.items():
            sid = f"claims-{nodes.make_id(stem)}-{nodes.make_id(section or 'other')}"
            sec = nodes.section(ids=[sid], classes=["claims-section"])
            title = nodes.title()
            if section and section in titles:
                title += _inline_myst(self, titles[section])
            else:
                title += nodes.Text(section or "Other claims")
            sec += title
            if section:
                p = nodes.paragraph(classes=["claims-section-link"])
                p += nodes.Text(f"{len(of_section)} claim{'s' * (len(of_section) != 1)}; ")
                p += _xref("the section in the chapter", "ref", section, self.env.docname)
                p += nodes.Text(".")
                sec += p
            rows, attrs = [], []
            for c in of_section:
                entry = registry.entries.get(c["id"])
                row = self._row(c, entry, prov.get(c["id"], {}), registry)
                if at_scale is not None:
                    row.append(_scale_cell(at_scale.get(c["id"])))
                rows.append(row)
                attrs.append(
                    {
                        "ids": [f"claim-{nodes.make_id(c['id'])}"],
                        "classes": ["claim-row", f"claim-group-{claim_verdict(c)[1]}"],
                    }
                )
            headers = ["Claim", "Paper", "Ours", "Verdict", "Strawman · simpler method"]
            headers.append("Registered")
            widths = [34, 9, 14, 12, 19, 12]
            if at_scale is not None:
                headers, widths = [*headers, "Paper's scale"], [31, 8, 13, 11, 17, 11, 9]
            sec += _table(headers, widths, rows, ["claims-table"], attrs)
            out.append(sec)
        return out

    def _paper_scale(self, stem: str) -> dict | None:
        """The committed PROFILE=paper run's claims by id (``data/results/paper/``), if any."""
        path = Path(self.env.srcdir) / "data" / "results" / "paper" / f"{stem}.json"
        self.env.note_dependency(str(path))
        if not path.exists():
            return None
        try:
            return {c["id"]: c for c in _load(path)["claims"]}
        except (ValueError, json.JSONDecodeError) as exc:
            logger.warning(f"claims-table: {path}: {exc}", location=self.get_location())
            return None

    def _filter(self, stem: str, groups: Counter) -> nodes.raw:
        from html import escape

        opts = [f'<option value="all">all {sum(groups.values())} claims</option>']
        for g, label in CLAIM_GROUPS:
            if groups[g]:
                opts.append(f'<option value="{g}">{escape(label)} ({groups[g]})</option>')
        html = (
            f'<div class="claims-filter"><label>Show: <select class="claims-filter-select" '
            f'data-chapter="{escape(stem)}">{"".join(opts)}</select></label></div>'
        )
        return nodes.raw("", html, format="html")

    def _row(self, c: dict, entry, prov: dict, registry) -> list[nodes.Node]:
        def field(name):
            v = c.get(name)
            if v is None and entry is not None:
                v = getattr(entry, name, None)
            return v

        claim = nodes.container(classes=["claim-cell"])
        anchor = nodes.paragraph(classes=["claim-statement"])
        anchor += nodes.abbreviation("", "#", classes=["claim-id"], explanation=c["id"])
        anchor += nodes.Text(" ")
        anchor += _inline_myst(self, c["statement"])
        claim += anchor
        if field("scope") == "beyond":
            claim += nodes.paragraph("", "", _muted("Beyond the paper: the book's own test."))
        if c.get("kind") == "erratum":
            claim += erratum_quote(
                {k: field(k) for k in ("printed", "location", "correction", "survives")}
            )
        if c.get("scale"):
            claim += nodes.paragraph("", "", _muted(f"Scale: {c['scale']}"))
        note = c.get("note") or (entry.note if entry is not None else None)
        if note:
            claim += nodes.paragraph("", "", nodes.emphasis("", f"Why: {note}"))
        words, group = claim_verdict({**c, "outcome": field("outcome")})
        verdict = nodes.paragraph()
        verdict += nodes.inline("", words, classes=["claim-verdict", f"claim-group-{group}"])
        caused = field("caused_by")
        if caused and c.get("kind") == "check" and not c.get("holds"):
            verdict += nodes.Text(" (")
            verdict += nodes.reference(
                "", "the erratum", refid=f"claim-{nodes.make_id(caused)}", classes=["caused-by"]
            )
            verdict += nodes.Text(")")
        return [
            claim,
            nodes.Text(_fmt(c.get("paper"))),
            _measured(c),
            verdict,
            _arms_cell(c) if c.get("kind") == "result" else nodes.Text("—"),
            nodes.Text(prov.get("status", "—")),
        ]


def _scale_cell(c: dict | None) -> nodes.Node:
    """The claim at the paper's scale: its measurement and verdict, "—" where not run."""
    if c is None:
        return nodes.Text("—")
    words, group = claim_verdict(c)
    cell = nodes.paragraph()
    cell += nodes.Text(_fmt(c.get("measured")))
    cell += nodes.inline("", words, classes=["block", "claim-verdict", f"claim-group-{group}"])
    return cell


def erratum_quote(fields: dict) -> nodes.Node:
    """The printed text quoted with its location, and the correction where there is one."""
    box = nodes.container(classes=["erratum-quote"])
    if fields.get("printed"):
        q = nodes.paragraph()
        q += nodes.strong("", "Printed")
        if fields.get("location"):
            q += nodes.Text(f" ({fields['location']})")
        q += nodes.Text(": “")
        q += nodes.emphasis("", fields["printed"])
        q += nodes.Text("”")
        box += q
    else:
        box += nodes.paragraph("", "", _muted("Quoted in the statement (re-reading pending)."))
    if fields.get("correction"):
        box += nodes.paragraph("", f"Correction: {fields['correction']}")
    if fields.get("survives"):
        box += nodes.paragraph("", f"Does the result survive? {fields['survives']}")
    return box


class StatusOverview(SphinxDirective):
    """The status page: verdict paragraphs, every headline claim, each chapter's counts."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from mlgeom.book.verdicts import VERDICTS

        chapters = []
        for nb in book_notebooks(self.env):
            try:
                chapters.append((nb.stem, *load_chapter(self.env, nb.stem)))
            except (ValueError, json.JSONDecodeError) as exc:
                logger.warning(f"status-overview: {exc}", location=self.get_location())
        every = [v for _, _, _, vs in chapters for v in vs]
        counts = Counter(v.verdict for v in every)
        out: list[nodes.Node] = []
        for word in VERDICTS:
            p = nodes.paragraph(classes=["status-verdict"])
            p += _badge(word)
            n = counts[word]
            which = [v for v in every if v.verdict == word]
            text = f" {n} headline claim{'s' * (n != 1)}"
            if which:
                papers = Counter(v.notebook for v in which)
                text += " (" + ", ".join(f"{k}: {m}" for k, m in papers.items()) + ")"
            p += nodes.Text(text + " (")
            p += _xref("definition", "ref", f"verdict-{VERDICT_SLUGS[word]}", self.env.docname)
            p += nodes.Text(").")
            out.append(p)
        if not every:
            out.append(
                nodes.paragraph(
                    "",
                    "No chapter has registered its headline claims yet; each chapter's claims "
                    "are counted below and listed on its own page.",
                    classes=["headlines-pending"],
                )
            )
        for stem, _record, _registry, verdicts in chapters:
            if not verdicts:
                continue
            head = nodes.rubric()
            head += _xref(None, "doc", f"/notebooks/{stem}", self.env.docname)
            out.append(head)
            rows = []
            for v in verdicts:
                claim = nodes.paragraph()
                if v.section:
                    claim += _xref(v.title, "ref", v.section, self.env.docname)
                else:
                    claim += nodes.Text(v.title)
                verdict = nodes.paragraph()
                verdict += _badge(v.verdict)
                verdict += _muted(v.why, "block")
                rows.append([claim, nodes.Text(v.paper), nodes.Text(v.ours), verdict])
            out.append(
                _table(["Claim", "Paper", "Ours", "Verdict"], [30, 20, 18, 32], rows, ["hv-status"])
            )
        out.append(self._counts(chapters))
        return out

    def _counts(self, chapters) -> nodes.table:
        rows = []
        for stem, record, registry, _ in chapters:
            claims = record["claims"]
            fields = {c["id"]: _registry_fields(c, registry) for c in claims}
            judged = [c for c in claims if c.get("not_comparable") is None]
            paper_results = [
                c for c in judged if c["kind"] == "result" and fields[c["id"]]["scope"] != "beyond"
            ]
            beyond = [c for c in judged if fields[c["id"]]["scope"] == "beyond"]
            errata = [c for c in claims if c["kind"] == "erratum" and not c["holds"]]
            minor = [
                c for c in errata if fields[c["id"]]["outcome"] in ("typo", "source text ambiguous")
            ]
            checks = [c for c in judged if c["kind"] == "check"]
            impl_fail = [c for c in checks if not c["holds"] and not fields[c["id"]]["caused_by"]]
            cell = nodes.paragraph()
            cell += _xref(None, "doc", f"/book/status/{stem}", self.env.docname)
            rows.append(
                [
                    cell,
                    nodes.Text(f"{sum(c['holds'] for c in paper_results)} of {len(paper_results)}"),
                    nodes.Text(f"{len(errata) - len(minor)} (+{len(minor)} typos or ambiguous)"),
                    nodes.Text(
                        f"{sum(c['holds'] for c in checks)} of {len(checks)}; "
                        f"{len(impl_fail)} failing"
                    ),
                    nodes.Text(f"{sum(c['holds'] for c in beyond)} of {len(beyond)}"),
                    nodes.Text(str(len(claims))),
                ]
            )
        return _table(
            [
                "Chapter (every claim)",
                "The paper's results that hold",
                "Printed errors",
                "Implementation checks passing",
                "Beyond the paper: holding",
                "All claims",
            ],
            [30, 14, 16, 16, 12, 8],
            rows,
            ["claims-counts-table"],
        )


def _registry_fields(c: dict, registry) -> dict:
    """The record's scope, outcome and caused_by, from the registry where the record lacks them."""
    entry = registry.entries.get(c["id"])
    out = {}
    for k, default in (("scope", "paper"), ("outcome", None), ("caused_by", None)):
        v = c.get(k)
        if v is None and entry is not None:
            v = getattr(entry, k, None)
        out[k] = default if v is None else v
    return out


class ErrataList(SphinxDirective):
    """Every erratum: the printed text quoted (location), our computation, the outcome."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        out: list[nodes.Node] = []
        for nb in book_notebooks(self.env):
            stem = nb.stem
            try:
                record, registry, _ = load_chapter(self.env, stem)
            except (ValueError, json.JSONDecodeError) as exc:
                logger.warning(f"errata-list: {exc}", location=self.get_location())
                continue
            errata = [c for c in record["claims"] if c["kind"] == "erratum"]
            if not errata:
                continue
            head = nodes.rubric()
            head += _xref(None, "doc", f"/notebooks/{stem}", self.env.docname)
            out.append(head)
            rows = []
            for c in errata:
                fields = _erratum_fields(c, registry)
                computation = nodes.paragraph()
                computation += _inline_myst(self, c["statement"])
                computation += _muted(
                    f"ours: {_fmt(c['measured'])} against the printed {c['criterion']}", "block"
                )
                outcome = nodes.paragraph()
                words, _ = claim_verdict({**c, "outcome": fields.get("outcome")})
                outcome += nodes.inline("", words, classes=["claim-verdict"])
                if c.get("section"):
                    outcome += nodes.inline("", "", classes=["block"])
                    outcome.children[-1] += _xref("evidence", "ref", c["section"], self.env.docname)
                rows.append([erratum_quote(fields), computation, outcome])
            out.append(
                _table(
                    ["Printed text (location)", "Our computation", "Outcome"],
                    [42, 42, 16],
                    rows,
                    ["errata-table"],
                )
            )
        if not out:
            out.append(nodes.paragraph("", "No chapter records an erratum."))
        return out


def _erratum_fields(c: dict, registry) -> dict:
    entry = registry.entries.get(c["id"])
    out = {}
    for k in ("printed", "location", "outcome", "correction", "survives"):
        v = c.get(k)
        if v is None and entry is not None:
            v = getattr(entry, k, None)
        out[k] = v
    return out


#: Internal names in registry text (claim ids, ``package.module.function``): three dotted words,
#: not decimals, versions or file names (the browser suite's rule for reader pages).
_ID_LIKE = re.compile(r"(?<![\w./-])[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*){2,}(?![\w/-]|\.\w)")


def _reader_text(text: str) -> str:
    """Shorten internal names to their last part for reader pages (ids stay on status pages)."""
    return _ID_LIKE.sub(lambda m: m.group(0).rsplit(".", 1)[-1], text)


class BeyondFindings(SphinxDirective):
    """What the book found beyond the papers, each item linked to its evidence."""

    has_content = False

    def _item(self, c: dict, stem: str, extra: list[nodes.Node]) -> nodes.list_item:
        item = nodes.list_item()
        p = nodes.paragraph()
        p += _inline_myst(self, _reader_text(c["statement"]))
        p += nodes.Text(" (")
        p += _xref(None, "doc", f"/notebooks/{stem}", self.env.docname)
        if c.get("section"):
            p += nodes.Text("; ")
            p += _xref("evidence", "ref", c["section"], self.env.docname)
        p += nodes.Text(")")
        item += p
        for e in extra:
            item += e
        return item

    def run(self) -> list[nodes.Node]:
        groups: dict[str, list[nodes.Node]] = {
            k: []
            for k in ("printed", "unread", "typo", "ambiguous", "beyond", "simpler", "withheld")
        }
        for nb in book_notebooks(self.env):
            stem = nb.stem
            try:
                record, registry, verdicts = load_chapter(self.env, stem)
            except (ValueError, json.JSONDecodeError) as exc:
                logger.warning(f"beyond-findings: {exc}", location=self.get_location())
                continue
            for c in record["claims"]:
                if c["kind"] == "erratum":
                    f = _erratum_fields(c, registry)
                    if c["holds"]:
                        key = "withheld"
                    elif f["outcome"] == "typo":
                        key = "typo"
                    elif f["outcome"] == "source text ambiguous":
                        key = "ambiguous"
                    elif f["outcome"] == "printed error":
                        key = "printed"
                    else:
                        key = "unread"
                    groups[key].append(self._item(c, stem, [erratum_quote(f)]))
                elif c.get("scope") == "beyond" or (
                    registry.entries.get(c["id"]) is not None
                    and registry.entries[c["id"]].scope == "beyond"
                ):
                    words, _ = claim_verdict(c)
                    groups["beyond"].append(
                        self._item(c, stem, [nodes.paragraph("", "", _muted(f"Verdict: {words}"))])
                    )
            for v in verdicts:
                if v.verdict != "Reproduced, but a simpler method does as well":
                    continue
                item = nodes.list_item()
                p = nodes.paragraph()
                if v.section:
                    p += _xref(v.title, "ref", v.section, self.env.docname)
                else:
                    p += nodes.Text(v.title)
                p += nodes.Text(f": {_reader_text(v.why)}.")
                item += p
                groups["simpler"].append(item)
        titles = {
            "printed": "Printed errors, with their corrections and whether the result survives",
            "unread": "Printed errors awaiting the independent re-reading",
            "typo": "Typos (noted, not errors of the mathematics)",
            "ambiguous": "Source text ambiguous",
            "withheld": "Suspected errors the computation does not confirm",
            "simpler": "Headline claims where a simpler method does as well",
            "beyond": "The book's own tests, ablations and findings (beyond the papers)",
        }
        empty = {
            "printed": "No erratum has been confirmed as a printed error by the re-reading yet.",
            "simpler": "No headline claim is matched by its simpler method, or the chapters "
            "have not registered their headline claims yet.",
            "beyond": "No claim is registered as beyond the papers yet.",
        }
        out: list[nodes.Node] = []
        for key in ("printed", "unread", "typo", "ambiguous", "withheld", "simpler", "beyond"):
            items = groups[key]
            if not items and key not in empty:
                continue
            sec = nodes.section(ids=[f"beyond-{key}"], classes=["beyond-group"])
            sec += nodes.title("", titles[key])
            if items:
                bl = nodes.bullet_list(classes=["beyond-list"])
                for it in items:
                    bl += it
                sec += bl
            else:
                sec += nodes.paragraph("", empty[key], classes=["claim-muted"])
            out.append(sec)
        return out


class RunTimes(SphinxDirective):
    """Render the last measured wall time and peak memory of every notebook at every profile.

    The numbers come from ``make run-times`` (``mlgeom.book.reproduce --record-times``), which
    rewrites ``data/results/run-report.json`` from a clean checkout; nothing is timed at build
    time. Only the ``book`` and ``paper`` runs are shown; a run of uncommitted code is a
    warning.
    """

    has_content = False

    def run(self) -> list[nodes.Node]:
        report = _run_report(self, "run-times")
        if report is None:
            return []
        in_book = [nb.stem for nb in book_notebooks(self.env)]
        runs = [
            (stem, profile, report[profile][stem])
            for stem in in_book
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
                _xref(None, "doc", f"/notebooks/{stem}", self.env.docname),
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
        headers = ["Chapter", "Profile", "Wall time", "Peak memory", "Date", "Commit"]
        widths = [34, 9, 10, 11, 12, 12]
        if len(machines) > 1:
            headers, widths = [*headers, "Machine"], [*widths, 23]
        out: list[nodes.Node] = []
        if len(machines) == 1:
            out.append(nodes.paragraph(text=f"Machine: {machines[0]}."))
        out.append(_table(headers, widths, rows, ["run-times"]))
        return out


# ----------------------------------------------------------- maths in cross-reference texts


class MathInReferenceTitles(SphinxPostTransform):
    """Keep the maths of a section's or a page's title in the links that borrow it.

    Sphinx fills a ``{ref}`` or ``{doc}`` link without its own text with the target title's
    plain text, so ``$\\alpha$`` in a heading reaches the reader as ``\\alpha``. Before the
    references are resolved, such a link is resolved here with a copy of the title's nodes
    (maths included) when the title has maths; every other link is left to Sphinx.
    """

    default_priority = 5  # before sphinx.transforms.post_transforms.ReferencesResolver (10)
    formats = ("html",)

    def run(self, **kwargs) -> None:
        env = self.env
        cache = env.app.__dict__.setdefault("_mlgeom_title_cache", {})
        std = env.get_domain("std")
        for node in list(self.document.findall(pending_xref)):
            if node.get("refdomain") != "std" or node.get("refexplicit"):
                continue
            reftype, target = node.get("reftype"), node.get("reftarget", "")
            if reftype == "ref":
                label = target.lower()
                if label not in std.labels:
                    continue
                docname, labelid, _ = std.labels[label]
                title = self._section_title(cache, docname, labelid)
            elif reftype == "doc":
                from sphinx.util import docname_join

                docname = docname_join(node.get("refdoc", env.docname), target)
                if docname not in env.titles:
                    continue
                labelid, title = "", env.titles[docname]
            else:
                continue
            if title is None or not any(True for _ in title.findall(nodes.math)):
                continue
            inner = nodes.inline("", "", classes=["xref", "std", f"std-{reftype}"])
            inner += [child.deepcopy() for child in title.children]
            ref = make_refnode(self.app.builder, self.env.docname, docname, labelid, inner)
            node.replace_self(ref)

    def _section_title(self, cache: dict, docname: str, labelid: str):
        """The title node of the section ``labelid`` of ``docname`` (each doctree read once)."""
        if docname not in cache:
            titles: dict[str, nodes.title] = {}
            try:
                tree = self.env.get_doctree(docname)
            except Exception:  # noqa: BLE001 - an unreadable doctree: leave the link to Sphinx
                tree = None
            if tree is not None:
                for sec in tree.findall(nodes.section):
                    if sec.children and isinstance(sec[0], nodes.title):
                        for i in sec["ids"]:
                            titles[i] = sec[0]
            cache[docname] = titles
        return cache[docname].get(labelid)


def _add_static(app, config):
    config.html_static_path.append(str(Path(__file__).parent / "static"))


def setup(app):
    app.add_directive("headline-verdicts", HeadlineVerdicts)
    app.add_directive("verdict-definitions", VerdictDefinitions)
    app.add_directive("chapter-summary", ChapterSummary)
    app.add_directive("rerun-box", RerunBox)
    app.add_directive("claims-table", ClaimsTable)
    app.add_directive("status-overview", StatusOverview)
    app.add_directive("errata-list", ErrataList)
    app.add_directive("beyond-findings", BeyondFindings)
    app.add_directive("run-times", RunTimes)
    app.add_post_transform(MathInReferenceTitles)
    app.connect("config-inited", _add_static)
    app.add_css_file("claims_status.css")
    app.add_js_file("claims_filter.js")
    return {"version": "2.0", "parallel_read_safe": True, "parallel_write_safe": True}
