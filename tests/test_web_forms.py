"""The GM page's forms against hostile input (issue 34): a die's sides, faces, a point or a seed
typed in any script or with 5,000 digits, and a JSON ``action`` nested 100,000 deep, are each
refused in the page (a fragment's alert, or the list's 422), never a 5xx. Numbers typed in a form
are ASCII decimal digits, bounded (:func:`vigile.web.pageplay.whole`, ``number``); the
``action`` is measured before it is parsed (:func:`vigile.web.pageplay.check_json`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from vigile.errors import InputError
from vigile.store import Store
from vigile.web.app import create_app
from vigile.web.pageplay import MAX_DEPTH, MAX_JSON, check_json, number, whole

TOKEN = "form-test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
END_TURN = '{"do": "end-turn"}'


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app for the module: every hostile form below is refused before it plays anything."""
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('forms') / 'forms.db'}")
    app = create_app(store, gm_token=TOKEN)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client
    store.close()


_STARTED: dict[tuple[int, str], str] = {}


def start(client: TestClient, dice: str = "given") -> str:
    """A night raid (one per way of rolling, for the module)."""
    key = (id(client), dice)
    if key not in _STARTED:
        response = client.post(
            "/encounters",
            data={"token": TOKEN, "scenario": "night-raid", "dice": dice},
            follow_redirects=False,
        )
        assert response.status_code == 303, response.text
        found = re.match(r"/encounters/([0-9a-f]+)\?token=", response.headers["location"])
        assert found is not None
        _STARTED[key] = found.group(1)
    return _STARTED[key]


def alert(response: object) -> str:
    """The fragment's alert text (asserting the answer is a page's 200 with one)."""
    assert getattr(response, "status_code", None) == 200, response
    text: str = getattr(response, "text", "")
    assert 'role="alert"' in text, text[:500]
    return text


HOSTILE_NUMBERS = ["0", "00", "²", "³", "٣", "1_0", "9" * 5000, "-1", "101", "1e2", "0x10"]


@pytest.mark.parametrize("sides", [*HOSTILE_NUMBERS, "", " "], ids=lambda s: repr(s[:8]))
def test_a_roll_with_sides_that_are_no_die_is_refused_not_a_5xx(
    client: TestClient, sides: str
) -> None:
    encounter = start(client)
    response = client.post(
        f"/encounters/{encounter}/act",
        data={"roll": "1", "sides": sides, "action": END_TURN},
        headers=AUTH,
    )
    assert "sides" in alert(response)


@pytest.mark.parametrize("face", HOSTILE_NUMBERS, ids=lambda s: repr(s[:8]))
def test_a_typed_die_that_is_no_face_is_refused(client: TestClient, face: str) -> None:
    encounter = start(client)
    for field in ("die", "dice"):
        response = client.post(
            f"/encounters/{encounter}/act",
            data={field: face, "action": END_TURN},
            headers=AUTH,
        )
        assert "dice" in alert(response)


def test_a_roll_of_a_real_die_still_rolls(client: TestClient) -> None:
    """The dice prompt's own "roll for me" (sides 6) adds the die it draws: the next die is
    asked for, or the action is played."""
    encounter = start(client, dice="given")
    grapple = '{"do": "throw-grapple", "actor": "Kage", "at": [60, 10]}'
    response = client.post(
        f"/encounters/{encounter}/act",
        data={"roll": "1", "sides": "6", "action": grapple},
        headers=AUTH,
    )
    assert response.status_code == 200 and 'role="alert"' not in response.text
    assert 'data-die="1"' in response.text or 'class="played' in response.text


@pytest.mark.parametrize("path", ["act", "preview"])
@pytest.mark.parametrize(
    "action",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"do": "move", "to": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "{" * 100_000,
        '{"do": "' + "x" * (MAX_JSON + 1) + '"}',
    ],
    ids=["array", "in-object", "unclosed", "long"],
)
def test_a_json_action_too_deep_or_too_long_is_refused_before_parsing(
    client: TestClient, path: str, action: str
) -> None:
    encounter = start(client)
    response = client.post(f"/encounters/{encounter}/{path}", data={"action": action}, headers=AUTH)
    text = alert(response)
    assert "deep" in text or "characters" in text


