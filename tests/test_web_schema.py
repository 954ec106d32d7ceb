"""The OpenAPI schema as the contract, fuzzed by schemathesis against a real ``vigile serve``
(SQLite): no request the schema allows, nor one it does not, gets a 5xx; every answer conforms
to the schema (its status documented, its content type, its body); a request the schema forbids
is refused; every 4xx is an RFC 9457 problem. Bounded: a few examples per operation."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from requests.structures import CaseInsensitiveDict
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from vigile.io.i18n import Lang
from vigile.store import Store
from vigile.web import create_app
from web_server import Server, new_encounter

EXAMPLES = 60
"""Cases per operation, valid and not: about as many requests in all (1,260) as schemathesis's
own phases (examples, coverage, fuzzing) made at 12 fuzzed examples an operation."""


@pytest.fixture(scope="module")
def fuzzed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path: Path = tmp_path_factory.mktemp("fuzz") / "vigile.db"
    running = Server(f"sqlite:///{path}").start()
    try:
        yield running
    finally:
        running.stop()


def _openapi() -> dict[str, Any]:
    """The schema the server serves at /openapi.json (the same app, built here)."""
    with Store("sqlite://") as store:
        document: dict[str, Any] = create_app(store, gm_token="x" * 32).openapi()
    return document


CONFIG = schemathesis.Config.from_dict(
    {"checks": {"negative_data_rejection": {"expected-statuses": ["4XX"]}}}
)
"""A request the schema forbids is refused with any 4xx: 413 for a body over the cap, 408 for
one too slow, as well as schemathesis's own list (400, 422...)."""
schema = schemathesis.openapi.from_dict(_openapi(), config=CONFIG)
OPERATIONS = [result.ok() for result in schema.get_all_operations()]
"""Every operation of the schema, a test each (plain pytest parameters: schemathesis's own
``schema.parametrize()`` ran a handful of its cases under pytest-xdist's workers)."""


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda operation: operation.label)
def test_the_api_never_fails_and_answers_every_error_with_a_problem(
    operation: Any, fuzzed_server: Server
) -> None:
    """Requests the schema allows and requests it does not (both generation modes)."""
    cases = st.one_of(*(operation.as_strategy(mode) for mode in schemathesis.GenerationMode))

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    @given(case=cases)
    def answers(case: schemathesis.Case) -> None:
        _answers(case, fuzzed_server)

    answers()


def _answers(case: schemathesis.Case, fuzzed_server: Server) -> None:
    # The server's token, and a real encounter, are set on the case itself (new containers, not
    # edited in place): schemathesis then judges the request it sends, which they may have made
    # valid where it had drawn an invalid header or path.
    headers = CaseInsensitiveDict(case.headers or {})
    headers["Authorization"] = f"Bearer {fuzzed_server.token}"
    case.headers = headers
    path = case.operation.path
    if (
        case.path_parameters
        and "encounter_id" in case.path_parameters
        and not path.endswith("/stream")
    ):  # a real encounter, so that the fuzzing reaches the game (a stream would not end)
        case.path_parameters = {**case.path_parameters, "encounter_id": _encounter(fuzzed_server)}
    response = case.call(base_url=fuzzed_server.base, timeout=20)
    case.validate_response(response, checks=CHECKS)
    if 400 <= response.status_code < 500:
        content_type = response.headers["content-type"]  # schemathesis: a list per header
        assert content_type == ["application/problem+json"], response.text
        body = response.json()
        assert body["status"] == response.status_code and body["title"]
        assert body["title"] in _titles(), body


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    negative_data_rejection,
]
"""No 5xx; every answer's status, content type, headers and body as the schema documents them;
and a request the schema forbids (a string where it declares an integer...) is refused."""

_ENCOUNTERS: dict[str, str] = {}


def _encounter(server: Server) -> str:
    """A night raid on this server, the same one for every example (until one archives it)."""
    if server.base not in _ENCOUNTERS:
        with server.client() as gm:
            created = new_encounter(gm, seed=1)
        _ENCOUNTERS[server.base] = created["encounter"]["id"]
    return _ENCOUNTERS[server.base]


def _titles() -> set[str]:
    from vigile.web.problems import HTTP_TITLES, TITLES

    return {t[lang] for table in (TITLES, HTTP_TITLES) for t in table.values() for lang in Lang}
