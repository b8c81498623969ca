"""The reading path and the statistics contract over every committed record (issues 28–30)."""

from __future__ import annotations

import re

import pytest

from mlgeom.book.claims import load_record
from mlgeom.book.paths import project_root
from mlgeom.book.registry import load_registry
from mlgeom.book.verdicts import VERDICTS, headline_verdicts

ROOT = project_root()
NOTEBOOKS = sorted(p.stem for p in (ROOT / "data" / "claims").glob("*.toml"))
RATE = re.compile(r"slope|exponent|growth")


def _record(nb):
    return load_record(ROOT / "data" / "results" / f"{nb}.json")


@pytest.mark.parametrize("nb", NOTEBOOKS)
def test_each_chapter_names_three_to_eight_headline_claims_with_computed_verdicts(nb):
    reg = load_registry(nb)
    assert 3 <= len(reg.headlines) <= 8, f"{nb}: {len(reg.headlines)} headline claims"
    verdicts = headline_verdicts(nb, _record(nb), reg)
    assert [v.id for v in verdicts] == [h.id for h in reg.headlines]
    assert all(v.verdict in VERDICTS for v in verdicts)


@pytest.mark.parametrize("nb", NOTEBOOKS)
def test_no_interval_of_zero_width_and_rates_carry_the_fit(nb):
    for c in _record(nb)["claims"]:
        for where, iv in [("claim", c.get("interval"))] + [
            (arm, c[arm].get("interval"))
            for arm in ("baseline", "competitor")
            if isinstance(c.get(arm), dict)
        ]:
            if isinstance(iv, dict):
                assert iv["high"] > iv["low"], f"{nb}: {c['id']} {where}: zero-width interval"
        rate = RATE.search(c["id"]) or RATE.search(c["statement"].lower())
        if c.get("judge") == "interval" and rate:
            assert "clustered" in c["interval"]["method"], (
                f"{nb}: {c['id']} is a rate or exponent judged without the fit's uncertainty "
                f"({c['interval']['method']}); use mlgeom.stats.slope_interval"
            )


@pytest.mark.parametrize("nb", NOTEBOOKS)
def test_every_erratum_quotes_the_printed_text_and_has_an_outcome(nb):
    for e in load_registry(nb).entries.values():
        if e.kind == "erratum":
            assert e.outcome and e.printed and e.location, f"{nb}: {e.id} lacks its quote/outcome"


def test_the_provenance_covers_every_claim():
    from mlgeom.book.provenance import load_provenance

    prov = load_provenance()
    for nb in NOTEBOOKS:
        missing = [c["id"] for c in _record(nb)["claims"] if c["id"] not in prov]
        assert not missing, f"{nb}: no provenance for {missing[:3]} (run make provenance)"
