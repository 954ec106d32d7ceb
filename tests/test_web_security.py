"""The pages under attack (issue 34), in-process: the security headers on every response, a
map's background that would break out of its attribute refused at validation (and escaped all
the same when a scenario gets past validation), the picture's URL built by a URL builder, the
editor's upload form, and templates with no inline script, no event-handler attribute and no
expression a script library would evaluate. The browser tests (tests/test_browser_injection.py)
load hostile scenarios into every page in Chromium."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape
from starlette.requests import Request

from vigile.io.i18n import Lang
from vigile.scene.loader import check_text, parse_scenario
from vigile.store import Store
from vigile.web import pages
from vigile.web.app import create_app
from vigile.web.editor import background_url, configure, map_svg
from vigile.web.headers import HEADERS, POLICY

TOKEN = "security-test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
TEMPLATES = Path(pages.__file__).parent / "templates"
STATIC = Path(pages.__file__).parent / "static"

SCENARIO = """\
ruleset: skirmish
name: A picture under the board
units: cm
time: night
map: {{width: 100, height: 60, background: {background}}}
turns: 4
actors:
  - {{name: Kage, side: attackers, position: [10, 10], ninja: true}}
  - {{name: Jubei, side: defenders, position: [60, 30], state: posted}}
"""
BREAKOUT = '"/><img src=x onerror=alert(document.domain)>.png'
"""The review's payload: it closed the ``href`` and the ``<image>``, then ran a script."""


def scenario_text(background: str) -> str:
    return SCENARIO.format(background=json.dumps(background))  # a YAML double-quoted string


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    return folder


@pytest.fixture
def client(tmp_path: Path, workspace: Path) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path / 'security.db'}")
    app = create_app(store, gm_token=TOKEN, max_body=64 * 1024)
    configure(app, workspace=workspace)
    with TestClient(app) as test_client:
        yield test_client
    store.close()


# ------------------------------------------------------------------------------ the headers


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    """Pages, fragments, static files, the API, its problems (401, 404, 413, 422) and the
    login page: each with the policy, nosniff, no referrer and no framing."""
    created = client.post("/api/v1/encounters", json={"scenario": "night-raid"}, headers=AUTH)
    encounter = created.json()["encounter"]["id"]
    answers = {
        "list": client.get(f"/?token={TOKEN}"),
        "login": client.get("/"),
        "gm page": client.get(f"/encounters/{encounter}?token={TOKEN}"),
        "fragment": client.get(f"/encounters/{encounter}/panels", headers=AUTH),
        "calculator": client.get("/checks"),
        "editor": client.get(f"/editor?token={TOKEN}"),
        "static": client.get("/static/vigile.js"),
        "api": client.get("/api/v1/health"),
        "schema": client.get("/openapi.json"),
        "401": client.get("/api/v1/encounters"),
        "404": client.get("/nowhere"),
        "413": client.post("/api/v1/encounters", content=b"x" * 70_000, headers=AUTH),
        "422": client.post("/api/v1/encounters", json={"scenario": 3}, headers=AUTH),
    }
    assert answers["413"].status_code == 413 and answers["404"].status_code == 404
    for what, response in answers.items():
        for name, value in HEADERS.items():
            assert response.headers.get(name) == value, (what, name)


