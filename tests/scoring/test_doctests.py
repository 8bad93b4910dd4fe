"""Run the doctests of every engine module."""

import doctest
import importlib
import pkgutil

import pytest

import scoring

MODULES = [
    info.name
    for info in pkgutil.walk_packages(scoring.__path__, prefix="scoring.")
    if not info.name.startswith(("scoring.management", "scoring.apps"))
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_public_functions_carry_doctests() -> None:
    finder = doctest.DocTestFinder()
    names = {
        t.name.rsplit(".", 1)[-1]
        for m in MODULES
        for t in finder.find(importlib.import_module(m))
        if t.examples
    }
    assert {"verify", "verify_json", "first_divergence", "find_ruleset", "round5", "parse"} <= names
