"""Paths the system refuses, and file names that read other than they are (issue 34).

Every path a ``vigile`` command takes, found from the command itself (a ``Path`` option, or a
scenario, a file, a database or a workspace), given a name the system refuses (one name of 300
bytes: past the 255 of every common file system; 25 names of 200: past the 4,096 of a whole
path; a loop of symbolic links; a file where a folder should be; a NUL character) answers in one
line, exit code 2, naming the path: never a traceback. A file name vigile writes may hold no
control, invisible or bidirectional character: the refusal names it.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path
from typing import Any

import pytest
import typer

from vigile.cli import main
from vigile.errors import InputError
from vigile.io.files import check_name, check_target, write_text

SCENARIO = "night-raid"
MAP = str(Path(__file__).parent / "fixtures" / "maps" / "sampleMap.dd2vtt")
PATH_NAMES = frozenset({"scenario", "file", "db", "workspace"})
"""The parameters typed ``str`` that name a path (a scenario may also be a bundled name, a
database a URL)."""


def path_parameters() -> list[tuple[tuple[str, ...], Any, Any]]:
    """Every (command words, command, parameter) where the parameter names a path."""
    from vigile.cli import app

    found: list[tuple[tuple[str, ...], Any, Any]] = []

    def walk(command: Any, words: tuple[str, ...]) -> None:
        subs = getattr(command, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, (*words, name))
            return
        for param in command.params:
            if type(param.type).__name__ == "TyperPath" or param.name in PATH_NAMES:
                found.append((words, command, param))

    walk(typer.main.get_command(app), ())
    return found


COMPANIONS: dict[tuple[str, ...], list[str]] = {
    ("sweep",): ["--vary", "turns=3..4:1", "--runs", "10"],
    ("riskmap",): ["--attitude", "half"],
    ("route",): ["--from", "60,10", "--to", "70,20"],
    ("route", "--out"): ["--write-plan", "Kage"],
    ("scenario", "import"): ["--ruleset", "skirmish"],
    ("serve",): ["--port", "0"],
    ("encounters", "archive"): ["0123abcd"],
}
"""What each command needs besides the path to reach it."""
AFTER: dict[tuple[str, ...], list[str]] = {("scenario", "set"): ["turns", "3"]}
"""The arguments a command takes after its file argument."""


def _filler(param: Any) -> list[str]:
    """A value for a required option of a check (the house rules are read before any check)."""
    choices = getattr(param.type, "choices", None)
    value = str(next(iter(choices))) if choices else "1"
    return [param.opts[0], value]


def command_line(words: tuple[str, ...], command: Any, param: Any, path: str) -> list[str]:
    """The arguments that hand ``path`` to ``param`` of the command, with what else it needs."""
    args = list(words)
    args += COMPANIONS.get(words, []) + COMPANIONS.get((*words, param.opts[0]), [])
    for other in command.params:
        if (
            other.required
            and other is not param
            and other.opts[0].startswith("-")
            and other.opts[0] not in args
        ):
            args += _filler(other)
    is_argument = not param.opts[0].startswith("-")
    if not is_argument:
        for other in command.params:  # the command's own file argument: a real one
            if not other.opts[0].startswith("-") and other.name in ("scenario", "file"):
                args.append(MAP if words == ("scenario", "import") else SCENARIO)
        return [*args, *AFTER.get(words, []), param.opts[0], path]
    return [*args, path, *AFTER.get(words, [])]


def suffix_of(param: Any, words: tuple[str, ...]) -> str:
    """An extension the parameter takes (so that the name, not its extension, is refused)."""
    name = param.opts[0]
    if name == "--house-rules":
        return ".toml"
    if name == "--plot":
        return ".png"
    if name == "--out" and words == ("sweep",):
        return ".csv"
    if name in ("--db",):
        return ".db"
    if name in ("--workspace",):
        return ""
    if words == ("scenario", "import") and name == "file":
        return ".dd2vtt"
    return ".yaml"


@pytest.fixture(autouse=True)
def own_store(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """``play``, ``serve`` and ``encounters`` open a database before anything else: never the
    user's own (``$VIGILE_DB`` wins over the user's data directory), never in the folder
    checked for files written."""
    monkeypatch.setenv("VIGILE_DB", str(tmp_path_factory.mktemp("store") / "vigile.db"))


def run(args: list[str], folder: Path) -> tuple[int, str]:
    err = io.StringIO()
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(args)
    finally:
        os.chdir(cwd)
    return code, err.getvalue()


def one_line(code: int, err: str, args: list[str]) -> str:
    assert code == 2, (args, code, err[-500:])
    assert "Traceback" not in err, (args, err[-500:])
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, (args, err[-500:])
    return lines[0]


PARAMETERS = path_parameters()


def _id(case: tuple[tuple[str, ...], Any, Any]) -> str:
    words, _, param = case
    return " ".join((*words, param.opts[0]))


def test_the_path_parameters_are_found() -> None:
    """The enumeration finds the paths the issue names (a new one is tested without a word)."""
    found = {_id(case) for case in PARAMETERS}
    for expected in (
        "run scenario",
        "simulate scenario",
        "simulate --plot",
        "sweep --out",
        "serve --db",
        "serve --workspace",
        "play scenario",
        "play --db",
        "riskmap --plot",
        "route --out",
        "check skirmish noise --house-rules",
        "check dnd35 spot --house-rules",
        "scenario import file",
        "scenario import --into",
        "scenario validate file",
        "encounters list --db",
    ):
        assert expected in found, expected


@pytest.mark.parametrize("case", PARAMETERS, ids=_id)
@pytest.mark.parametrize("kind", ["name", "path"])
def test_a_name_too_long_is_one_line_naming_it(
    case: tuple[tuple[str, ...], Any, Any], kind: str, tmp_path: Path
) -> None:
    """A name of 300 bytes (past the 255 a folder allows), or a path of 25 names of 200 bytes
    (past the 4,096 of a whole path): one line naming the path, exit 2 (was a traceback,
    ``OSError: [Errno 36] File name too long``, in 17 commands)."""
    words, command, param = case
    stem = "y" * 300 if kind == "name" else "/".join(["z" * 200] * 25)
    args = command_line(words, command, param, stem + suffix_of(param, words))
    line = one_line(*run(args, tmp_path), args)
    assert stem[:40] in line, (args, line)
    if param.opts[0] == "--workspace":  # worded by serve itself, not the safety net
        assert "--workspace" in line and "too long" in line, line
    assert not any(tmp_path.iterdir()), "nothing is written"


@pytest.mark.parametrize(
    "case",
    [c for c in PARAMETERS if c[0][0] != "check" or c[0][2] in ("noise", "hide", "spot")],
    ids=_id,
)
@pytest.mark.parametrize("kind", ["loop", "file-as-folder", "nul"])
def test_a_path_the_system_refuses_is_one_line(
    case: tuple[tuple[str, ...], Any, Any], kind: str, tmp_path: Path
) -> None:
    """A loop of symbolic links, a file where a folder should be, a NUL character: one line,
    exit 2."""
    words, command, param = case
    suffix = suffix_of(param, words)
    (tmp_path / "loop").symlink_to("loop")
    (tmp_path / "plain").write_text("x", encoding="utf-8")
    path = {"loop": "loop/x", "file-as-folder": "plain/x", "nul": "a\x00b"}[kind] + suffix
    args = command_line(words, command, param, path)
    one_line(*run(args, tmp_path), args)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop", "plain"]


def test_a_temporary_file_beside_a_long_name_fits_its_folder(tmp_path: Path) -> None:
    """A name of 250 bytes is allowed: the hidden temporary file written beside it first is cut
    to fit the folder's 255 (it was ``.NAME.<12 hex>.tmp``, 269 bytes: refused)."""
    target = tmp_path / ("é" * 120 + "ab.csv")  # 240 + 6 = 246 bytes
    assert len(target.name.encode()) == 246
    write_text(target, "a,b\n", option="--out")
    assert target.read_text(encoding="utf-8") == "a,b\n"
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


