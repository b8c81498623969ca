"""Every notebook keeps the book's contract; each runs end to end at the smoke profile."""

import ast
import importlib
import importlib.util
import json
import re
from pathlib import Path

import jupytext
import nbformat
import papermill as pm
import pytest
import yaml

from mlgeom.book.claims import load_record
from tests.test_layout import CHAPTERS

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
IDS = [p.stem for p in NOTEBOOKS]


def _code(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


@pytest.fixture(params=NOTEBOOKS, ids=IDS)
def notebook(request):
    return request.param, nbformat.read(request.param, as_version=4)


def test_there_are_notebooks():
    assert "geometry_primer" in IDS


def test_parameters_cell_defaults_to_the_book_profile(notebook):
    _, nb = notebook
    params = [c for c in _code(nb) if "parameters" in c.metadata.get("tags", [])]
    assert len(params) == 1, "exactly one papermill parameters cell"
    namespace: dict = {}
    exec(params[0].source, namespace)  # a parameters cell holds plain assignments
    assert namespace["PROFILE"] == "book"
    assert not any("injected-parameters" in c.metadata.get("tags", []) for c in nb.cells)


def test_stored_outputs_are_complete_and_error_free(notebook):
    _, nb = notebook
    code = _code(nb)
    assert all(c.execution_count is not None for c in code), "every code cell executed"
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), "executed in order"
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert not errors
    assert sum("nbval-check-output" in c.metadata.get("tags", []) for c in code) >= 3


def _chapter_import(source: str) -> tuple[str, str] | None:
    """``(package, alias)`` of the set-up cell's ``from mlgeom import <chapter> [as A]``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "mlgeom":
            for alias in node.names:
                if alias.name in CHAPTERS:
                    return alias.name, alias.asname or alias.name
    return None


def test_setup_cell_imports_one_chapter_and_uses_only_its_exports(notebook):
    """A short set-up cell; every ``A.name`` the notebook uses is in its chapter's ``__all__``."""
    path, nb = notebook
    code = _code(nb)
    setup = next(c for c in code if "from mlgeom" in c.source)
    found = _chapter_import(setup.source)
    assert found, f"{path.name}: the set-up cell must import `from mlgeom import <chapter>`"
    package, alias = found
    mlgeom_lines = [ln for ln in setup.source.splitlines() if ln.startswith("from mlgeom")]
    assert len(mlgeom_lines) <= 6, mlgeom_lines
    chapter = importlib.import_module(f"mlgeom.{package}")
    used = set()
    for cell in code:
        for node in ast.walk(ast.parse(cell.source)):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == alias
            ):
                used.add(node.attr)
    assert used, f"{path.name} never uses {alias}"
    assert sorted(used - set(chapter.__all__)) == []


def test_no_verdict_is_typed(notebook):
    _, nb = notebook
    source = "\n".join(c.source for c in _code(nb))
    assert not re.search(r"holds\s*[=:]\s*(True|False)", source)


def test_markdown_twin_is_in_sync(notebook):
    path, nb = notebook
    twin = jupytext.read(path.with_suffix(".md"))
    ours = [(c.cell_type, c.source.strip()) for c in nb.cells]
    theirs = [(c.cell_type, c.source.strip()) for c in twin.cells]
    assert ours == theirs, f"{path.name} and its .md differ: run jupytext --sync {path}"


