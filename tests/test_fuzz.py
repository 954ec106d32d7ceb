"""Fuzzing, bounded to a few minutes (issue 15): hostile or careless input never gets a traceback.

The property, for every input: the command exits 0 or 2 (never an exception out of
:func:`vigile.cli.main`), within a bounded time, and no file changes but the one it was asked
to write. The inputs:

* scenario documents generated from the scenario's own JSON Schema (:func:`from_schema`), and
  bundled scenarios mutated leaf by leaf (huge, negative, empty, NaN, control characters,
  wrong types, deleted keys);
* house-rule files setting every key of every game's data file to edge values;
* argument lists for every ``vigile check`` command, built from the commands' own options;
* the corpus of past failures, ``tests/fuzz_corpus/``, kept as regression cases.

With ``VIGILE_FUZZ_EXAMPLES`` set, each property tries that many inputs (a longer local pass);
``VIGILE_FUZZ_LOG`` names a file that collects each command's exit code.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import signal
import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import typer
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vigile.cli import main
from vigile.scene.schema import scenario_json_schema

CORPUS = Path(__file__).parent / "fuzz_corpus"
EXAMPLES = int(os.environ.get("VIGILE_FUZZ_EXAMPLES", "15"))
LOG = os.environ.get("VIGILE_FUZZ_LOG")
"""With it set, each command's exit code is appended to that file (to count a fuzzing pass)."""
SECONDS = 30
"""No command may take longer than this on one input (a hang is a failure)."""
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
GAMES = ("skirmish", "starfinder", "dnd35")
BUNDLED = (
    "night-raid",
    "sk-n9-shoji",
    "sk-s5-street",
    "sk-a6-ambush",
    "starfinder-infiltration",
    "dnd35-invisible-intruder",
)


class Hang(Exception):
    """A command ran past :data:`SECONDS`."""


@contextlib.contextmanager
def bounded(seconds: int = SECONDS) -> Iterator[None]:
    def alarm(signum: int, frame: object) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def run_cli(args: list[str], folder: Path) -> tuple[int, str]:
    """Run ``vigile ARGS`` in ``folder``: its exit code and what it wrote on stderr. Any file
    change in the folder is a failure (none of these commands is asked to write)."""
    before = snapshot(folder)
    err = io.StringIO()
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        with (
            bounded(),
            contextlib.redirect_stdout(io.StringIO()),
            contextlib.redirect_stderr(err),
        ):
            code = main(args)
    finally:
        os.chdir(cwd)
    if LOG:
        with open(LOG, "a", encoding="utf-8") as log:
            log.write(f"{code}\n")
    assert code in (0, 2), (args, code, err.getvalue()[-500:])
    assert "Traceback" not in err.getvalue(), (args, err.getvalue()[-500:])
    if code == 2:
        lines = [line for line in err.getvalue().splitlines() if line.strip()]
        assert lines, (args, "exit 2 with no message")
    assert snapshot(folder) == before, (args, "a file changed")
    return code, err.getvalue()


SCENARIO_COMMANDS = (
    ["scenario", "validate", "{file}"],
    ["run", "{file}", "--turns", "3", "--seed", "1"],
    ["run", "{file}", "--turns", "2", "--json", "--seed", "2", "--lang", "fr"],
    ["simulate", "{file}", "--runs", "20", "--seed", "1"],
    ["riskmap", "{file}", "--attitude", "half", "--resolution", "10"],
    ["route", "{file}", "--from", "2,2", "--to", "8,8", "--resolution", "10"],
)


def play_everything(text: str, folder: Path, suffix: str = ".yaml") -> None:
    path = folder / f"scenario{suffix}"
    path.write_text(text, encoding="utf-8")
    for command in SCENARIO_COMMANDS:
        run_cli([a.replace("{file}", path.name) for a in command], folder)