# ------------------------------------------------------------------ names that read otherwise


NAMES = {
    "RIGHT-TO-LEFT OVERRIDE": "evil\u202egpj.yaml",
    "LEFT-TO-RIGHT ISOLATE": "a\u2066b.yaml",
    "POP DIRECTIONAL ISOLATE": "a\u2069b.yaml",
    "LEFT-TO-RIGHT MARK": "a\u200eb.yaml",
    "RIGHT-TO-LEFT MARK": "a\u200fb.yaml",
    "ZERO WIDTH SPACE": "a\u200bb.yaml",
    "ZERO WIDTH JOINER": "a\u200db.yaml",
    "U+001B": "a\x1b[31mb.yaml",
    "U+0007": "a\x07b.yaml",
    "U+009B": "a\x9bb.yaml",
    "LINE SEPARATOR": "a\u2028b.yaml",
}


@pytest.mark.parametrize("label", list(NAMES))
def test_a_file_name_with_a_control_or_bidi_character_is_refused(label: str) -> None:
    with pytest.raises(InputError, match=re.escape(label)) as refused:
        check_name(NAMES[label], "--out")
    assert "\x1b" not in str(refused.value) and "\u202e" not in str(refused.value)


@pytest.mark.parametrize("label", ["RIGHT-TO-LEFT OVERRIDE", "ZERO WIDTH SPACE", "U+001B"])
def test_the_cli_writes_no_file_whose_name_reads_otherwise(label: str, tmp_path: Path) -> None:
    """``route --write-plan --out``, ``scenario import --out``, ``--plot``: the name is refused
    before any work, naming the character, exit 2, nothing written (a name with U+202E was
    written)."""
    name = NAMES[label]
    for args in (
        ["route", SCENARIO, "--from", "60,10", "--to", "70,20", "--write-plan", "Kage"],
        ["scenario", "import", MAP, "--ruleset", "skirmish"],
    ):
        args = [*args, "--out", name]
        line = one_line(*run(args, tmp_path), args)
        assert label in line and "\x1b" not in line and "\u202e" not in line
    plot = name.replace(".yaml", ".png")
    args = ["riskmap", SCENARIO, "--attitude", "half", "--plot", plot]
    assert label in one_line(*run(args, tmp_path), args)
    assert not any(tmp_path.iterdir())


def test_check_target_takes_plain_names(tmp_path: Path) -> None:
    """Accents, CJK, spaces and emoji are names like any other."""
    for name in ("café plan.yaml", "夜襲.yaml", "raid 🌙.yaml"):
        assert check_target(tmp_path / name, "--out", suffixes=[".yaml"], kind="a plan")
