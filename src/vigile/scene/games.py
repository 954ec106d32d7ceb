"""Each game's own scenario parts, as its plug-in names them: its actor fields and plan
actions, checked when the plug-in is registered. The models built from them are
:mod:`vigile.scene.model`'s (:func:`~vigile.scene.model.scenario_model`).

The shared :class:`~vigile.scene.model.Scenario` holds what every game's scenario writes. A
game's plug-in may bring more (:attr:`vigile.registry.GamePlugin.actor_fields`, a pydantic
model of its actor fields; :attr:`~vigile.registry.GamePlugin.plan_actions`, its own plan
actions): :func:`~vigile.scene.model.scenario_model` makes, once per game, a subclass of
``Scenario`` whose actors also carry those fields and whose legs also take those actions.
The ``ruleset:`` of a file chooses which model validates it (``Scenario.model_validate``
asks :func:`~vigile.scene.model.model_for`), so a plug-in's field is checked as any other:
a wrong value is an error naming ``actors[2].luck`` and its line, a field of another game
an "extra inputs" error.

Every game's scenario is still a ``Scenario`` (the engine, the simulator and the pages read it
as one), and a game's own modules read their fields on an actor that ``isinstance`` of their
fields model."""

from __future__ import annotations

from typing import get_args

from pydantic import BaseModel

from vigile import registry
from vigile.scene.actors import Actor
from vigile.scene.plans import Action

SHARED_ACTIONS: tuple[type[BaseModel], ...] = get_args(get_args(Action)[0])
"""The plan actions every game's legs take (:data:`vigile.scene.plans.Action`)."""


def action_name(model: type[BaseModel]) -> str:
    """An action model's ``do``."""
    return str(get_args(model.model_fields["do"].annotation)[0])


def own_fields(ruleset: str) -> type[BaseModel] | None:
    """The game's own actor fields model, if its plug-in names one."""
    return _fields_of(registry.get(ruleset))


def own_actions(ruleset: str) -> tuple[type[BaseModel], ...]:
    """The game's own plan actions, if its plug-in names any: each a pydantic model with a
    ``do`` that no shared action has."""
    return _actions_of(registry.get(ruleset))


def _fields_of(plugin: registry.GamePlugin) -> type[BaseModel] | None:
    if not plugin.actor_fields:
        return None
    found = plugin.load(plugin.actor_fields)
    if not (isinstance(found, type) and issubclass(found, BaseModel)):
        raise TypeError(f"{plugin.actor_fields} is not a pydantic model")
    return found


def _actions_of(plugin: registry.GamePlugin) -> tuple[type[BaseModel], ...]:
    if not plugin.plan_actions:
        return ()
    found = tuple(plugin.load(plugin.plan_actions))
    shared = {action_name(model) for model in SHARED_ACTIONS}
    for model in found:
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            raise TypeError(f"{plugin.plan_actions}: {model!r} is not a pydantic model")
        if "do" not in model.model_fields or action_name(model) in shared:
            raise TypeError(f"{plugin.plan_actions}: {model.__name__} needs a do of its own")
    return found


def plugin_problems(plugin: registry.GamePlugin) -> list[str]:
    """What is wrong with a game's own scenario fields, plan actions and words, one line
    each: a path that does not load, a field the shared actor already has, an action's ``do``
    a shared action has, a vocabulary naming an action or a stat the game does not have. Run
    when the plug-in is registered or loaded (:func:`vigile.registry.add_check`)."""
    found: list[str] = []
    try:
        fields = _fields_of(plugin)
        actions = _actions_of(plugin)
    except (ImportError, AttributeError, TypeError, ValueError) as error:
        return [f"its scenario fields or actions: {error}"]
    if fields is not None:
        shared = sorted(set(fields.model_fields) & set(Actor.model_fields))
        found += [f"actor_fields: {name!r} is a shared actor field" for name in shared]
    if not plugin.vocabulary:
        return found
    from vigile.scene.vocabulary import Vocabulary, vocabulary_issues

    try:
        words = plugin.load(plugin.vocabulary)
    except (ImportError, AttributeError, ValueError) as error:
        return [*found, f"vocabulary: {error}"]
    if not isinstance(words, Vocabulary):
        return [*found, f"vocabulary: {plugin.vocabulary} is not a Vocabulary"]
    found += [f"vocabulary: {issue}" for issue in vocabulary_issues(words)]
    dos = {action_name(model) for model in (*SHARED_ACTIONS, *actions)}
    found += [
        f"vocabulary: the action {name!r} is not one of its plan actions"
        for name in words.names("actions")
        if name not in dos
    ]
    known = {*Actor.model_fields, *(fields.model_fields if fields is not None else ())}
    found += [
        f"vocabulary: the stat {name!r} is not a field of its actors"
        for name in words.names("stats")
        if name.split(".")[0] not in known
    ]
    return found


registry.add_check(plugin_problems)
