"""Each notebook section draws from its own stream (issue 34): adding a section moves nothing else.

The regression: a primer claim added by spawning a child of the perceptron section's stream moved
``primer.lift.separates``' baseline from 0.52 to 0.585, because the next section spawned from the
same stream. With ``section_rng(SEED, label)`` a section's draws depend only on the root seed and
its own label.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from mlgeom import primer
from mlgeom.random import section_rng, spawn

ROOT = Path(__file__).resolve().parents[2]
SEED = 20240601  # the primer notebook's root seed


def _lift(rng):
    lift_rng, _ = spawn(rng, 2)
    return primer.lift_runs(200, 0.3, 1.0, 3, max_updates=500, seed=lift_rng)


def _notebook_before_lift(add_section: bool):
    """Run the streams of the sections before and at the lift, as the notebook does."""
    S = {label: section_rng(SEED, label) for label in ["primer-perceptron", "primer-lift"]}
    spawn(S["primer-perceptron"], 3)  # the perceptron section's own draws
    if add_section:  # a contributor adds a section (and a claim) before the lift section
        S["primer-new-section"] = section_rng(SEED, "primer-new-section")
        S["primer-new-section"].random(1000)
        spawn(S["primer-perceptron"], 1)  # and spawns one more child in the section above
    return _lift(S["primer-lift"])


def test_adding_a_section_does_not_move_the_lift_numbers():
    before = _notebook_before_lift(add_section=False)
    after = _notebook_before_lift(add_section=True)
    assert before.equals(after)


def test_the_old_shared_stream_did_move_them():
    # the failure the keyed streams prevent: two sections spawning from one shared stream
    def shared(extra: bool):
        (stream,) = spawn(SEED, 1)
        spawn(stream, 3)
        if extra:
            spawn(stream, 1)
        return _lift(stream)

    assert not shared(False).equals(shared(True))


def _sections_and_streams(path: Path, pattern: str) -> list[tuple[str, str]]:
    """(enclosing section label, stream label) for every keyed stream use in a notebook."""
    label, uses = None, []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\(([a-z0-9-]+)\)=", line)
        if m:
            label = m.group(1)
        uses += [(label, key) for key in re.findall(pattern, line)]
    return uses


def test_each_primer_section_draws_only_from_its_own_stream():
    nb = ROOT / "notebooks" / "geometry_primer.md"
    text = nb.read_text(encoding="utf-8")
    assert "streams[" not in text and "spawn(SEED" not in text
    uses = _sections_and_streams(nb, r'(?<![A-Za-z_])S\["([a-z0-9-]+)"\]')
    assert uses and all(section == key for section, key in uses), uses


def test_each_metric_nn_section_draws_only_from_its_own_stream():
    nb = ROOT / "notebooks" / "max_margin_multiclass_nn.md"
    text = nb.read_text(encoding="utf-8")
    assert "streams[" not in text and "spawn(SEED" not in text
    uses = _sections_and_streams(nb, r'stream\("([a-z0-9-]+)"\)')
    assert uses and all(section == key for section, key in uses), uses


def test_section_streams_differ_by_label_and_repeat_by_label():
    a = section_rng(SEED, "primer-lift").random(4)
    b = section_rng(SEED, "primer-lift").random(4)
    c = section_rng(SEED, "primer-perceptron").random(4)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
