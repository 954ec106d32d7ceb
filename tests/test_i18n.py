"""Every user-facing text exists in French and English."""

from __future__ import annotations

import re
from importlib import resources

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