# --------------------------------------------------------------------------- scenarios


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Documents that follow the shapes of a JSON Schema (types, properties, enums, items,
    ``$ref``, ``anyOf``), with small sizes and values near the schema's bounds: a generator of
    structurally plausible scenarios, most of them wrong in some cross-field way."""
    defs = schema.get("$defs", {})

    def node(spec: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
        if "$ref" in spec:
            return st.deferred(lambda: node(defs[spec["$ref"].rsplit("/", 1)[-1]], depth + 1))
        if "const" in spec:
            return st.just(spec["const"])
        if "enum" in spec:
            return st.sampled_from(spec["enum"])
        for key in ("anyOf", "oneOf"):
            if key in spec:
                return st.one_of([node(s, depth) for s in spec[key]])
        if "allOf" in spec:
            return node(spec["allOf"][0], depth)
        kind = spec.get("type")
        if isinstance(kind, list):
            return st.one_of([node({**spec, "type": k}, depth) for k in kind])
        if depth > 6:
            return st.none()
        if kind == "object":
            props = spec.get("properties", {})
            required = set(spec.get("required", ()))
            optional = [k for k in props if k not in required]
            return st.fixed_dictionaries(
                {k: node(props[k], depth + 1) for k in props if k in required},
                optional={k: node(props[k], depth + 1) for k in optional[:12]},
            )
        if kind == "array":
            items = spec.get("prefixItems") or [spec.get("items", {})]
            if "prefixItems" in spec:
                return st.tuples(*[node(i, depth + 1) for i in items]).map(list)
            low = spec.get("minItems", 0)
            return st.lists(node(items[0], depth + 1), min_size=low, max_size=low + 3)
        if kind == "integer":
            low, high = spec.get("minimum", -10), spec.get("maximum", 200)
            return st.integers(int(low), int(min(high, low + 500))) | st.sampled_from([low, high])
        if kind == "number":
            low = spec.get("minimum", spec.get("exclusiveMinimum", -10))
            high = spec.get("maximum", spec.get("exclusiveMaximum", 200))
            return st.floats(float(low), float(min(high, low + 500)), allow_nan=False)
        if kind == "boolean":
            return st.booleans()
        if kind == "string":
            return st.text(max_size=12) | st.sampled_from(["A", "B", "Guard", "x y"])
        if kind == "null":
            return st.none()
        return st.none()

    return node(schema, 0)


@FUZZ
@given(document=from_schema(scenario_json_schema()))
def test_scenarios_from_the_schema(document: dict[str, Any], tmp_path_factory: Any) -> None:
    folder = tmp_path_factory.mktemp("schema")
    play_everything(json.dumps(document), folder, ".json")


HUGE = "HUGE_NUMBER"
"""Stands for a 5,000-digit integer, written into the file's text after dumping (neither YAML nor
JSON writers can write it: past Python's int-to-string limit)."""
DIGITS = "9" * 5000

EDGE_VALUES = st.sampled_from(
    [
        0,
        -1,
        1,
        -(10**9),
        10**9,
        HUGE,
        1e308,
        -1e308,
        0.0001,
        "nan",
        "inf",
        "",
        "x" * 10_000,
        "\x1b[31mred\x07",
        "\u202eevil",
        None,
        True,
        [],
        {},
        [[0, 0]],
        {"a": {"b": {"c": 1}}},
    ]
)


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _leaves(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _leaves(value, (*path, i))
    return found


def _mutate(document: Any, path: tuple[Any, ...], value: Any, delete: bool) -> Any:
    if not path:
        return value
    node = document
    for key in path[:-1]:
        node = node[key]
    if delete and isinstance(node, dict):
        node.pop(path[-1], None)
    else:
        node[path[-1]] = value
    return document


def _bundled(name: str) -> Any:
    text = resources.files("vigile.scenarios").joinpath(f"{name}.yaml").read_text("utf-8")
    return yaml.safe_load(text)


@FUZZ
@given(data=st.data(), name=st.sampled_from(BUNDLED))
def test_bundled_scenarios_mutated(data: st.DataObject, name: str, tmp_path_factory: Any) -> None:
    document = _bundled(name)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_leaves(document)))
        value = copy.deepcopy(data.draw(EDGE_VALUES))
        document = _mutate(document, path, value, data.draw(st.booleans()))
    folder = tmp_path_factory.mktemp("mutated")
    text = yaml.safe_dump(document, allow_unicode=True).replace(HUGE, DIGITS)
    play_everything(text, folder)


# --------------------------------------------------------------------------- house rules


def _keys(game: str) -> list[str]:
    text = resources.files(f"vigile.rulesets.{game}").joinpath("rules.toml").read_text("utf-8")
    flat: list[str] = []

    def walk(node: dict[str, Any], prefix: str) -> None:
        for key, value in node.items():
            if isinstance(value, dict):
                walk(value, f"{prefix}{key}.")
            else:
                flat.append(f"{prefix}{key}")

    walk(tomllib.loads(text), "")
    return flat


