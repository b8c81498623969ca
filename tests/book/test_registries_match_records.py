"""Every chapter's committed record measures exactly its registry's claims, as registered.

A notebook that measures an id its registry lacks, a registry entry never measured, or a record
whose statement, kind, paper value, baseline or judge differs from the reviewed registry fails
here, one test per notebook and property.
"""

from pathlib import Path

import pytest

from mlgeom.book.claims import load_record
from mlgeom.book.registry import load_registry

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
RESULTS = ROOT / "data" / "results"
#: The book-profile records, and the paper-profile records that exist.
CASES = [pytest.param(nb, "book", id=nb) for nb in NOTEBOOKS] + [
    pytest.param(nb, "paper", id=f"paper-{nb}")
    for nb in NOTEBOOKS
    if (RESULTS / "paper" / f"{nb}.json").exists()
]
#: An interval claim of the book profile rests on at least this many seeds.
MIN_SEEDS = 10


def test_the_chapters_are_found():
    assert {
        "geometry_primer",
        "max_margin_multiclass_nn",
        "fenchel_young_surrogate_regret",
        "lp_multiscale_kernels",
        "hierarchical_classification",
    } <= set(NOTEBOOKS)


def registry(nb):
    return load_registry(nb, ROOT / "data" / "claims" / f"{nb}.toml")


def record(nb, profile):
    folder = RESULTS if profile == "book" else RESULTS / profile
    return load_record(folder / f"{nb}.json")


def pairs(nb, profile):
    """Each registry entry with its record claim (ids must match first).

    A ``paper`` snapshot may lag behind the registry by claims added since it was run (the
    status page shows "—" for them); what it does measure must be registered, as registered.
    """
    reg, rec = registry(nb), record(nb, profile)
    claims = {c["id"]: c for c in rec["claims"]}
    expected = [cid for cid in reg.entries if profile == "book" or cid in claims]
    assert list(claims) == expected, "ids differ; see test_record_ids_are_the_registry_ids"
    return [(reg[cid], claims[cid]) for cid in expected]


@pytest.mark.parametrize("nb", NOTEBOOKS)
def test_the_registry_loads(nb):
    reg = registry(nb)
    assert reg.notebook == nb and len(reg) > 0


@pytest.mark.parametrize("nb, profile", CASES)
def test_the_record_loads(nb, profile):
    rec = record(nb, profile)
    assert rec["notebook"] == nb and rec["profile"] == profile


@pytest.mark.parametrize("nb, profile", CASES)
def test_record_ids_are_the_registry_ids_in_order(nb, profile):
    measured = [c["id"] for c in record(nb, profile)["claims"]]
    registered = list(registry(nb).entries)
    extra = sorted(set(measured) - set(registered))
    assert not extra, f"measured but not in the registry: {extra}"
    never = sorted(set(registered) - set(measured))
    if profile == "book":
        assert not never, f"in the registry but never measured: {never}"
    else:  # a paper snapshot may predate claims added since (shown as "—"), in registry order
        registered = [cid for cid in registered if cid not in never]
    assert measured == registered


def _paper_equal(registered, recorded):
    if isinstance(registered, float) and isinstance(recorded, int | float):
        return recorded == pytest.approx(registered, rel=5e-6)  # stored with six digits
    return recorded == registered


@pytest.mark.parametrize("nb, profile", CASES)
def test_each_claim_states_what_the_registry_says(nb, profile):
    wrong = []
    for entry, claim in pairs(nb, profile):
        for key, expected in (
            ("kind", entry.kind),
            ("statement", entry.statement),
            ("section", entry.section),
            ("judge", entry.judge),
        ):
            if claim.get(key) != expected:
                wrong.append(f"{entry.id}: {key} is {claim.get(key)!r}, registry {expected!r}")
        if "paper" not in claim or not _paper_equal(entry.paper, claim["paper"]):
            wrong.append(f"{entry.id}: paper is {claim.get('paper')!r}, registry {entry.paper!r}")
    assert wrong == []


@pytest.mark.parametrize("nb, profile", CASES)
def test_each_baseline_is_the_registered_one(nb, profile):
    wrong = []
    for entry, claim in pairs(nb, profile):
        base = claim.get("baseline")
        if entry.baseline is not None:
            if not isinstance(base, dict) or base.get("name") != entry.baseline:
                wrong.append(f"{entry.id}: baseline {base!r}, registry runs {entry.baseline!r}")
        elif entry.no_baseline is not None:
            if base != entry.no_baseline:
                wrong.append(f"{entry.id}: baseline {base!r}, registry {entry.no_baseline!r}")
        elif "baseline" in claim:
            wrong.append(f"{entry.id}: a {entry.kind} carries baseline {base!r}")
    assert wrong == []


@pytest.mark.parametrize("nb", NOTEBOOKS)
def test_interval_claims_rest_on_enough_seeds(nb):
    few = [
        f"{entry.id}: seeds {claim.get('seeds')!r}"
        for entry, claim in pairs(nb, "book")
        if claim.get("judge") == "interval"
        and not (
            isinstance(claim.get("seeds"), int)
            and claim["seeds"] >= (2 if entry.few_replicates else MIN_SEEDS)
        )
    ]
    assert few == [], (
        f"an interval claim of the book profile needs >= {MIN_SEEDS} seeds, or a registered "
        "few_replicates reason and >= 2"
    )


@pytest.mark.parametrize("nb, profile", CASES)
def test_every_result_states_its_scale(nb, profile):
    missing = [
        entry.id
        for entry, claim in pairs(nb, profile)
        if claim.get("kind") == "result"
        and not (isinstance(claim.get("scale"), str) and claim["scale"].strip())
    ]
    assert missing == []
