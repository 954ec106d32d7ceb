"""Each game's scenario model: the shared scenario, with the game's own actor fields and plan
actions.

The shared :class:`~vigile.scene.model.Scenario` holds what every game's scenario writes. A
game's plug-in may bring more (:attr:`vigile.registry.GamePlugin.actor_fields`, a pydantic
model of its actor fields; :attr:`~vigile.registry.GamePlugin.plan_actions`, its own plan
actions): :func:`scenario_model` makes, once per game, a subclass of ``Scenario`` whose actors
also carry those fields and whose legs also take those actions. The ``ruleset:`` of a file
chooses which model validates it (:meth:`Scenario.model_validate` asks :func:`model_for`), so a
plug-in's field is checked as any other: a wrong value is an error naming
``actors[2].luck`` and its line, a field of another game an "extra inputs" error.

Every game's scenario is still a ``Scenario`` (the engine, the simulator and the pages read it
as one), and a game's own modules read their fields on an actor that ``isinstance`` of their
fields model.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Union, get_args

from pydantic import BaseModel, Field, create_model

from vigile import registry
from vigile.scene.actors import Actor, Name
from vigile.scene.plans import MAX_ACTIONS, Action, Leg

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


def model_for(ruleset: Any) -> type[Any] | None:
    """The scenario model of the game named ``ruleset``, or None where the shared one serves
    (an unknown game, reported by the shared model; a game with nothing of its own)."""
    found = _models_of(ruleset)
    return None if found is None else found[0]


def item_models(ruleset: Any) -> tuple[type[Actor], type[Leg]]:
    """The models of one actor and one leg of the game named ``ruleset`` (the shared ones
    where it brings nothing of its own): what the scene's checks read item by item."""
    found = _models_of(ruleset)
    return (Actor, Leg) if found is None else (found[1], found[2])


def _models_of(ruleset: Any) -> tuple[type[Any], type[Actor], type[Leg]] | None:
    if not isinstance(ruleset, str) or ruleset not in registry.names():
        return None
    return _models(ruleset, registry.version())


def scenario_model(ruleset: str) -> type[Any]:
    """The model that validates a scenario of ``ruleset``: the shared
    :class:`~vigile.scene.model.Scenario`, or its subclass with the game's fields and
    actions."""
    from vigile.scene.model import Scenario

    return model_for(ruleset) or Scenario


def _title(ruleset: str) -> str:
    """The start of the names of a game's models (``luck_game``: ``LuckGame``)."""
    return "".join(part.capitalize() for part in ruleset.split("_"))


KINDS = ("Scenario", "Actor", "Leg")
"""What each game's models are called after its title (``LuckgameActor``)."""


def __getattr__(name: str) -> type[Any]:
    """A game's model by its name (``LuckgameActor``), made if it was not yet: what
    :mod:`pickle` asks for when it reads a game's state back (a checkpoint of live play holds
    the actors), maybe in a process that has not validated a scenario of that game yet."""
    for ruleset in registry.names():
        title = _title(ruleset)
        if name.startswith(title) and name[len(title) :] in KINDS:
            found = _models_of(ruleset)
            if found is not None:
                made: type[Any] = found[KINDS.index(name[len(title) :])]
                if made.__name__ == name:
                    return made
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def _models(ruleset: str, version: int) -> tuple[type[Any], type[Actor], type[Leg]] | None:
    """Made once per game and registry version (a game registered again is read again)."""
    fields, actions = own_fields(ruleset), own_actions(ruleset)
    if fields is None and not actions:
        return None
    return _build(_title(ruleset), f"a {ruleset}", () if fields is None else (fields,), actions)


def any_game_model() -> type[Any]:
    """The scenario model that takes every game's own fields and actions at once: what the
    JSON schema of any scenario describes (a game's own model is stricter)."""
    return _any_game(registry.version())[0]


@cache
def _any_game(version: int) -> tuple[type[Any], type[Actor], type[Leg]]:
    fields: list[type[BaseModel]] = []
    actions: dict[str, type[BaseModel]] = {}
    for ruleset in registry.names():
        own = own_fields(ruleset)
        if own is not None and own not in fields:
            fields.append(own)
        actions.update((action_name(model), model) for model in own_actions(ruleset))
    return _build("AnyGame", "any game's", tuple(fields), tuple(actions.values()))


def _build(
    title: str,
    what: str,
    fields: tuple[type[BaseModel], ...],
    actions: tuple[type[BaseModel], ...],
) -> tuple[type[Any], type[Actor], type[Leg]]:
    """The scenario, actor and leg models with these actor ``fields`` models and plan
    ``actions`` beside the shared ones, named ``{title}Scenario`` and so on."""
    from vigile.scene.model import MAX_ITEMS, Scenario

    actor: type[Actor] = Actor
    if fields:
        bases: Any = (Actor, *fields)  # the shared fields, then the game's
        actor = create_model(
            f"{title}Actor",
            __base__=bases,
            __module__=__name__,
            __doc__=f"An actor of {what} scenario: "
            + "; ".join(model.__doc__ or model.__name__ for model in fields),
        )
    leg: type[Leg] = Leg
    if actions:
        one = Annotated[
            Union[*SHARED_ACTIONS, *actions],  # type: ignore[valid-type]
            Field(discriminator="do"),
        ]
        leg = create_model(
            f"{title}Leg",
            __base__=Leg,
            __module__=__name__,
            __doc__=f"A leg of {what} plan: the shared actions and the game's own.",
            actions=(
                Annotated[tuple[one, ...], Field(max_length=MAX_ACTIONS)],
                Field((), description="What it does at the waypoint, in order."),
            ),
        )
    one_actor: Any = actor
    one_leg: Any = leg
    made: type[Scenario] = create_model(
        f"{title}Scenario",
        __base__=Scenario,
        __module__=__name__,
        __doc__=f"{what[0].upper()}{what[1:]} scenario: the shared fields, its actors and legs.",
        actors=(
            Annotated[tuple[one_actor, ...], Field(min_length=1, max_length=MAX_ITEMS)],
            Field(description="Everyone on the board."),
        ),
        plans=(
            Annotated[dict[Name, tuple[one_leg, ...]], Field(max_length=MAX_ITEMS)],
            Field(
                default_factory=dict,
                description="Each attacker's plan: a list of legs, by actor name.",
            ),
        ),
    )
    return made, actor, leg