def test_claims_link_to_existing_sections(notebook):
    path, nb = notebook
    record = load_record(ROOT / "data" / "results" / f"{path.stem}.json")
    assert record["notebook"] == path.stem and record["profile"] == "book"
    labels = set(
        re.findall(
            r"^\(([\w-]+)\)=",
            "\n".join(c.source for c in nb.cells if c.cell_type == "markdown"),
            re.M,
        )
    )
    for claim in record["claims"]:
        assert claim.get("section") in labels, (
            f"{claim['id']}: section {claim.get('section')!r} not in {path.name}"
        )
        if not claim["holds"]:
            assert claim.get("note") or claim["paper"] is not None, (
                f"{claim['id']} fails without a reason"
            )


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_runs_end_to_end_at_the_smoke_profile(path, tmp_path, monkeypatch):
    monkeypatch.setenv("MLGEOM_RESULTS", str(tmp_path / "results"))
    out = tmp_path / path.name
    pm.execute_notebook(
        str(path),
        str(out),
        parameters={"PROFILE": "smoke"},
        cwd=str(path.parent),
        kernel_name="python3",
        progress_bar=False,
    )
    record = load_record(tmp_path / "results" / "smoke" / f"{path.stem}.json")
    assert record["profile"] == "smoke" and record["claims"]
    committed = load_record(ROOT / "data" / "results" / f"{path.stem}.json")
    assert {c["id"] for c in record["claims"]} == {c["id"] for c in committed["claims"]}


def _status_extension():
    spec = importlib.util.spec_from_file_location(
        "claims_status", ROOT / "book" / "_ext" / "claims_status.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_status_extension_validates_records(tmp_path):
    ext = _status_extension()
    good = ROOT / "data" / "results" / "geometry_primer.json"
    assert ext._load(good)["claims"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"notebook": "bad", "profile": "book", "claims": [{"id": "x"}]}))
    with pytest.raises(ValueError, match="misses"):
        ext._load(bad)
    bad.write_text(json.dumps({"notebook": "bad"}))
    with pytest.raises(ValueError, match="missing key 'profile'"):
        ext._load(bad)


def test_status_page_lists_every_claim():
    """Each chapter's status page (``book/status/<notebook>``) carries every claim's id."""
    pages = ROOT / "_build" / "html" / "book" / "status"
    if not pages.is_dir():
        pytest.skip("book not built yet (make book); the strict build in make test checks the page")
    missing = []
    for path in NOTEBOOKS:
        html = pages / f"{path.stem}.html"
        text = html.read_text(encoding="utf-8") if html.exists() else ""
        missing += [
            claim["id"]
            for claim in load_record(ROOT / "data" / "results" / f"{path.stem}.json")["claims"]
            if f'title="{claim["id"]}"' not in text
        ]
    assert not missing, (
        f"_build/html/book/status/ is older than the claims records ({len(missing)} claims "
        f"missing, e.g. {missing[:3]}): rebuild the book with `make book`"
    )


# --- Launch, glue, labels and citations: the book as readers and researchers use it ----------

CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
BIB = (ROOT / "book" / "references.bib").read_text(encoding="utf-8")

LAUNCH_CELL = """\
# On Colab or Binder: fetch the book and install its package. Locally (and in CI) mlgeom is
# already installed and this cell does nothing.
import importlib.util

if importlib.util.find_spec("mlgeom") is None:
    import os
    import subprocess
    import sys

    subprocess.run(["git", "clone", "--depth", "1", "{url}", "mlgeom-book"], check=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "mlgeom-book"], check=True)
    os.chdir("mlgeom-book/notebooks")"""

GLUE_ROLE = re.compile(r"\{glue(?::(?:any|text|md|math|figure))?\}`([^`]+)`")
GLUE_DIRECTIVE = re.compile(r"^[`:]{3,}\{glue(?::\w+)?\}[ \t]+(\S+)", re.M)
REF_ROLE = re.compile(r"\{(?:numref|ref)\}`([^`]+)`")
NUMREF_ROLE = re.compile(r"\{numref\}`([^`]+)`")
CITE_ROLE = re.compile(r"\{cite(?::\w+)?\}`([^`]+)`")
LABEL = re.compile(r"^\(([\w.-]+)\)=\s*$", re.M)
NAME_OPTION = re.compile(r"^:(?:name|label):[ \t]+(\S+)", re.M)
TABLE_DIRECTIVE = re.compile(r"^[`:]{3,}\{table\}[ \t]*(.*)\n((?::[\w-]+:.*\n)*)", re.M)

