"""A check's JSON reports its difficulty whether the check can succeed or not (issue 33).

``vigile check dnd35 spot --spot 12 --distance 25 --target still --distracted --json`` printed
``"difficulty": null`` while its text showed the DC 30 it cannot reach: the JSON dropped the
difficulty of every impossible (and every automatic) verdict, in every game. The difficulty is
null only where the rules settle the check with no difficulty at all (beyond Spot's range, a
walk at half speed that needs no roll).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from vigile.cli import main


def check_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code = main(["check", *args, "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    data: dict[str, Any] = json.loads(out)
    return data


def test_dd_3_an_impossible_spot_reports_its_dc(capsys: pytest.CaptureFixture[str]) -> None:
    """DD-3 by hand: an invisible creature not moving is spotted on DC 30 [S]; 25 ft away is
    −1 per whole 10 ft of distance on the check, −2 [C]; a distracted observer −5 [C]. The
    check is d20 + 12 − 2 − 5 = d20 + 5, at best 25 < 30: it cannot succeed, and the DC is
    still 30 (the penalties go to the die, not the DC)."""
    data = check_json(
        capsys, "dnd35", "spot", "--spot", "12", "--distance", "25", "--target", "still",
        "--distracted",
    )  # fmt: skip
    assert data["impossible"] and data["chance"] == "0"
    assert (data["difficulty"], data["die_bonus"]) == (30, 5)
    die = [(m["value"], m["source"]) for m in data["modifiers"] if m["kind"] == "die"]
    assert die == [(12, None), (-2, "spot.distance"), (-5, "spot.distracted")]


def test_dd_4_an_impossible_pinpoint_reports_its_dc(capsys: pytest.CaptureFixture[str]) -> None:
    """DD-3/DD-4 by hand: a moving invisible creature is DC 20, pinpointing it +20: DC 40;
    25 ft is −2 on the check: d20 + 12 − 2 = d20 + 10, at best 30 < 40."""
    data = check_json(
        capsys, "dnd35", "spot", "--spot", "12", "--distance", "25", "--target", "moving",
        "--pinpoint",
    )  # fmt: skip
    assert data["impossible"] and (data["difficulty"], data["die_bonus"]) == (40, 10)


def test_dd_3_a_spot_that_cannot_fail_reports_its_dc(capsys: pytest.CaptureFixture[str]) -> None:
    """DD-3 by hand: moving, DC 20; 5 ft away is no whole 10 ft, no penalty: d20 + 30, at
    worst 31 >= 20: it cannot fail, and its DC is 20."""
    data = check_json(
        capsys, "dnd35", "spot", "--spot", "30", "--distance", "5", "--target", "moving"
    )
    assert data["automatic"] and (data["difficulty"], data["die_bonus"]) == (20, 30)


def test_dd_3_beyond_range_no_check_no_difficulty(capsys: pytest.CaptureFixture[str]) -> None:
    """DD-3 [R]: beyond 30 ft no Spot check is possible at all: no difficulty to report."""
    data = check_json(
        capsys, "dnd35", "spot", "--spot", "12", "--distance", "35", "--target", "moving"
    )
    assert data["impossible"] and data["difficulty"] is None


def test_sf_4_an_observer_who_cannot_notice_reports_the_stealth_dc(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """SF-4 by hand: the hider's Stealth roll is the DC of each observer's Perception; the GM's
    d20 shows 10: 10 + 30 = DC 40. The observer's Perception +0 reaches 20 at best: it cannot
    notice (its die, 5, is rolled all the same), and its DC is 40."""
    data = check_json(
        capsys, "starfinder", "hide", "--stealth", "30", "--perception", "0", "--cover",
        "--dice-values", "10,5",
    )  # fmt: skip
    assert data["stealth_result"] == 40
    (observer,) = data["observers"]
    assert observer["impossible"] and (observer["difficulty"], observer["die_bonus"]) == (40, 0)
