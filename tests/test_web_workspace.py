"""The editor's workspace under attack (issue 34): a folder swapped for a symbolic link while the
editor saves and reads never lets a file out of the workspace (8 saves in 2,000 landed outside);
a link to a folder outside is not listed; a file name holding a control or bidirectional
character is refused, naming it (one with U+202E was saved)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vigile.errors import InputError
from vigile.store import Store
from vigile.web.app import create_app
from vigile.web.editor import EditorSettings, configure, read_workspace, save, workspace_files

TOKEN = "workspace-test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
TEXT = "ruleset: skirmish\n"
SAVES = 2000
SWAPS = 300


@pytest.fixture(autouse=True)
def no_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Durability is not what is tested here: 2,000 fsyncs would take 8 s."""
    monkeypatch.setattr(os, "fsync", lambda descriptor: None)


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """The workspace (with a folder ``sub``) and a folder outside it."""
    root = tmp_path / "work"
    (root / "sub").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    return root.resolve(), outside


class Swapper:
    """A thread that swaps ``root/sub`` for a link to ``outside`` for a moment, then puts it
    back, again and again (the real folder waits beside it, inside the workspace)."""

    def __init__(self, root: Path, outside: Path) -> None:
        self.sub, self.aside, self.outside = root / "sub", root / ".aside", outside
        self.stop = threading.Event()
        self.swaps = 0
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stop.is_set():
            os.rename(self.sub, self.aside)
            os.symlink(self.outside, self.sub)
            time.sleep(0.0002)
            os.unlink(self.sub)
            os.rename(self.aside, self.sub)
            self.swaps += 1
            time.sleep(0.001)

    def __enter__(self) -> Swapper:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        assert self.sub.is_dir() and not self.sub.is_symlink()


def racing(swapper: Swapper) -> Iterator[int]:
    """0, 1, 2...: at least :data:`SAVES` tries, over at least :data:`SWAPS` swaps (at most
    20 s)."""
    start = time.monotonic()
    i = 0
    while (i < SAVES or swapper.swaps < SWAPS) and time.monotonic() - start < 20:
        yield i
        i += 1
    assert swapper.swaps >= SWAPS, swapper.swaps


def test_a_folder_swapped_for_a_link_never_lets_a_save_out(tree: tuple[Path, Path]) -> None:
    """2,000 saves into ``sub/`` while ``sub`` is swapped for a link to a folder outside: not
    one file outside; every save either lands in the real ``sub`` or is refused."""
    root, outside = tree
    settings = EditorSettings(root)
    saved = refused = 0
    failed: list[Exception] = []  # anything but a refusal: a 500 on the server
    with Swapper(root, outside) as swapper:
        for i in racing(swapper):
            try:
                save(settings, f"sub/s{i}.yaml", TEXT, None, True)
                saved += 1
            except InputError:
                refused += 1
            except Exception as error:
                failed.append(error)
    landed = sorted(p.name for p in outside.iterdir())
    assert landed == [], f"{len(landed)} of {i + 1} saves landed outside"
    assert failed == []
    assert saved > 0 and refused > 0, (swapper.swaps, saved, refused)
    written = sorted(p.name for p in (root / "sub").iterdir())
    assert len(written) == saved and all(n.startswith("s") for n in written)  # no temporary left


def test_a_folder_swapped_for_a_link_is_never_read_through(tree: tuple[Path, Path]) -> None:
    root, outside = tree
    (root / "sub" / "r.yaml").write_text("inside: 1\n", encoding="utf-8")
    (outside / "r.yaml").write_text("outside: 1\n", encoding="utf-8")
    settings = EditorSettings(root)
    texts = set()
    failed: list[Exception] = []
    with Swapper(root, outside) as swapper:
        for _ in racing(swapper):
            try:
                texts.add(read_workspace(settings, "sub/r.yaml")[0])
            except InputError:
                texts.add("refused")
            except Exception as error:
                failed.append(error)
    assert "outside: 1\n" not in texts and "inside: 1\n" in texts
    assert failed == []


def test_a_link_is_neither_listed_nor_read_nor_written(tree: tuple[Path, Path]) -> None:
    root, outside = tree
    (outside / "secret.yaml").write_text("secret: 1\n", encoding="utf-8")
    (root / "away").symlink_to(outside, target_is_directory=True)
    (root / "link.yaml").symlink_to(outside / "secret.yaml")
    (root / "sub" / "plain.yaml").write_text(TEXT, encoding="utf-8")
    (root / "evil\u202egpj.yaml").write_text(TEXT, encoding="utf-8")
    settings = EditorSettings(root)
    assert workspace_files(settings) == ["sub/plain.yaml"]
    for name in ("away/secret.yaml", "link.yaml"):
        with pytest.raises(InputError):
            read_workspace(settings, name)
        with pytest.raises(InputError):
            save(settings, name, TEXT, None, True)
    assert (outside / "secret.yaml").read_text(encoding="utf-8") == "secret: 1\n"
    assert sorted(p.name for p in outside.iterdir()) == ["secret.yaml"]


