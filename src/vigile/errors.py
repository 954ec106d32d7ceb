"""The one error hierarchy of vigile.

::

    VigileError                 every error vigile raises on purpose
    ├── InputError              the user's input is wrong (exit code 2, HTTP 400/422)
    │   ├── HouseRuleError      a house-rule file is unreadable or names an unknown key
    │   └── ScenarioError       a scenario file is wrong (file, line, field)
    ├── RuleError               a rule forbids the action (names the rule)
    └── LimitError              the request would exceed a documented limit

A user error never reaches the user as a traceback: the CLI prints ``str(error)`` on one line
and exits with code 2.
"""

from __future__ import annotations


class VigileError(Exception):
    """Root of every error vigile raises on purpose."""


class InputError(VigileError):
    """Bad input from the user: an option, a value, a file.

    ``where`` names the option, file or field at fault, so the message can point at it.
    """

    def __init__(self, message: str, *, where: str | None = None) -> None:
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


class HouseRuleError(InputError):
    """A house-rule file cannot be read, is not valid TOML, or names an unknown key."""

    def __init__(self, message: str, *, file: str, line: int | None = None) -> None:
        self.file = file
        self.line = line
        where = f"{file}:{line}" if line is not None else file
        super().__init__(message, where=where)


class ScenarioError(InputError):
    """A scenario file is wrong; carries the file, the line and the field path."""

    def __init__(
        self, message: str, *, file: str, line: int | None = None, field: str | None = None
    ) -> None:
        self.file = file
        self.line = line
        self.field = field
        where = file + (f":{line}" if line is not None else "") + (f" [{field}]" if field else "")
        super().__init__(message, where=where)


class RuleError(VigileError):
    """A rule forbids the action; ``rule`` is its RULES.md ID."""

    def __init__(self, message: str, *, rule: str) -> None:
        self.rule = rule
        super().__init__(f"{message} [{rule}]")


class LimitError(VigileError):
    """The request exceeds a documented limit (dice count, runs, file size...)."""


class Said(str):
    """A message in English that also carries its message key and parameters, so that a layer
    above (:func:`vigile.io.i18n.said`) can write it in the reader's language: the layers
    below :mod:`vigile.io` (the scene's validation) have no access to the translations.

    It is the English text everywhere a ``str`` is expected; a parameter may itself be a
    ``Said`` (``what`` in "{what} is outside the map"), written in the same language."""

    key: str
    params: dict[str, object]

    def __new__(cls, key: str, english: str, **params: object) -> Said:
        said = super().__new__(cls, english)
        said.key = key
        said.params = params
        return said

    def __getnewargs__(self) -> tuple[str, str]:  # type: ignore[override]
        """What a copy or a pickle rebuilds it from (its parameters follow as its state)."""
        return (self.key, str(self))