#: Data sets a chapter may use, recognised in its code, and the entries it must then cite.
DATASETS = {
    r"digits": {"alpaydin1998optdigits"},
    r"rcv1": {"lewis2004rcv1"},
    r"ohsumed": {"hersh1994ohsumed", "nlm_mesh"},
    r"\bmesh(?:\b|_)|mtrees": {"nlm_mesh"},
}


def _markdown(nb) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def _target(role_text: str) -> str:
    """`text <target>` or `target` -> target."""
    m = re.search(r"<([^<>]+)>\s*$", role_text)
    return (m.group(1) if m else role_text).strip()


def _glued(nb) -> dict[str, str]:
    """Glue keys stored in the notebook's outputs, with their text value."""
    out = {}
    for c in _code(nb):
        for o in c.outputs:
            name = o.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                data = o.get("data", {})
                out[name] = str(data.get("application/papermill.record/text/plain", "")).strip(
                    "'\""
                )
    return out


def _labels(nb) -> set[str]:
    md = _markdown(nb)
    labels = set(LABEL.findall(md)) | set(NAME_OPTION.findall(md))
    for c in _code(nb):
        name = c.metadata.get("mystnb", {}).get("figure", {}).get("name")
        if name:
            labels.add(name)
    return labels


def _book_labels() -> set[str]:
    labels = set()
    for p in NOTEBOOKS:
        labels |= _labels(nbformat.read(p, as_version=4))
    for p in (ROOT / "book").rglob("*.md"):  # the appendix pages hold labels too
        text = p.read_text(encoding="utf-8")
        labels |= set(LABEL.findall(text)) | set(NAME_OPTION.findall(text))
    return labels


def _shown(cell) -> bool:
    return not {"remove-output", "remove-cell"} & set(cell.metadata.get("tags", []))


def _launch_url() -> str:
    """The configured repository (``repository.url``); unset, the URL the launch cells share."""
    url = CONFIG["repository"]["url"]
    if url:
        return url
    cells = [_code(nbformat.read(path, as_version=4))[0].source for path in NOTEBOOKS]
    found = {u for source in cells for u in re.findall(r'"(https://[^"]+)"', source)}
    assert len(found) == 1, f"the launch cells clone different repositories: {sorted(found)}"
    return found.pop()


def test_first_code_cell_installs_the_book_on_colab_and_binder(notebook):
    path, nb = notebook
    first = _code(nb)[0]
    url = _launch_url()
    assert first.source.strip() == LAUNCH_CELL.replace("{url}", url), (
        f"{path.name}: the first code cell must be the launch cell (see tests/test_notebooks.py)"
    )
    assert {"remove-cell", "launch-install"} <= set(first.metadata.get("tags", []))
    assert not first.outputs, "where mlgeom is installed the launch cell does nothing"


def test_launch_cell_clones_the_configured_repository():
    url = CONFIG["repository"]["url"]
    if not url:
        pytest.skip(
            "repository.url is unset in _config.yml (no repository buttons are shown): set it to "
            "publish, with the same URL in each notebook's launch cell"
        )
    assert re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+", url), url
    for path in NOTEBOOKS:
        source = _code(nbformat.read(path, as_version=4))[0].source
        assert re.findall(r'"(https://[^"]+)"', source) == [url], path.name


def test_every_glued_key_in_the_text_is_computed(notebook):
    path, nb = notebook
    md = _markdown(nb)
    used = {k.split(":", 1)[0].strip() for k in GLUE_ROLE.findall(md)}
    used |= set(GLUE_DIRECTIVE.findall(md))
    missing = sorted(used - set(_glued(nb)))
    assert not missing, f"{path.name}: glue keys quoted in the text but never glued: {missing}"