def test_a_save_keeps_the_file_s_permissions_and_leaves_no_temporary(
    tree: tuple[Path, Path],
) -> None:
    root, _ = tree
    path = root / "sub" / "kept.yaml"
    path.write_text("old: 1\n", encoding="utf-8")
    path.chmod(0o640)
    settings = EditorSettings(root)
    save(settings, "sub/kept.yaml", TEXT, None, True)
    assert path.read_text(encoding="utf-8") == TEXT and (path.stat().st_mode & 0o777) == 0o640
    assert [p.name for p in path.parent.iterdir()] == ["kept.yaml"]


# ------------------------------------------------------------------ names that read otherwise


@pytest.fixture
def client(tmp_path: Path, tree: tuple[Path, Path]) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path / 'workspace.db'}")
    app = create_app(store, gm_token=TOKEN)
    configure(app, workspace=tree[0])
    with TestClient(app) as test_client:
        yield test_client
    store.close()


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("evil\u202egpj.yaml", "RIGHT-TO-LEFT OVERRIDE"),
        ("a\u2066b\u2069.yaml", "LEFT-TO-RIGHT ISOLATE"),
        ("a\u200eb.yaml", "LEFT-TO-RIGHT MARK"),
        ("a\u200bb.yaml", "ZERO WIDTH SPACE"),
        ("a\ufeffb.yaml", "ZERO WIDTH NO-BREAK SPACE"),
        ("a\x1b[31mb.yaml", "U+001B"),
        ("a\x9bb.yaml", "U+009B"),
        ("sub/a\u202eb.yaml", "RIGHT-TO-LEFT OVERRIDE"),
    ],
)
def test_a_file_name_with_a_control_or_bidi_character_is_refused(
    client: TestClient, tree: tuple[Path, Path], name: str, label: str
) -> None:
    response = client.post(
        "/api/v1/editor/save", json={"yaml": TEXT, "file": name, "confirm": True}, headers=AUTH
    )
    assert 400 <= response.status_code < 500, response.text
    assert label in response.json()["detail"], response.text
    assert "\u202e" not in response.text and "\x1b" not in response.text
    root = tree[0]
    assert [p.name for p in root.iterdir()] == ["sub"] and not any((root / "sub").iterdir())


def test_a_plain_name_is_saved_and_listed(client: TestClient, tree: tuple[Path, Path]) -> None:
    for name in ("café.yaml", "sub/夜襲 plan.yml"):
        response = client.post(
            "/api/v1/editor/save", json={"yaml": TEXT, "file": name}, headers=AUTH
        )
        assert response.status_code == 200, response.text
    assert workspace_files(EditorSettings(tree[0])) == ["café.yaml", "sub/夜襲 plan.yml"]


# ------------------------------------------------------------------ a map's picture


def test_a_picture_is_served_from_inside_never_through_a_link(
    client: TestClient, tree: tuple[Path, Path]
) -> None:
    """``/editor/asset/…`` reads below the workspace held open, as the saves do: a picture
    inside is served with its type; a folder or a picture that is a link to outside the
    workspace is not (before: the path was resolved, then opened, with a race between)."""
    root, outside = tree
    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 24
    (root / "sub" / "map.png").write_bytes(png)
    (outside / "secret.png").write_bytes(b"outside")
    (root / "out").symlink_to(outside, target_is_directory=True)
    (root / "sub" / "link.png").symlink_to(outside / "secret.png")
    got = client.get(f"/editor/asset/sub/map.png?token={TOKEN}")
    assert got.status_code == 200 and got.content == png
    assert got.headers["content-type"] == "image/png"
    for path in ("out/secret.png", "sub/link.png", "sub/none.png", "sub/map.txt"):
        assert client.get(f"/editor/asset/{path}?token={TOKEN}").status_code == 404, path


def test_a_picture_swapped_for_a_link_while_read_is_never_served(
    client: TestClient, tree: tuple[Path, Path]
) -> None:
    """The folder ``sub`` swapped for a link to outside, again and again, while its picture is
    fetched: every answer is the picture inside, or a 404; never the file outside."""
    root, outside = tree
    (root / "sub" / "map.png").write_bytes(b"inside")
    (outside / "map.png").write_bytes(b"outside")
    with Swapper(root, outside) as swapper:
        for _ in racing(swapper):
            got = client.get(f"/editor/asset/sub/map.png?token={TOKEN}")
            assert got.status_code in (200, 404)
            assert got.content != b"outside"
