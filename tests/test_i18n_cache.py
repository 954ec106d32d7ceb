"""The parsed message files kept between runs (:func:`vigile.io.i18n._parsed`): read back by
the digest of the text, never trusted when broken, never needed."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from vigile.io import i18n

TEXT = 'a = "x"\n[b]\nc = "y {n}"\n'
FLAT = {"a": "x", "b.c": "y {n}"}


def _kept(folder: Path) -> Path:
    digest = hashlib.blake2b(TEXT.encode("utf-8"), digest_size=16).hexdigest()
    return folder / f"{digest}.json"


def test_a_parsed_file_is_kept_and_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(i18n.PARSED_CACHE, str(tmp_path))
    assert i18n._parsed(TEXT) == FLAT
    kept = _kept(tmp_path)
    assert json.loads(kept.read_text("utf-8")) == FLAT
    # What is read next time is the kept table, not the text parsed again.
    kept.write_text(json.dumps({"a": "kept"}), "utf-8")
    assert i18n._parsed(TEXT) == {"a": "kept"}
    # Another text has another digest: its own entry.
    assert i18n._parsed('z = "1"\n') == {"z": "1"}
    assert len(list(tmp_path.glob("*.json"))) == 2


@pytest.mark.parametrize("broken", ["{not json", '["a", "x"]', '{"a": 1}', ""])
def test_a_broken_kept_file_is_parsed_again_and_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, broken: str
) -> None:
    monkeypatch.setenv(i18n.PARSED_CACHE, str(tmp_path))
    _kept(tmp_path).write_text(broken, "utf-8")
    assert i18n._parsed(TEXT) == FLAT
    assert json.loads(_kept(tmp_path).read_text("utf-8")) == FLAT


def test_no_cache_when_switched_off_or_unwritable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(i18n.PARSED_CACHE, "0")
    assert i18n._parsed(TEXT) == FLAT
    blocked = tmp_path / "a-file"
    blocked.write_text("", "utf-8")
    monkeypatch.setenv(i18n.PARSED_CACHE, str(blocked / "messages"))  # under a file: refused
    assert i18n._parsed(TEXT) == FLAT
    assert list(tmp_path.iterdir()) == [blocked]


def test_the_default_folder_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(i18n.PARSED_CACHE, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert i18n._cache_folder() == str(tmp_path / "vigile" / "messages")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")  # not absolute: ignored, as XDG says
    monkeypatch.setenv("HOME", str(tmp_path))
    assert i18n._cache_folder() == str(tmp_path / ".cache" / "vigile" / "messages")


def test_the_messages_are_those_of_the_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every core message file reads the same through the cache, first and second time."""
    monkeypatch.setenv(i18n.PARSED_CACHE, str(tmp_path))
    import tomllib
    from importlib import resources

    folder = resources.files("vigile.io").joinpath("locales")
    for pattern in i18n.MESSAGE_FILES:
        text = folder.joinpath(pattern.format(lang="fr")).read_text("utf-8")
        flat: dict[str, str] = {}
        i18n._flatten(tomllib.loads(text), "", flat)
        assert i18n._parsed(text) == flat
        assert i18n._parsed(text) == flat