def test_every_cross_reference_resolves(notebook):
    path, nb = notebook
    targets = _book_labels()
    missing = sorted({_target(r) for r in REF_ROLE.findall(_markdown(nb))} - targets)
    assert not missing, f"{path.name}: {{ref}}/{{numref}} targets that do not exist: {missing}"


def test_every_figure_and_table_is_captioned_named_and_referenced(notebook):
    path, nb = notebook
    md = _markdown(nb)
    names = []
    for c in _code(nb):
        figure = c.metadata.get("mystnb", {}).get("figure", {})
        data = [o.get("data", {}) for o in c.outputs]
        where = f"{path.name}, cell {c.source.splitlines()[0]!r}"
        if _shown(c) and any(k.startswith("image/") for d in data for k in d):
            assert figure.get("name") and figure.get("caption"), f"uncaptioned figure: {where}"
        if _shown(c) and any("<table" in str(d.get("text/html", "")) for d in data):
            pytest.fail(
                f"table shown as a raw output, without number or caption: {where}; glue it and "
                "show it in a named {table} (and tag the cell remove-output)"
            )
        if figure.get("name"):
            names.append(figure["name"])
    for caption, options in TABLE_DIRECTIVE.findall(md):
        name = NAME_OPTION.findall(options)
        assert caption.strip() and name, f"{path.name}: a {{table}} needs a caption and a :name:"
        names += name
    referenced = {_target(r) for r in NUMREF_ROLE.findall(md)}
    unreferenced = [n for n in names if n not in referenced]
    assert not unreferenced, f"{path.name}: never referenced with {{numref}}: {unreferenced}"
    assert len(names) == len(set(names)), f"{path.name}: duplicate figure/table names"


def _bib_keys() -> list[str]:
    return re.findall(r"^@\w+\{([^,\s]+),", BIB, re.M)


def _bib_entry(key: str) -> str:
    start = BIB.index(f"{{{key},")
    end = BIB.find("\n@", start)
    return BIB[start : end if end > 0 else None]


def test_bibliography_keys_are_unique():
    keys = _bib_keys()
    assert len(keys) == len(set(keys)), sorted(k for k in set(keys) if keys.count(k) > 1)


def test_datasets_are_cited_with_their_terms():
    for keys in DATASETS.values():
        for key in keys:
            note = re.search(r"note\s*=\s*\{(.+?)\}\s*\n\}", _bib_entry(key), re.S)
            assert note and re.search(r"licen[cs]e|terms|agreement|use", note.group(1), re.I), (
                f"{key}: a data set's entry states its terms in a note"
            )


def test_citations_exist_and_datasets_are_cited_where_used(notebook):
    path, nb = notebook
    md = _markdown(nb)
    cited = {k.strip() for group in CITE_ROLE.findall(md) for k in group.split(",")}
    unknown = sorted(cited - set(_bib_keys()))
    assert not unknown, f"{path.name}: cited but not in book/references.bib: {unknown}"
    code = "\n".join(c.source for c in _code(nb)[1:])  # the launch cell names no data
    for pattern, keys in DATASETS.items():
        if re.search(pattern, code, re.I):
            assert keys <= cited, f"{path.name} uses {pattern!r} data but does not cite {keys}"


# A number typed in prose that equals one of the notebook's results (a glued value or a claim's
# measured value, at the precision typed) should have been glued. The paper's own numbers are
# typed legitimately, so a number that also equals a claim's paper value is not flagged.
NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+\.\d+|\d+)(?![\w.,]\d)(?![A-Za-z\d])")


NUMBERED_THING = re.compile(
    r"\b(?:Theorem|Lemma|Section|Assumption|Corollary|Definition|Appendix|Claim|eq|Figure|Table"
    r"|Proposition|Remark|Algorithm|Chapter|Example|Slide|CC BY)s?\.?\s*\(?[A-Z]?\d+(?:\.\d+)*\)?"
    r"(?:(?:,|\s+and|\s*[–-])\s*\(?[A-Z]?\d+(?:\.\d+)*\)?)*"
)


