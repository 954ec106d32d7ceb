"""A user error's one line on stderr, in the command line's language: what ``vigile`` and
the commands that print their own errors (``route``, ``riskmap``) write."""

from __future__ import annotations

import sys

from vigile.io.i18n import Lang, messages, tr


def error_line(message: str, lang: Lang) -> None:
    """The one line of a user error on stderr: ``vigile: error: ...`` (French: ``vigile :
    erreur : ...``), the message made printable."""
    from vigile.io.safe import printable

    print(tr("cli.error", lang, {"message": printable(message)}), file=sys.stderr)


def error_text(error: Exception, lang: Lang) -> str:
    """An error's message in ``lang``: from its message key where it has one (``key`` and
    ``params``, as :class:`vigile.engine.live.Refusal`; its rule after it), else its text."""
    issues = getattr(error, "errors", None)
    if lang is not Lang.EN and isinstance(issues, list) and issues:  # a scenario's problems
        from vigile.io.i18n import issue_line

        lines = [issue_line(issue, lang) for issue in issues]
        if len(lines) == 1:
            return lines[0]
        count = tr("cli.errors", lang, {"count": len(lines)})
        return "\n".join([f"{getattr(issues[0], 'file', '')}: {count}", *lines])
    key, params = getattr(error, "key", None), getattr(error, "params", None)
    if isinstance(key, str) and isinstance(params, dict) and key in messages(lang):
        rule = getattr(error, "rule", None)
        return tr(key, lang, params) + (f" [{rule}]" if isinstance(rule, str) else "")
    return str(error)
