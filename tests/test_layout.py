"""The package's layers: no import circle, no import pointing upward or sideways.

The layers (see the docstring of :mod:`mlgeom`): primitives at the top of the package, then the
book machinery (``mlgeom.book``) and the shared algorithms (``mlgeom.algorithms``), then one
subpackage per chapter. Every ``import`` statement counts, including those inside functions.
"""

import ast
from pathlib import Path

import pytest

import mlgeom

SRC = Path(mlgeom.__file__).resolve().parent
CHAPTERS = ("primer", "metric_nn", "fenchel_young", "multiscale", "hierarchical")
LOWER = ("book", "algorithms")


def module_names(src: Path = SRC) -> dict[str, Path]:
    """Dotted name of every module of the package (a package is named by its ``__init__``)."""
    out = {}
    for path in sorted(src.rglob("*.py")):
        parts = ["mlgeom", *path.relative_to(src).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _resolve(name: str, known: set[str]) -> str | None:
    """The module an import names: the longest known prefix of ``name``."""
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        candidate = ".".join(parts[:n])
        if candidate in known:
            return candidate
    return None


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Edges ``module -> module it imports`` within the package (all imports, lazy ones too)."""
    known = set(modules)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for mod, path in modules.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join([*anchor, base]) if base else ".".join(anchor)
                # ``from pkg import sub`` imports the submodule ``pkg.sub`` when there is one
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
                ]
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "attach"
                and len(node.args) == 2
                and isinstance(node.args[1], ast.Dict)
            ):  # lazy exports of a subpackage (mlgeom._lazy.attach): module -> names
                for key in node.args[1].keys:
                    sub = key.value
                    targets.append(sub if sub.startswith("mlgeom.") else f"{package}.{sub}")
            for t in targets:
                if t.split(".")[0] != "mlgeom":
                    continue
                target = _resolve(t, known)
                if target is not None and target != mod:
                    graph[mod].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle as a list of modules (first == last), or ``None``."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def layer(module: str) -> tuple[int, str]:
    """``(rank, group)``: 0 primitives, 1 book machinery or shared algorithms, 2 a chapter."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in LOWER:
        return 1, parts[1]
    if len(parts) > 1 and parts[1] in CHAPTERS:
        return 2, parts[1]
    return 0, "primitives"


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Imports that point to a higher layer or sideways to another group of the same layer."""
    bad = []
    for src, targets in sorted(graph.items()):
        rank, group = layer(src)
        for dst in sorted(targets):
            r2, g2 = layer(dst)
            if r2 > rank or (r2 == rank and g2 != group):
                bad.append(f"{src} ({group}) imports {dst} ({g2})")
    return bad


def test_every_subpackage_is_a_known_layer():
    subpackages = {p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()}
    assert subpackages == set(CHAPTERS) | set(LOWER)


def test_no_import_circle():
    cycle = find_cycle(import_graph(module_names()))
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_imports_point_only_downward():
    assert layer_violations(import_graph(module_names())) == []


def test_chapter_init_exports_its_notebook_api():
    """Each chapter exports a non-empty ``__all__`` whose names all exist."""
    import importlib

    for name in CHAPTERS:
        pkg = importlib.import_module(f"mlgeom.{name}")
        assert pkg.__doc__ and "module" in pkg.__doc__, name
        assert pkg.__all__, name
        missing = [n for n in pkg.__all__ if not hasattr(pkg, n)]
        assert not missing, (name, missing)


def test_exports_follow_each_modules_all():
    """A subpackage exports each module's ``__all__`` (less ``main``): the lists cannot drift."""
    import importlib

    for name in (*LOWER, *CHAPTERS):
        pkg = importlib.import_module(f"mlgeom.{name}")
        by_module: dict[str, set[str]] = {}
        for export, module in pkg.__exports__.items():
            by_module.setdefault(module, set()).add(export)
        for module, names in by_module.items():
            declared = set(importlib.import_module(module).__all__) - {"main"}
            assert names == declared, (name, module, sorted(names ^ declared))


def test_no_exported_name_shadows_a_submodule():
    """``from mlgeom.pkg import sub`` must give the module, not a function exported as ``sub``."""
    import importlib
    import pkgutil

    for name in (*LOWER, *CHAPTERS):
        pkg = importlib.import_module(f"mlgeom.{name}")
        submodules = {m.name for m in pkgutil.iter_modules(pkg.__path__)}
        assert not submodules & set(pkg.__all__), name


# -- the checker itself can fail ------------------------------------------------------------
def _write(root: Path, files: dict[str, str]) -> dict[str, Path]:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return module_names(root)


def test_checker_finds_a_circle_through_a_lazy_import(tmp_path):
    mods = _write(
        tmp_path,
        {
            "__init__.py": "",
            "hierarchical/__init__.py": "",
            "hierarchical/a.py": "from mlgeom.hierarchical.b import f\n",
            "hierarchical/b.py": "def f():\n    from mlgeom.hierarchical import a\n",
        },
    )
    cycle = find_cycle(import_graph(mods))
    assert cycle is not None and cycle[0] == cycle[-1] and len(cycle) == 3


def test_checker_sees_lazy_exports(tmp_path):
    mods = _write(
        tmp_path,
        {
            "__init__.py": "",
            "algorithms/__init__.py": "attach(__name__, {'mlgeom.primer.x': ['f']})\n",
            "primer/__init__.py": "",
            "primer/x.py": "",
        },
    )
    assert layer_violations(import_graph(mods)) == [
        "mlgeom.algorithms (algorithms) imports mlgeom.primer.x (primer)"
    ]


def test_checker_finds_a_submodule_importing_its_own_package(tmp_path):
    mods = _write(
        tmp_path,
        {
            "__init__.py": "",
            "primer/__init__.py": "from .x import g\n",
            "primer/x.py": "from mlgeom.primer import g as h\n",
        },
    )
    assert find_cycle(import_graph(mods)) is not None


@pytest.mark.parametrize(
    "files, expected",
    [
        ({"parallel.py": "from mlgeom.metric_nn.experiments import k\n"}, "primitives"),
        ({"book/claims.py": "import mlgeom.hierarchical.learners\n"}, "book"),
        ({"algorithms/k.py": "from mlgeom.book import tables\n"}, "algorithms"),
        ({"primer/x.py": "from mlgeom.hierarchical.taxonomy import T\n"}, "primer"),
    ],
)
def test_checker_finds_upward_and_sideways_imports(tmp_path, files, expected):
    base = {
        "__init__.py": "",
        "book/__init__.py": "",
        "book/tables.py": "",
        "algorithms/__init__.py": "",
        "metric_nn/__init__.py": "",
        "metric_nn/experiments.py": "",
        "hierarchical/__init__.py": "",
        "hierarchical/learners.py": "",
        "hierarchical/taxonomy.py": "",
        "primer/__init__.py": "",
    }
    bad = layer_violations(import_graph(_write(tmp_path, {**base, **files})))
    assert len(bad) == 1 and f"({expected}) imports" in bad[0]
