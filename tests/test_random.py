import numpy as np
import pytest

from mlgeom.random import as_generator, spawn


def test_int_seed_is_reproducible():
    assert as_generator(3).random() == as_generator(3).random()


def test_generator_passes_through():
    g = np.random.default_rng(0)
    assert as_generator(g) is g


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True])
def test_bad_seeds(bad):
    with pytest.raises(ValueError, match="seed must be"):
        as_generator(bad)


def test_spawn_children_are_independent_and_reproducible():
    a = [g.random() for g in spawn(7, 3)]
    b = [g.random() for g in spawn(7, 3)]
    assert a == b and len(set(a)) == 3
    # a child's stream does not depend on how many siblings were spawned
    assert spawn(7, 5)[0].random() == a[0]
    with pytest.raises(ValueError):
        spawn(7, -1)
