"""The JSON Schema of the scenario format, for editors (``vigile scenario schema``)."""

from __future__ import annotations

from typing import Any

from vigile.scene.model import Scenario

SCHEMA_ID = "https://vigile.invalid/schema/scenario.json"
"""The schema's ``$id``: a name, not a place to fetch it from."""


def scenario_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a scenario file, every field described."""
    schema = Scenario.model_json_schema(mode="validation")
    # ``units`` may be left out: the loader fills in the ruleset's (cm or ft).
    schema["required"] = [name for name in schema.get("required", []) if name != "units"]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        **schema,
        "title": "vigile scenario",
    }
