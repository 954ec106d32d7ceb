"""The JSON Schema of the scenario format, for editors (``vigile scenario schema``)."""

from __future__ import annotations

from typing import Any

from vigile.scene.model import any_game_model, scenario_model

SCHEMA_ID = "https://vigile.invalid/schema/scenario.json"
"""The schema's ``$id``: a name, not a place to fetch it from."""


def scenario_json_schema(ruleset: str | None = None) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a scenario file, every field described: of any
    game's (every game's own actor fields and plan actions admitted), or with ``ruleset`` of
    that game's only (:mod:`vigile.scene.games`)."""
    model = any_game_model() if ruleset is None else scenario_model(ruleset)
    schema = model.model_json_schema(mode="validation")
    # ``units`` may be left out: the loader fills in the ruleset's (cm or ft).
    schema["required"] = [name for name in schema.get("required", []) if name != "units"]
    if ruleset is not None:
        schema["properties"]["ruleset"] = {**schema["properties"]["ruleset"], "const": ruleset}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID if ruleset is None else SCHEMA_ID.replace(".json", f"-{ruleset}.json"),
        **schema,
        "title": "vigile scenario" if ruleset is None else f"vigile {ruleset} scenario",
    }
