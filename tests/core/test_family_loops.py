"""Each family module opens with the loop it is equivalent to, and its doctest examples run."""

from __future__ import annotations

import doctest
import importlib

import pytest

import scatter_core as sc


def _planner_modules() -> list[str]:
    """The module of each family record's planner (so a new family's module is checked too)."""
    return sorted({f.plan.__module__ for f in sc.FAMILIES.values()})


def test_every_family_has_a_planner_module():
    assert len(_planner_modules()) == len(sc.FAMILIES)


@pytest.mark.parametrize("name", _planner_modules())
def test_family_module_states_its_loop_and_its_examples_hold(name):
    module = importlib.import_module(name)
    assert "Equivalent to this loop" in (module.__doc__ or ""), f"{name} does not open with its loop"
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 1, f"{name} has no doctest example"
    assert result.failed == 0, f"{result.failed} doctest example(s) of {name} fail"
