"""Shared fixtures: the shipped rule data of each ruleset."""

from __future__ import annotations

import pytest

from vigile.rulesets.data import RuleData, apply_overrides, shipped


@pytest.fixture
def skirmish() -> RuleData:
    """The skirmish numbers as shipped (the table wins, SK-N8)."""
    return shipped("skirmish")


@pytest.fixture
def skirmish_example_floor() -> RuleData:
    """The house rule that reproduces the seed's example: a death on a floor is 4+ (SK-N8)."""
    return apply_overrides(shipped("skirmish"), "[noise.base]\ndeath_floor = 4\n", "example.toml")