def test_the_policy_forbids_inline_script_eval_framing_and_plugins() -> None:
    directives = dict(part.split(" ", 1) for part in POLICY.split("; "))
    assert directives["script-src"] == "'self'"  # no 'unsafe-inline', no 'unsafe-eval'
    assert directives["object-src"] == "'none'"
    assert directives["base-uri"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in directives["style-src"]
    assert HEADERS["X-Content-Type-Options"] == "nosniff"
    assert HEADERS["Referrer-Policy"] == "no-referrer"


def test_the_api_documentation_allows_its_one_inline_script_by_hash(client: TestClient) -> None:
    page = client.get("/docs")
    inline = re.findall(rb"<script>(.*?)</script>", page.content, re.S)
    assert len(inline) == 1
    digest = base64.b64encode(hashlib.sha256(inline[0]).digest()).decode()
    policy = page.headers["Content-Security-Policy"]
    script_src = next(d for d in policy.split("; ") if d.startswith("script-src "))
    assert script_src == f"script-src https://cdn.jsdelivr.net 'sha256-{digest}'"
    assert "frame-ancestors 'none'" in policy
    assert page.headers["Referrer-Policy"] == "no-referrer"


# ------------------------------------------------------------------------------ the background


@pytest.mark.parametrize(
    "background",
    [
        BREAKOUT,
        "x' onload='alert(1).png",
        "a`b.png",
        "javascript:alert(1)//.png",
        "https://evil.example/x.png",
        "/etc/x.png",
        "../x.png",
        "maps/../../x.png",
        "a\x1b[31m.png",
        "a\u202eb.png",
    ],
)
def test_a_background_that_is_no_plain_relative_file_name_is_refused(background: str) -> None:
    """Refused at validation, by ``vigile scenario validate``'s own check, naming the field."""
    scenario, issues = check_text(scenario_text(background), file="hostile.yaml")
    assert scenario is None
    assert [issue.field for issue in issues] == ["map.background"], issues


def test_a_refused_background_is_a_clear_422_from_the_api(client: TestClient) -> None:
    response = client.post(
        "/api/v1/encounters",
        json={"text": scenario_text(BREAKOUT), "filename": "hostile.yaml"},
        headers=AUTH,
    )
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json"
    assert "map.background" in response.text


@pytest.mark.parametrize("background", ["crypt.png", "maps/crypt.webp", "a b&c #1?.png"])
def test_a_plain_relative_file_name_is_a_background(background: str) -> None:
    scenario, issues = check_text(scenario_text(background), file="fine.yaml")
    assert issues == [] and scenario is not None
    assert scenario.map.background == background


class Images(HTMLParser):
    """The ``href`` of each ``<image class="background">`` (entities decoded)."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        found = dict(attrs)
        if tag == "image" and found.get("class") == "background":
            self.hrefs.append(found.get("href") or "")


def images(markup: str) -> Images:
    parser = Images()
    parser.feed(markup)
    return parser


def test_the_map_escapes_a_background_that_got_past_validation(client: TestClient) -> None:
    """Defence in depth: a scenario built without validation (``model_copy``) whose background
    is the review's payload draws one ``<image>``, its ``href`` the payload percent-encoded,
    and no ``<img>``. Before the fix the f-string put it into the markup as it was."""
    fine = parse_scenario(scenario_text("crypt.png"))
    hostile = fine.model_copy(update={"map": fine.map.model_copy(update={"background": BREAKOUT})})
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/v1/editor/apply",
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "scheme": "http",
        "server": ("testserver", 80),
        "app": client.app,
    }
    drawn = map_svg(Request(scope), hostile, Lang.EN, "maps/raid.yaml", TOKEN)
    found = images(drawn)
    assert "img" not in found.tags
    assert found.hrefs == [
        "/editor/asset/maps/%22/%3E%3Cimg%20src%3Dx%20onerror%3Dalert%28document.domain%29%3E.png"
        f"?token={TOKEN}"
    ]


def test_the_picture_url_is_built_by_a_url_builder() -> None:
    assert background_url(None, "a.yaml", TOKEN) is None
    assert background_url("crypt.png", None, TOKEN) is None  # not a workspace file
    assert background_url("a b&c #1?.png", "maps/raid.yaml", "t&k") == (
        "/editor/asset/maps/a%20b%26c%20%231%3F.png?token=t%26k"
    )


PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg=="
)


def test_the_editor_draws_a_workspace_picture_it_can_fetch(
    client: TestClient, workspace: Path
) -> None:
    """A picture whose name holds a space, ``&``, ``#`` and ``?``: the editor's ``<image>``
    points at it (encoded, with the token an ``<image>`` cannot send in a header) and the
    asset route serves it. Before: the name went into the URL as it was (``#`` cut it short)
    and without the token (401), under the board's opaque ground."""
    name = "a b&c #1?.png"
    (workspace / "maps").mkdir()
    (workspace / "maps" / name).write_bytes(PNG)
    (workspace / "maps" / "raid.yaml").write_text(scenario_text(name), "utf-8")
    page = client.get(f"/editor?file=maps/raid.yaml&token={TOKEN}")
    assert page.status_code == 200
    hrefs = images(page.text).hrefs
    assert len(hrefs) == 1
    picture = client.get(hrefs[0])
    assert picture.status_code == 200 and picture.content == PNG
    assert client.get(hrefs[0].split("?")[0]).status_code == 401  # the token is needed
    ground = page.text.index('<rect class="ground"')
    assert ground < page.text.index('<image class="background"')  # over the ground, now


# ------------------------------------------------------------------------------ the upload form


def test_the_editors_upload_form_opens_the_file_not_the_login_page(client: TestClient) -> None:
    """The editor's own form (``editor.html``): ``POST /editor`` with the token as a field and
    no token in the URL or a header. Before the fix the token was written into the request's
    query after starlette had read (and kept) the query: the login page, always."""
    page = client.get(f"/editor?token={TOKEN}&lang=en").text
    form = re.search(r'<form method="post" action="([^"]+)" enctype="multipart/form-data">', page)
    assert form is not None
    action = html.unescape(form.group(1))
    assert "token" not in action  # the token travels in the form's body
    text = scenario_text("crypt.png").replace("A picture under the board", "Uploaded raid")
    response = client.post(
        action,
        data={"token": TOKEN},
        files={"file": ("uploaded.yaml", text.encode(), "application/yaml")},
    )
    assert response.status_code == 200
    assert 'id="token" name="token" type="password"' not in response.text  # not the login
    assert "Uploaded raid" in response.text and 'id="ed-yaml"' in response.text
    wrong = client.post(
        action, data={"token": "nope"}, files={"file": ("u.yaml", text.encode(), "text/plain")}
    )
    assert wrong.status_code == 401 and 'name="token" type="password"' in wrong.text


# ------------------------------------------------------------------------------ the templates

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
HANDLER = re.compile(r"\s(on[a-z]+)\s*=", re.I)
EVALUATED = re.compile(r"\s(x-[a-z:.-]+|@[a-z:.-]+|:[a-z-]+|hx-on[a-z:-]*)\s*=", re.I)


@pytest.mark.parametrize("template", sorted(p.name for p in TEMPLATES.glob("*.html")))
def test_no_template_holds_inline_script_handlers_or_evaluated_attributes(template: str) -> None:
    """What the policy would block (inline script, ``onclick=``) or what a library would run as
    code (Alpine's ``x-data``/``@click``/``:attr``, htmx's ``hx-on``, ``javascript:`` URLs)
    never comes back into a template. A ``<script type="application/json">`` is data."""
    text = (TEMPLATES / template).read_text("utf-8")
    assert not INLINE_SCRIPT.search(text)
    assert not HANDLER.search(text)
    assert not EVALUATED.search(text)
    assert "javascript:" not in text.lower()
    assert "|safe" not in text.replace(" ", "") or template in ("editor.html", "_joins.html")


def test_the_scripts_evaluate_no_text() -> None:
    for script in STATIC.glob("*.js"):
        code = script.read_text("utf-8")
        assert "eval(" not in code and "new Function" not in code, script.name
        assert 'setTimeout("' not in code and 'setInterval("' not in code, script.name


def test_the_calculator_writes_the_query_as_text_only(client: TestClient) -> None:
    """The distance of the query was an Alpine expression (``x-data="{ v: '...' }"``): a link
    could run a script. It is now a plain attribute value, escaped."""
    payload = "'-(window.__pwned=1)-'\"><script>window.__pwned=1</script>"
    page = client.get(
        "/checks", params={"game": "dnd35", "check": "listen", "o.distance": payload, "lang": "fr"}
    ).text
    assert "<script>window.__pwned" not in page
    assert f'value="{escape(payload)}"' in page
    assert "x-data" not in page
