"""``vigile simulate --plot`` on the d20 games' bundled scenarios: the heat map draws their
lights with their own radius (scene/model.py: required in the d20 games), never asking the d20
rules for the skirmish's ``sight.lit_radius_cm`` (SK-V5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vigile.cli import main


@pytest.mark.parametrize("name", ["dnd35-invisible-intruder", "starfinder-infiltration"])
@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_simulate_plots_a_d20_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, suffix: str
) -> None:
    picture = tmp_path / f"heat{suffix}"
    assert main(["simulate", name, "--runs", "20", "--plot", str(picture)]) == 0
    assert picture.is_file() and picture.stat().st_size > 0
    assert str(picture) in capsys.readouterr().out