CHECKS = {
    "skirmish": (
        ["check", "skirmish", "noise", "--event", "grapple", "--distance", "60", "--walls", "1"],
        ["check", "skirmish", "sight", "--attitude", "fast", "--distance", "30"],
        ["check", "skirmish", "move", "--speed", "full", "--dice", "2"],
    ),
    "starfinder": (
        ["check", "starfinder", "hide", "--stealth", "5", "--perception", "3", "--cover"],
    ),
    "dnd35": (
        ["check", "dnd35", "listen", "--listen", "5", "--move-silently", "3", "--distance", "20"],
        ["check", "dnd35", "spot", "--spot", "4", "--distance", "20", "--target", "moving"],
    ),
}
TOML_EDGES = ["0", "-1", "1", "-1000000", "1000000", "9" * 5000, "true", "false", '"x"', "1.5"]


@pytest.mark.parametrize("game", GAMES)
def test_every_house_rule_key_at_edge_values(game: str, tmp_path: Path) -> None:
    """Each key of the game's data file set to each edge value: every check answers or refuses
    in one line."""
    for key in _keys(game):
        section, _, name = key.rpartition(".")
        for value in TOML_EDGES:
            text = (f"[{section}]\n" if section else "") + f"{name} = {value}\n"
            (tmp_path / "house.toml").write_text(text, encoding="utf-8")
            for check in CHECKS[game]:
                code, err = run_cli(
                    [*check, "--house-rules", "house.toml", "--seed", "1"], tmp_path
                )
                if code == 2 and "house.toml" in err:
                    break  # the file itself is refused: every other check refuses it the same way


# --------------------------------------------------------------------------- arguments


def _check_commands() -> list[tuple[list[str], Any]]:
    """Every ``vigile check GAME NAME`` with its command (read through its public attributes:
    typer carries its own copy of click)."""
    from vigile.cli import check_app

    group = typer.main.get_command(check_app)
    found = []
    for game, sub in getattr(group, "commands", {}).items():
        for name, command in getattr(sub, "commands", {}).items():
            found.append((["check", game, name], command))
    assert found
    return found


def _values(param: Any) -> st.SearchStrategy[list[str]]:
    opt = param.opts[0]
    if getattr(param, "is_flag", False):
        return st.just([opt])
    kind = type(param.type).__name__
    if kind == "Choice":
        words = st.sampled_from([str(c) for c in param.type.choices] + ["", "zzz"])
    elif kind == "IntParamType":
        words = st.sampled_from(["0", "-1", "3", "10", "-5", "99999999", "1" + "0" * 400, "x"])
    elif kind == "FloatParamType":
        words = st.sampled_from(["0", "-1", "2.5", "nan", "inf", "-inf", "1e308", "30", "x"])
    else:
        words = st.sampled_from(["", "2,6", "1,1,1", "-3", "x", "1,", "7", "nope.toml", "5,8,-2"])
    return words.map(lambda w: [opt, w])


@FUZZ
@given(data=st.data())
def test_every_check_with_arbitrary_options(data: st.DataObject, tmp_path_factory: Any) -> None:
    prefix, command = data.draw(st.sampled_from(_check_commands()))
    params = [p for p in command.params if getattr(p, "opts", None) and p.opts[0].startswith("-")]
    chosen = data.draw(st.lists(st.sampled_from(params), max_size=6, unique_by=lambda p: p.name))
    args = list(prefix)
    for param in chosen:
        args += data.draw(_values(param))
    run_cli(args, tmp_path_factory.mktemp("args"))


# --------------------------------------------------------------------------- the corpus


def _corpus() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*") if p.suffix in (".yaml", ".json", ".args"))


@pytest.mark.parametrize("case", _corpus(), ids=lambda p: p.name)
def test_past_failures_stay_fixed(case: Path, tmp_path: Path) -> None:
    """Each file of the corpus is a past failure: a scenario (played by every command) or an
    ``.args`` file (one argument list a line, ``{corpus}`` standing for the corpus folder)."""
    if case.suffix == ".args":
        for line in case.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                args = json.loads(line)
                run_cli([a.replace("{corpus}", str(CORPUS)) for a in args], tmp_path)
        return
    play_everything(case.read_text(encoding="utf-8"), tmp_path, case.suffix)
