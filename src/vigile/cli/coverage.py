"""Where each rule is played (``vigile rules --coverage``): the ``vigile check``
commands' part, found by running each command with canonical options, then the library's part
(:mod:`vigile.games.coverage`: the turn engine, the compiled simulator, the risk map).

Each canonical command runs in this process as ``vigile check … --json``, unrolled and rolled
with a few seeds (both outcomes where a roll decides), and in the player view where the command
has one; the rule IDs are every ``rule`` the printed JSON cites (modifiers, notes, party
members). The table is computed once per process.
"""

from __future__ import annotations

import functools
import io
import json
from collections.abc import Iterator
from contextlib import redirect_stdout

import typer

from vigile import registry
from vigile.errors import VigileError

CHECK_SEEDS = (1, 2, 3, 4)

CHECKS: tuple[tuple[str, ...], ...] = (
    ("skirmish", "move", "--speed", "half"),
    ("skirmish", "move", "--speed", "full", "--dice", "2"),
    ("skirmish", "noise", "--event", "fumble", "--distance", "60", "--walls", "1"),
    ("skirmish", "noise", "--event", "grapple", "--alert"),
    ("skirmish", "noise", "--event", "melee", "--time", "day", "--distance", "25"),
    ("skirmish", "noise", "--event", "death", "--surface", "floor", "--distance", "20"),
    ("skirmish", "noise", "--event", "death", "--surface", "grass", "--walls", "2"),
    ("skirmish", "noise", "--event", "whisper", "--distance", "5"),
    ("skirmish", "noise", "--event", "conversation"),
    ("skirmish", "noise", "--event", "animated", "--bonus", "1"),
    ("skirmish", "noise", "--event", "alarm-cry"),
    ("skirmish", "noise", "--event", "alarm-cry", "--alert"),
    ("skirmish", "sight", "--attitude", "hidden", "--distance", "3", "--alert"),
    ("skirmish", "sight", "--attitude", "immobile", "--distance", "10"),
    ("skirmish", "sight", "--attitude", "half", "--distance", "5"),
    ("skirmish", "sight", "--attitude", "fast", "--distance", "32", "--unsuited-outfit"),
    ("skirmish", "sight", "--attitude", "fast", "--distance", "40"),
    ("skirmish", "sight", "--attitude", "half", "--distance", "15", "--lit"),
    ("skirmish", "sight", "--attitude", "hidden", "--distance", "15", "--lit"),
    ("skirmish", "sight", "--attitude", "half", "--distance", "8", "--no-line-of-sight"),
    ("skirmish", "sight", "--attitude", "fast", "--distance", "8", "--time", "day"),
    ("skirmish", "shadow", "--task", "follow", "--setting", "crowd", "--dice", "2"),
    ("skirmish", "shadow", "--task", "follow", "--setting", "crowd", "--target-hiding"),
    ("skirmish", "shadow", "--task", "notice", "--setting", "crowd", "--alert", "--untrained"),
    ("skirmish", "shadow", "--task", "notice", "--setting", "crowd", "--follower-fumbled"),
    ("skirmish", "shadow", "--task", "follow", "--setting", "countryside", "--target", "rider"),
    (
        "skirmish", "shadow", "--task", "notice", "--setting", "countryside",
        "--follower", "pedestrian", "--discreet", "--alert",
    ),
    ("skirmish", "ambush", "--setting", "countryside", "--ambushers", "3", "--targets", "2"),
    (
        "skirmish", "ambush", "--setting", "town", "--ambushers", "1", "--targets", "1",
        "--all-ninjas", "--alert", "--party", "0", "--party", "2",
    ),
    ("skirmish", "ambush", "--setting", "town", "--ambushers", "2", "--targets", "1", "--no-cover"),
    ("skirmish", "alarm"),
    ("starfinder", "hide", "--stealth", "8", "--perception", "5,12", "--cover"),
    (
        "starfinder", "hide", "--stealth", "8", "--perception", "5", "--concealment",
        "--speed", "more-than-half", "--armor-penalty", "2", "--distance", "40",
    ),
    ("starfinder", "hide", "--stealth", "8", "--perception", "5", "--bluff-diversion"),
    ("starfinder", "hide", "--stealth", "8", "--perception", "5", "--invisible", "--immobile"),
    ("starfinder", "hide", "--stealth", "8", "--perception", "5", "--invisible"),
    ("starfinder", "hide", "--stealth", "8", "--perception", "5", "--total-concealment"),
    ("starfinder", "hide", "--stealth", "8", "--perception", "5", "--no-cover"),
    ("starfinder", "hide", "--stealth", "8", "--perception", "5", "--special-ability"),
    ("starfinder", "hide", "--stealth", "8", "--perception", "5", "--cover", "--sniping",
     "--distance", "30"),
    ("starfinder", "hide", "--stealth", "8", "--perception", "5", "--cover", "--forest",
     "--distance", "30"),
    ("starfinder", "hide", "--stealth", "8", "--perception", "5,7", "--cover", "--blindsense", "2"),
    ("starfinder", "hide", "--stealth", "8", "--perception", "5", "--lost-cover-this-turn"),
    ("starfinder", "hide", "--stealth", "8", "--perception", "5", "--cover", "--dc-mod", "2:rain"),
    ("starfinder", "hide", "--stealth", "8", "--perception", "5,7", "--invisible", "--cover",
     "--see-invisibility", "1"),
    ("starfinder", "hide", "--stealth", "8", "--perception", "5,7", "--darkness", "--immobile",
     "--darkvision", "1"),
    ("starfinder", "attack"),
    ("starfinder", "attack", "--miss-chance", "20", "--blind-fight"),
    ("starfinder", "attack", "--awareness", "presence"),
    ("starfinder", "attack", "--awareness", "observed"),
    ("dnd35", "spot", "--spot", "5", "--distance", "20", "--target", "moving"),
    ("dnd35", "spot", "--spot", "5", "--distance", "10", "--target", "still", "--pinpoint"),
    ("dnd35", "spot", "--spot", "5", "--distance", "10", "--target", "object", "--distracted"),
    ("dnd35", "listen", "--listen", "6", "--move-silently", "4", "--distance", "25", "--door"),
    ("dnd35", "listen", "--listen", "6", "--dex", "2", "--armor-penalty", "1", "--speed", "run"),
    ("dnd35", "listen", "--listen", "6", "--speaking", "--stone-wall", "--distracted"),
    ("dnd35", "listen", "--listen", "6", "--move-silently", "0", "--asleep"),
    ("dnd35", "hide", "--hide", "10", "--spot", "4,8", "--distance", "30"),
    ("dnd35", "hide", "--hide", "10", "--spot", "4", "--speed", "run", "--size", "small"),
    ("dnd35", "hide", "--hide", "10", "--spot", "4", "--visible", "--cover"),
    ("dnd35", "grope", "--touch-attack", "3", "--touch-ac", "12", "--occupied"),
    ("dnd35", "grope", "--touch-attack", "3", "--touch-ac", "12"),
    ("dnd35", "attack", "--miss-chance", "50"),
    ("dnd35", "attack", "--miss-chance", "50", "--blind-fight"),
    ("dnd35", "attack", "--miss-chance", "50", "--blindsight"),
    ("dnd35", "attack", "--miss-chance", "50", "--in-water"),
    ("dnd35", "attack", "--miss-chance", "50", "--incorporeal"),
    ("dnd35", "attack", "--miss-chance", "50", "--square-correct"),
    ("dnd35", "attack", "--miss-chance", "50", "--square-wrong"),
    ("dnd35", "attack", "--miss-chance", "50", "--incorporeal", "--blind-fight"),
    (
        "dnd35", "attack-roll", "--attack", "5", "--ac", "16", "--dex-to-ac", "2",
        "--invisible-attacker", "--sneak-attack", "2d6", "--favored-enemy", "2",
    ),
    ("dnd35", "attack-roll", "--attack", "5", "--ac", "16", "--invisible-target",
     "--sneak-attack", "2"),
    ("dnd35", "attack-roll", "--attack", "5", "--ac", "16", "--invisible-attacker",
     "--sees-invisible"),
    ("dnd35", "struck"),
    ("dnd35", "struck", "--reach", "10"),
    ("dnd35", "struck", "--ranged"),
    ("dnd35", "struck", "--moved-at-once"),
    ("dnd35", "signs", "--distance", "5", "--flour-throw", "8", "--flour-miss", "4"),
    ("dnd35", "signs", "--distance", "5", "--carries", "visible"),
    ("dnd35", "signs", "--distance", "20", "--soft-ground", "--moved"),
    ("dnd35", "signs", "--distance", "20", "--light", "20"),
    ("dnd35", "signs", "--distance", "20", "--in-water", "--moved"),
    ("dnd35", "senses", "--sense", "scent", "--sense", "hearing"),
    ("dnd35", "senses", "--sense", "blindsight", "--sense", "scent", "--incorporeal"),
    ("dnd35", "senses", "--sense", "sight", "--sense", "see-invisible", "--ethereal"),
    ("dnd35", "senses", "--sense", "darkvision"),
    ("dnd35", "gaze", "--invisible"),
    ("dnd35", "gaze"),
)  # fmt: skip
"""Each ``vigile check`` command with representative options (after ``vigile check``)."""


