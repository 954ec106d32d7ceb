"""The scenario schema's field descriptions come from the attribute docstrings, read when the
schema is made (:data:`vigile.scene.actors.MODEL_CONFIG`), not as each model class is made:
they must be the very ones pydantic's own ``use_attribute_docstrings`` gives.

The reference is computed, not saved: a fresh process turns pydantic's docstring reading on
for every model before importing vigile (as ``MODEL_CONFIG`` did before the change), so
pydantic itself describes each field as its class is made; its schemas must equal this
process's, byte for byte, for any game and for each game's own.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from vigile import registry
from vigile.scene.actors import MODEL_CONFIG, Actor, attribute_docstrings
from vigile.scene.model import Scenario
from vigile.scene.schema import scenario_json_schema

REFERENCE = """
import json, sys
from pydantic._internal import _config
assert _config.config_defaults["use_attribute_docstrings"] is False
_config.config_defaults["use_attribute_docstrings"] = True
from vigile import registry
from vigile.scene.actors import Actor
from vigile.scene.schema import scenario_json_schema
assert Actor.model_fields["name"].description  # pydantic read the docstrings itself
schemas = {"any": scenario_json_schema()}
schemas.update((name, scenario_json_schema(name)) for name in registry.names())
sys.stdout.write(json.dumps(schemas, indent=1))
"""


def _schemas() -> dict[str, Any]:
    schemas = {"any": scenario_json_schema()}
    schemas.update((name, scenario_json_schema(name)) for name in registry.names())
    return schemas


def _descriptions(node: Any, path: str = "") -> dict[str, str]:
    found: dict[str, str] = {}
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                found[path] = value
            else:
                found.update(_descriptions(value, f"{path}/{key}"))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.update(_descriptions(value, f"{path}/{index}"))
    return found


def test_the_schema_is_the_one_pydantic_describes_from_the_docstrings() -> None:
    done = subprocess.run(
        [sys.executable, "-c", REFERENCE], capture_output=True, text=True, check=True
    )
    reference = json.loads(done.stdout)
    made = _schemas()
    assert set(made) == set(reference) >= {"any", "skirmish", "dnd35", "starfinder"}
    for name in reference:
        assert _descriptions(made[name]) == _descriptions(reference[name]), name
        assert json.dumps(made[name], indent=1) == json.dumps(reference[name], indent=1), name
    # The comparison has something to compare: well over a hundred descriptions.
    assert len(_descriptions(made["any"])) > 150
    position = made["any"]["$defs"]["AnyGameActor"]["properties"]["position"]
    assert position["description"].startswith("Where it stands at the start")


def test_no_docstring_is_read_as_the_models_are_made() -> None:
    assert "use_attribute_docstrings" not in MODEL_CONFIG
    assert Actor.model_fields["name"].description is None
    assert attribute_docstrings(Actor)["name"].startswith("Unique name")
    # An inherited field takes its base's docstring; a given description is kept as given.
    game = scenario_json_schema("dnd35")["$defs"]
    actor = next(props for key, props in game.items() if key.endswith("Actor"))["properties"]
    assert actor["name"]["description"] == attribute_docstrings(Actor)["name"]
    assert "map" in attribute_docstrings(Scenario)


def test_a_model_that_turns_the_docstrings_off_gets_none() -> None:
    class Quiet(BaseModel):
        model_config = ConfigDict(**{**MODEL_CONFIG, "use_attribute_docstrings": False})

        loud: int = 0
        """Not read."""

    class Spoken(BaseModel):
        model_config = MODEL_CONFIG

        said: int = 0
        """Read when the schema is made."""

        given: int = Field(0, description="Its own.")
        """Not read: the field has its own description."""

    assert attribute_docstrings(Quiet) == {}
    assert "description" not in Quiet.model_json_schema()["properties"]["loud"]
    properties = Spoken.model_json_schema()["properties"]
    assert properties["said"]["description"] == "Read when the schema is made."
    assert properties["given"]["description"] == "Its own."
