"""Click's own usage errors in French.

Typer's click writes its errors in English with f-strings (no message catalogue to install):
``Invalid value for '--runs': 'abc' is not a valid int.``, ``Missing argument 'SCENARIO'.``,
``No such option: --runz (Possible options: --runs)``... :func:`french` rewrites each known
form, its quoted values and names kept; a form it does not know stays as click wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_KINDS = {
    "int": "un nombre entier",
    "integer": "un nombre entier",
    "float": "un nombre",
    "boolean": "un booléen",
    "UUID": "un UUID",
}


def _valid(match: re.Match[str]) -> str:
    kind = _KINDS.get(match["kind"], match["kind"])
    rest = match["rest"].replace("Recognized values:", "Valeurs reconnues :")
    return f"{match['value']} n'est pas {kind} valide.{rest}"


_FORMS: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"^(?P<value>.+) is not a valid (?P<kind>\w+)\.(?P<rest>.*)$"), _valid),
    (re.compile(r"^(?P<value>.+) is not in the range (?P<range>.+)\.$"),
     r"\g<value> n'est pas dans l'intervalle \g<range>."),
    (re.compile(r"^(?P<value>.+) is not one of (?P<choices>.+)\.$"),
     r"\g<value> n'est pas l'une des valeurs \g<choices>."),
    (re.compile(r"^Missing argument(?P<name>.*)\.(?P<rest>.*)$"),
     r"Argument manquant :\g<name>.\g<rest>"),
    (re.compile(r"^Missing option(?P<name>.*)\.(?P<rest>.*)$"),
     r"Option manquante :\g<name>.\g<rest>"),
    (re.compile(r"^Missing parameter(?P<name>.*)\.(?P<rest>.*)$"),
     r"Paramètre manquant :\g<name>.\g<rest>"),
    (re.compile(r"^No such option: (?P<name>\S+)(?: \(Possible options: (?P<options>.+)\))?$"),
     lambda m: f"Option inconnue : {m['name']}"
     + (f" (options possibles : {m['options']})" if m["options"] else "")),
    (re.compile(r"^No such command (?P<name>.+)\.$"), r"Commande inconnue : \g<name>."),
    (re.compile(r"^Got unexpected extra argument(?:\(s\)|s?) \((?P<extra>.*)\)$"),
     r"Argument(s) en trop : (\g<extra>)"),
    (re.compile(r"^Option (?P<name>'[^']*') requires an argument\.$"),
     r"L'option \g<name> attend une valeur."),
    (re.compile(r"^Option (?P<name>'[^']*') requires (?P<count>\d+) arguments\.$"),
     r"L'option \g<name> attend \g<count> valeurs."),
    (re.compile(r"^Option (?P<name>'[^']*') does not take a value\.$"),
     r"L'option \g<name> ne prend pas de valeur."),
)  # fmt: skip
_INVALID = re.compile(r"^Invalid value for (?P<hint>.+?): (?P<message>.*)$", re.DOTALL)


def french(message: str) -> str:
    """``message`` (one of click's usage errors) in French, where its form is known."""
    invalid = _INVALID.match(message)
    if invalid:
        return f"Valeur invalide pour {invalid['hint']} : {french(invalid['message'])}"
    for pattern, replacement in _FORMS:
        match = pattern.match(message)
        if match:
            return replacement(match) if callable(replacement) else match.expand(replacement)
    return message