def _numbers(value) -> list[float]:
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, int | float):
        return [float(value)]
    return [float(t.replace(",", "")) for t in NUMBER.findall(str(value))]


def _typed_results(
    markdown: str, results: list[float], papers: list[float], quoting: re.Pattern | None = None
) -> list[str]:
    text = GLUE_ROLE.sub(" ", markdown)
    if quoting is not None:  # drop the sentences that quote the paper
        text = " ".join(t for t in re.split(r"(?<=[.!?])\s+", text) if not quoting.search(t))
    text = re.sub(r"\{(?:cite|ref|numref|doc)(?::\w+)?\}`[^`]*`", " ", text)
    text = re.sub(r"^[`:]{3,}.*$|^:[\w-]+:.*$|^\([\w.-]+\)=$", " ", text, flags=re.M)
    text = NUMBERED_THING.sub(" ", text)  # "Theorem 4.2", "Sections 2.3 and 3.1", "eq. (13)"
    flagged = []
    for token in NUMBER.findall(text):
        plain = token.replace(",", "")
        decimals = len(plain.split(".")[1]) if "." in plain else 0
        digits = len(plain.replace(".", "").lstrip("0"))
        if digits < 3 and decimals == 0 or digits < 2:
            continue  # small integers: counts and inputs, not results
        x = float(plain)

        def same(v, x=x, decimals=decimals):
            return round(v, decimals) == x

        if any(same(v) for v in results) and not any(same(v) for v in papers):
            flagged.append(token)
    return flagged


def test_typed_result_detector_can_fail():
    md = "Slope 0.487 (Theorem 4.87), paper 0.5; we ran 2,000 rounds ({glue:text}`k`)."
    assert _typed_results(md, [0.48712, 2000.0, 4.87], [0.5]) == ["0.487", "2,000"]
    assert _typed_results(md, [0.48712], [0.487]) == []
    quote = "The paper runs 2,000 rounds. We run 2,000 too."
    assert _typed_results(quote, [2000.0], [], quoting=QUOTING) == ["2,000"]


def test_no_result_is_typed_in_the_prose(notebook):
    path, nb = notebook
    record = load_record(ROOT / "data" / "results" / f"{path.stem}.json")
    results = [v for text in _glued(nb).values() for v in _numbers(text)]
    results += [v for c in record["claims"] for v in _numbers(c["measured"])]
    papers = [v for c in record["claims"] for v in _numbers(c["paper"])]
    typed = _typed_results(_markdown(nb), results, papers)
    assert not typed, f"{path.name}: results typed in the prose instead of glued: {typed}"


def _profile_values(nb) -> list[float]:
    """Numbers that a `pick(PROFILE, ...)` call gives the book profile and not the smoke one."""
    out = []
    for c in _code(nb):
        for node in ast.walk(ast.parse(c.source)):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "pick"):
                continue
            kw = {k.arg: k.value for k in node.keywords}
            try:
                book, smoke = (ast.literal_eval(kw[p]) for p in ("book", "smoke"))
            except (KeyError, ValueError):
                continue  # computed arguments: nothing literal to compare
            smoke_numbers = set(_numbers(smoke))
            out += [v for v in _numbers(book) if v not in smoke_numbers]
    return out


#: A sentence that names the paper (its page, slides, printed text) may quote the paper's own
#: scale even where a book-profile parameter happens to equal it.
QUOTING = re.compile(r"\b(?:paper|page|slides?|printed|prints)\b", re.I)


def test_no_profile_dependent_parameter_is_typed_in_the_prose(notebook):
    path, nb = notebook
    typed = _typed_results(_markdown(nb), _profile_values(nb), [], quoting=QUOTING)
    assert not typed, f"{path.name}: book-profile parameters typed instead of glued: {typed}"