@pytest.mark.parametrize("x", ["1e400", "nan", "inf", "٣", "1_0", "9" * 5000, "1.2.3"])
def test_a_point_typed_in_another_script_or_notation_is_refused(client: TestClient, x: str) -> None:
    encounter = start(client, dice="rolled")
    for path in ("preview", "act"):
        response = client.post(
            f"/encounters/{encounter}/{path}",
            data={"do": "move", "actor": "Kage", "x": x, "y": "12", "move.speed": "half"},
            headers=AUTH,
        )
        assert "is not a number" in alert(response)


@pytest.mark.parametrize("seed", ["²", "٣", "1_0", "9" * 5000, "-1", str(2**63)])
def test_a_seed_that_is_no_whole_number_is_refused_on_the_list(
    client: TestClient, seed: str
) -> None:
    response = client.post(
        "/encounters",
        data={"token": TOKEN, "scenario": "night-raid", "dice": "rolled", "seed": seed},
        follow_redirects=False,
    )
    assert response.status_code == 422 and "whole number" in response.text


def test_the_calculator_takes_ascii_numbers_only(client: TestClient) -> None:
    for seed in ("²", "9" * 5000):
        response = client.get(
            "/checks/result",
            params={"game": "skirmish", "check": "sight", "o.attitude": "half", "seed": seed},
        )
        assert response.status_code == 200 and 'role="alert"' in response.text


# ------------------------------------------------------------------------------ the parsers


def test_whole_and_number_read_ascii_decimal_only() -> None:
    assert whole(" 42 ", "f", 1, 100) == 42
    assert whole("007", "f", 1, 100) == 7
    assert number("-3.5", "f") == -3.5 and number("7,5", "f") == 7.5 and number("+2", "f") == 2
    for text in ("0", "101", "²", "٣", "1_0", "+1", "1.0", "9" * 13, ""):
        with pytest.raises(InputError):
            whole(text, "f", 1, 100)
    for text in ("1e3", "nan", "inf", "٣", "1_0", "9" * 13, ".5", "5.", "", "0x1"):
        with pytest.raises(InputError):
            number(text, "f")


def test_check_json_counts_brackets_outside_strings_only() -> None:
    deep = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    check_json(deep, "action")
    check_json('{"text": "' + "[" * 1000 + '"}', "action")  # inside a string: no nesting
    check_json('{"text": "\\"[[[[[[[[[[[[[[[[[[[[\\""}', "action")  # escaped quotes
    with pytest.raises(InputError, match="deep"):
        check_json("[" + deep + "]", "action")
    with pytest.raises(InputError, match="deep"):
        check_json('{"a": "\\\\", "b": ' + "[" * (MAX_DEPTH + 1) + "}", "action")


def test_the_calculator_s_placeholders_are_in_the_page_s_language(client: TestClient) -> None:
    """A check option's placeholder is its default, with the language's decimal mark, else the
    mark of its value as the command line writes it in that language (``--distance PIEDS``)."""
    marks = {}
    for lang in ("en", "fr"):
        page = client.get(f"/checks?lang={lang}&game=starfinder&check=hide").text
        marks[lang] = set(re.findall(r'placeholder="([^"]*)"', page))
    assert {"FT", "VALUE:LABEL"} <= marks["en"] and not {"PIEDS", "VALEUR:ÉTIQUETTE"} & marks["en"]
    assert {"PIEDS", "VALEUR:ÉTIQUETTE"} <= marks["fr"] and not {"FT", "VALUE:LABEL"} & marks["fr"]
    assert "BONUS" in marks["fr"]  # the same word in French
