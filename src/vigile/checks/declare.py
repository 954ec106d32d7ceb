"""One declaration per check: its inputs, their ranges, defaults and help, and its rule.

A game declares each of its checks once, as a :class:`Check`: the typed :class:`Input` s it
takes (a range where the rule has one, a default, help as message keys so that it exists in
both languages) and the rule function it calls, which lives in the game's rule module. From
that declaration vigile builds the ``vigile check`` commands (:mod:`vigile.cli.common`), the
HTTP request models, the calculator's form and the OpenAPI schema (:mod:`vigile.web.checks`).

A declaration holds no rule: it names the rule function, and turns the inputs into the
function's arguments (:attr:`Check.args`), for instance two options into one ``Roller``. The
rule refuses what its rules refuse; a range declared here is the same number the rule enforces
(:data:`vigile.rulesets.limits.LIMITS`), so that the HTTP model and the form refuse it before.

A game's plug-in names its declaration, a :class:`Checks`, in :attr:`GamePlugin.cli
<vigile.registry.GamePlugin.cli>`.

    >>> def hello(rules, *, name, source=None): return f"{rules}: {name}"
    >>> greet = Check("toy", "greet", "toy.checks.greet", hello, (Input("name", str, "k"),))
    >>> greet.verdict("rules", greet.arguments(Values(name="Kaede")), None)
    'rules: Kaede'
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final, Literal

from vigile.dice.source import FaceSource, GivenFaces, RolledFaces
from vigile.errors import InputError

MAX_SEED: Final = 2**63 - 1


class _Required:
    """The default of an input the check cannot do without."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Final = _Required()

Many = Literal["one", "comma", "repeat"]
"""How many values an input takes: one; a list written as one comma-separated option
(``--perception 3,8``: one value per observer); a list given by repeating the option
(``--dc-mod +2:rain --dc-mod -1:dim``)."""


class Values:
    """The values of a check's inputs, by input name: what :attr:`Check.args` reads."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)

    def __getattr__(self, name: str) -> Any:  # only for a name that is not an input
        raise AttributeError(f"no input {name!r}")


@dataclass(frozen=True)
class Input:
    """One input of a check: an option on the command line, a field of the HTTP request, a
    field of the calculator's form."""

    name: str
    """Its name, a Python identifier; the option is ``--`` and the name with dashes."""
    kind: type
    """What one value is: ``int``, ``float``, ``bool`` (a flag), ``str`` or an ``Enum``."""
    help: str
    """Message key of its help (``skirmish.checks.noise.event``)."""
    default: object = REQUIRED
    ge: float | None = None
    """The least value the rule takes, if it has one."""
    le: float | None = None
    """The greatest value the rule takes, if it has one."""
    many: Many = "one"
    max_items: int | None = None
    """Most values of a list (``comma`` or ``repeat``)."""
    parse: Callable[..., Any] | None = None
    """``parse(text, where=flag)``: the value from its text, for an input whose text is read
    (``"3,8"``, ``"2d6"``); an :class:`~vigile.errors.InputError` names the option."""
    metavar: str | None = None

    @property
    def dashed(self) -> str:
        """Its name as the option writes it (``total-concealment``)."""
        return self.name.replace("_", "-")

    @property
    def flag(self) -> str:
        return "--" + self.dashed

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def choices(self) -> list[str] | None:
        """The values of an ``Enum`` input, as they are written."""
        if isinstance(self.kind, type) and issubclass(self.kind, Enum):
            return [str(member.value) for member in self.kind]
        return None

    @property
    def written_default(self) -> object:
        """The default as JSON writes it (an ``Enum`` member by its value); None if required."""
        value = None if self.required else self.default
        return value.value if isinstance(value, Enum) else value


@dataclass(frozen=True)
class Check:
    """One check: its inputs, the rule function it calls, and how the one feeds the other."""

    game: str
    """The ruleset whose numbers it reads (``skirmish``)."""
    name: str
    """The command's name (``noise``, ``attack-roll``)."""
    help: str
    """Message key of what it answers, one line (the first line of its ``--help``)."""
    rule: Callable[..., Any]
    """The rule function, called as ``rule(rules, **arguments, source=source)``: ``rules`` and
    ``source`` only where its signature names them."""
    inputs: tuple[Input, ...] = ()
    args: Callable[[Any], Mapping[str, Any]] | None = None
    """The rule's keyword arguments from the inputs' :class:`Values`; by default each input
    under its own name. It refuses a contradiction between inputs (an
    :class:`~vigile.errors.InputError` naming the option), and holds no rule."""
    view: bool = False
    """True where the verdict has secrets: the check takes ``--view gm|player``."""
    _calls: tuple[bool, bool] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        params = inspect.signature(self.rule).parameters
        takes_rules = bool(params) and next(iter(params)) == "rules"
        object.__setattr__(self, "_calls", (takes_rules, "source" in params))

    @property
    def title(self) -> str:
        return f"vigile check {self.game} {self.name}"

    @property
    def rolls(self) -> bool:
        """True where the rule rolls dice (takes a face source)."""
        return self._calls[1]

    def values(self, given: Mapping[str, Any]) -> Values:
        """The inputs' values from what was given, each read from its text where the input
        has a parser and the value is text (in the order the inputs are declared)."""
        found = Values(**given)
        for one in self.inputs:
            if one.parse is not None:
                value = given[one.name]
                if isinstance(value, str):
                    setattr(found, one.name, one.parse(value, where=one.flag))
        return found

    def arguments(self, values: Values) -> Mapping[str, Any]:
        """The rule's keyword arguments."""
        if self.args is not None:
            return self.args(values)
        return {one.name: getattr(values, one.name) for one in self.inputs}

    def verdict(
        self, rules: object, arguments: Mapping[str, Any], source: FaceSource | None
    ) -> Any:
        """Call the rule function."""
        takes_rules, takes_source = self._calls
        if takes_source:
            if takes_rules:
                return self.rule(rules, **arguments, source=source)
            return self.rule(**arguments, source=source)
        return self.rule(rules, **arguments) if takes_rules else self.rule(**arguments)


@dataclass(frozen=True)
class Checks:
    """A game's checks: what a plug-in names as its ``cli``."""

    game: str
    help: str
    """Message key of the game's one-line help (``vigile check GAME --help``)."""
    checks: tuple[Check, ...]

    def by_name(self) -> dict[str, Check]:
        return {check.name: check for check in self.checks}


def check_seed(seed: int | None, *, where: str = "--seed") -> int | None:
    """Refuse a seed outside 0..``MAX_SEED`` (numpy takes no negative seed), naming the option;
    every command that takes ``--seed`` checks it here."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        shown = str(seed) if abs(seed) < 10**30 else "that number"
        raise InputError(f"{shown}: a seed is 0 to 2**63 - 1 ({MAX_SEED})", where=where)
    return seed


def face_source(
    *, roll: bool = False, dice_values: Sequence[int] | None = None, seed: int | None = None
) -> FaceSource | None:
    """Where the faces come from: the GM's dice, a seeded generator, or nowhere (odds only)."""
    if dice_values is not None:
        if roll or seed is not None:
            flag = "--roll" if roll else "--seed"
            raise InputError("the GM's dice are given, so nothing is rolled", where=flag)
        return GivenFaces(list(dice_values))
    if roll or seed is not None:
        check_seed(seed)
        import numpy as np  # only a roll pays for numpy's import

        return RolledFaces(np.random.default_rng(seed))
    return None
