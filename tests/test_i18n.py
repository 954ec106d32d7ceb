"""Every user-facing text exists in French and English."""

from __future__ import annotations

import re
import sys
from importlib import resources

import pytest

from vigile.io.i18n import MESSAGE_FILES, Lang, messages, rule_statements


def test_both_languages_have_the_same_message_keys() -> None:
    assert set(messages(Lang.EN)) == set(messages(Lang.FR))


def test_every_message_file_exists_in_both_languages() -> None:
    folder = resources.files("vigile.io").joinpath("locales")
    for pattern in MESSAGE_FILES:
        en = folder.joinpath(pattern.format(lang="en")).is_file()
        fr = folder.joinpath(pattern.format(lang="fr")).is_file()
        assert en == fr, pattern


def test_placeholders_match_between_languages() -> None:
    en, fr = messages(Lang.EN), messages(Lang.FR)
    for key, text in en.items():
        assert set(re.findall(r"\{(\w+)", text)) == set(re.findall(r"\{(\w+)", fr[key])), key


def test_every_message_key_used_in_the_code_exists() -> None:
    """Keys written literally in the source (``"skirmish.noise.alert"``) are all translated."""
    known = set(messages(Lang.EN))
    prefixes = {key.split(".")[0] for key in known}
    source = resources.files("vigile")
    alternatives = "|".join(sorted(prefixes))
    pattern = re.compile(rf"\"((?:{alternatives})\.[a-z0-9_.\-]+)\"")
    missing: list[str] = []
    for path in _python_files(source):
        for key in pattern.findall(path.read_text("utf-8")):
            if key not in known and not any(k.startswith(key + ".") for k in known):
                missing.append(f"{path.name}: {key}")
    assert not missing


def _python_files(folder: object) -> list:  # type: ignore[type-arg]
    from pathlib import Path

    return sorted(Path(str(folder)).rglob("*.py"))


def test_rule_catalogue_is_complete_in_both_languages() -> None:
    en, fr = rule_statements(Lang.EN), rule_statements(Lang.FR)
    assert {k: list(v) for k, v in en.items()} == {k: list(v) for k, v in fr.items()}
    assert len(en["skirmish"]) == 40 and len(en["starfinder"]) == 11 and len(en["dnd35"]) == 21


SAME_IN_BOTH = {
    # names: games, a Japanese partition, the map's awareness letters
    "Starfinder",
    "D&D 3.5",
    "Shoji",
    "P",
    "D",
    "L",
    # units and axes
    "cm",
    "x (cm)",
    "y (cm)",
    # what the user types (a console command, the check command's name)
    "log [N]",
    "check",
    # words spelt the same in French
    "divination",
    "immobile",
    "conversation",
    "Action",
    "Actions",
    "Arguments",
    "Options",
    "[OPTIONS]",
    "distance",
    "Volume",
    "Validation",
    "Chance",
    "base {value}",
    "Invisible (SF-7).",
}
"""Texts that are the same in English and in French on purpose: proper names, units, rule
IDs, what the user types, words both languages spell alike."""

_NO_WORD = re.compile(r"\{[^}]*\}|\b[A-Z]{2}-[A-Z]?\d+\b|[^A-Za-zÀ-ÿ]")


def _locale_pairs() -> list[tuple[str, str]]:
    folder = resources.files("vigile.io").joinpath("locales")
    names = sorted(item.name for item in folder.iterdir() if item.name.endswith(".toml"))
    pairs = []
    for name in names:
        if name == "en.toml" or name.endswith(".en.toml"):
            pairs.append((name, name[: -len("en.toml")] + "fr.toml"))
    return pairs


def _flat(name: str) -> dict[str, str]:
    import tomllib

    from vigile.io.i18n import _flatten

    text = resources.files("vigile.io").joinpath("locales", name).read_text("utf-8")
    found: dict[str, str] = {}
    _flatten(tomllib.loads(text), "", found)
    return found


def untranslated() -> list[str]:
    """Every key of a locale file missing from its other language's file, and every text the
    same in both that :data:`SAME_IN_BOTH` does not allow (nor made of placeholders, rule IDs
    and signs only), one line each: ``file: key``."""
    folder = resources.files("vigile.io").joinpath("locales")
    found: list[str] = []
    for en_name, fr_name in _locale_pairs():
        if not folder.joinpath(fr_name).is_file():
            found.append(f"{fr_name}: missing (the French of {en_name})")
            continue
        en, fr = _flat(en_name), _flat(fr_name)
        found += [f"{fr_name}: {key} missing" for key in sorted(set(en) - set(fr))]
        found += [f"{en_name}: {key} missing" for key in sorted(set(fr) - set(en))]
        for key in sorted(set(en) & set(fr)):
            text = en[key]
            if text == fr[key] and text not in SAME_IN_BOTH and _NO_WORD.sub("", text):
                found.append(f"{fr_name}: {key} untranslated ({text!r})")
    return found


def test_every_locale_file_is_translated() -> None:
    """Each locale file has its other language with the same keys, and no text left the same
    in both but for :data:`SAME_IN_BOTH`; a failure lists the offending keys."""
    found = untranslated()
    print("\n".join(found))
    assert not found, "untranslated keys:\n" + "\n".join(found)


def test_the_untranslated_list_finds_a_text_left_in_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check above can fail: a French file that repeats an English text is listed."""
    real = _flat

    def fake(name: str) -> dict[str, str]:
        found = real(name)
        if name == "play.fr.toml":
            found["console.table"] = real("play.en.toml")["console.table"]
            del found["console.knows_nothing"]
        return found

    monkeypatch.setattr(sys.modules[__name__], "_flat", fake)
    listed = untranslated()
    assert "play.fr.toml: console.table untranslated ('What the table sees:')" in listed
    assert "play.fr.toml: console.knows_nothing missing" in listed
