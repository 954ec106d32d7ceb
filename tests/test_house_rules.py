"""House-rule files: overrides validated against the shipped data (DESIGN.md, "House rules")."""

from __future__ import annotations

from pathlib import Path

import pytest

from vigile.errors import HouseRuleError
from vigile.rulesets.data import load, shipped
from vigile.rulesets.toml_lines import key_line


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_override_changes_the_number_and_is_marked(tmp_path: Path) -> None:
    rules = load("skirmish", write(tmp_path, "[noise.base]\ndeath_floor = 4\n"))
    assert rules.num("noise.base.death_floor") == 4
    assert rules.is_overridden("noise.base.death_floor")
    assert not rules.is_overridden("noise.base.fumble")
    assert shipped("skirmish").num("noise.base.death_floor") == 3  # the shipped data is untouched


def test_dotted_keys_work_too(tmp_path: Path) -> None:
    rules = load("skirmish", write(tmp_path, "sight.band_cm.fast = 50\n"))
    assert rules.num("sight.band_cm.fast") == 50


def test_unknown_key_names_the_key_and_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "# my table\n[noise.base]\nfumble = 5\ndeath_flor = 4\n")
    with pytest.raises(HouseRuleError) as caught:
        load("skirmish", path)
    assert caught.value.line == 4
    assert "death_flor" in str(caught.value) and f"{path}:4" in str(caught.value)


def test_unknown_table_names_its_line(tmp_path: Path) -> None:
    with pytest.raises(HouseRuleError, match=r":2: unknown key 'nois'"):
        load("skirmish", write(tmp_path, "\n[nois.base]\nfumble = 5\n"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[noise.base]\nfumble = 'five'\n", "whole number"),
        ("[noise.base]\nfumble = 5.5\n", "whole number"),
        ("[noise.base]\nfumble = 99999\n", "out of range: a d6 difficulty"),
        ("[alarm]\nguard_wins_ties = 1\n", "true or false"),
        ("noise = 3\n", "table"),
        ("[noise.base\nfumble = 5\n", "not valid TOML"),
    ],
)
def test_bad_values_are_refused(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(HouseRuleError, match=message):
        load("skirmish", write(tmp_path, text))


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(HouseRuleError, match="no such file"):
        load("skirmish", tmp_path / "missing.toml")
    with pytest.raises(HouseRuleError, match="not a file"):
        load("skirmish", tmp_path)
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(HouseRuleError, match="UTF-8"):
        load("skirmish", binary)
    big = tmp_path / "big.toml"
    big.write_text("# x\n" * 40_000)
    with pytest.raises(HouseRuleError, match="larger than"):
        load("skirmish", big)


def test_key_line_finds_headers_and_keys() -> None:
    text = "[a]\nb = 1\n[c.d]\n'e' = 2\nf.g = 3\n"
    assert key_line(text, "a") == 1
    assert key_line(text, "a.b") == 2
    assert key_line(text, "c.d.e") == 4
    assert key_line(text, "c.d.f.g") == 5
    assert key_line(text, "zz") is None