def json_rules(data: object) -> Iterator[str]:
    """Every rule ID a JSON document cites: the ``rule`` of each object, at any depth."""
    if isinstance(data, dict):
        rule = data.get("rule")
        if isinstance(rule, str) and rule:
            yield rule
        for value in data.values():
            yield from json_rules(value)
    elif isinstance(data, list):
        for value in data:
            yield from json_rules(value)


def _variants(args: tuple[str, ...]) -> Iterator[list[str]]:
    yield [*args, "--json"]
    for seed in CHECK_SEEDS:
        yield [*args, "--json", "--seed", str(seed)]
    yield [*args, "--json", "--seed", "1", "--view", "player"]


def plugin_checks() -> tuple[tuple[str, ...], ...]:
    """The canonical commands of every game that declares its own (a plug-in's
    ``check_examples``, :class:`vigile.registry.GamePlugin`), after the built-in ones."""
    return tuple(example for plugin in registry.games() for example in plugin.check_examples)


def check_rules(commands: tuple[tuple[str, ...], ...] | None = None) -> dict[str, set[str]]:
    """Command (``skirmish noise``) → the rule IDs its canonical runs cite (``commands``:
    :data:`CHECKS` and every plug-in's :func:`plugin_checks`). A run its options refuse (no
    ``--view`` on that command, a refused combination) counts for nothing."""
    if commands is None:
        commands = CHECKS + plugin_checks()
    from vigile.checks.declare import Checks
    from vigile.cli.common import check_app

    checks = typer.Typer(add_completion=False)
    for name in registry.names():
        plugin = registry.get(name)
        if plugin.cli is not None:
            app = plugin.load(plugin.cli)
            checks.add_typer(check_app(app) if isinstance(app, Checks) else app, name=name)
    command = typer.main.get_command(checks)
    found: dict[str, set[str]] = {}
    for args in commands:
        cited = found.setdefault(" ".join(args[:2]), set())
        if args[0] not in registry.names():
            continue
        for argv in _variants(args):
            out = io.StringIO()
            try:
                with redirect_stdout(out):
                    command.main(args=argv, prog_name="vigile check", standalone_mode=False)
            except (typer.TyperException, VigileError):  # Typer's click: usage errors
                continue
            cited.update(json_rules(json.loads(out.getvalue())))
    return found


def coverage() -> dict[str, frozenset[str]]:
    """Place → the rule IDs played there (``check``, ``engine``, ``simulator``, ``riskmap``),
    computed once per list of games (a plug-in registered since is played too)."""
    return _coverage(registry.version())


@functools.cache
def _coverage(version: int) -> dict[str, frozenset[str]]:
    from vigile.games.coverage import library_coverage

    per_command = check_rules()
    played = {"check": frozenset().union(*per_command.values())}
    played.update({place: frozenset(ids) for place, ids in library_coverage().items()})
    return played
